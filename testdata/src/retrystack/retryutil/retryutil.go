// Package retryutil holds retry helpers that callers in other packages
// hand their operations to.
package retryutil

import (
	"context"
	"time"
)

// Do calls fn up to n times, waiting between attempts.
func Do(ctx context.Context, n int, fn func() error) error {
	var err error
	for i := 0; i < n; i++ {
		if err = fn(); err == nil {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(time.Duration(i) * 100 * time.Millisecond):
		}
	}
	return err
}

// Value calls fn up to four times and returns its value.
func Value[T any](ctx context.Context, fn func(context.Context) (T, error)) (T, error) {
	var v T
	var err error
	for i := 0; i < 4; i++ {
		if v, err = fn(ctx); err == nil {
			return v, nil
		}
		Pause(ctx, i)
	}
	return v, err
}

// Pause waits before the next attempt.
func Pause(ctx context.Context, attempt int) {
	select {
	case <-ctx.Done():
	case <-time.After(time.Duration(attempt) * time.Second):
	}
}
