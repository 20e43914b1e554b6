// Package retry is a stub of resilvet's runtime retry package for tests.
package retry

import (
	"context"
	"time"
)

type Policy struct {
	MaxAttempts int
	BaseDelay   time.Duration
	MaxDelay    time.Duration
	Retryable   func(error) bool
	AllowNested bool
}

func Do(ctx context.Context, p *Policy, fn func(context.Context) error) error { return fn(ctx) }

func DoValue[T any](ctx context.Context, p *Policy, fn func(context.Context) (T, error)) (T, error) {
	return fn(ctx)
}
