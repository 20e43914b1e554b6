// Package runtime is a stub of k8s.io/apimachinery/pkg/util/runtime for
// the analyzers' fixtures: its error handlers log, with the context's
// logger, and pause between errors.
package runtime

import (
	"context"
	"time"
)

var ErrorHandlers = []func(ctx context.Context, err error, msg string, keysAndValues ...any){
	func(ctx context.Context, err error, msg string, kv ...any) {
		select {
		case <-ctx.Done():
		case <-time.After(time.Millisecond):
		}
	},
}

func HandleError(err error) {
	if err == nil {
		return
	}
	handleError(context.Background(), err, "Unhandled Error")
}

func HandleErrorWithContext(ctx context.Context, err error, msg string, keysAndValues ...any) {
	handleError(ctx, err, msg, keysAndValues...)
}

func handleError(ctx context.Context, err error, msg string, keysAndValues ...any) {
	for _, fn := range ErrorHandlers {
		fn(ctx, err, msg, keysAndValues...)
	}
}
