// Package backoff is a stub of github.com/cenkalti/backoff/v7 for tests (the same API as v5).
package backoff

import (
	"context"
	"time"
)

type BackOff interface {
	NextBackOff() time.Duration
	Reset()
}

type Operation[T any] func() (T, error)

type Notify func(error, time.Duration)

type ExponentialBackOff struct{ InitialInterval time.Duration }

func (b *ExponentialBackOff) NextBackOff() time.Duration { return 0 }
func (b *ExponentialBackOff) Reset()                     {}

func NewExponentialBackOff() *ExponentialBackOff { return &ExponentialBackOff{} }

type RetryOption func(*retryOptions)

type retryOptions struct{}

func WithBackOff(b BackOff) RetryOption { return nil }

func WithNotify(n Notify) RetryOption { return nil }

func WithMaxTries(n uint) RetryOption { return nil }

func WithMaxElapsedTime(d time.Duration) RetryOption { return nil }

func Retry[T any](ctx context.Context, operation Operation[T], opts ...RetryOption) (T, error) {
	return operation()
}

func Permanent(err error) error { return err }
