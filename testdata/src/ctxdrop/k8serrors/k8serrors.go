// Package k8serrors reports errors with Kubernetes' handler, whose
// context is its logger's.
package k8serrors

import (
	"context"
	"errors"

	"k8s.io/apimachinery/pkg/util/runtime"
)

// ok: HandleError's own context reaches only the error handlers, which
// read it for logging.
func process(ctx context.Context, item any) error {
	if _, ok := item.(string); !ok {
		runtime.HandleError(errors.New("expected a string key"))
		return nil
	}
	return ctx.Err()
}
