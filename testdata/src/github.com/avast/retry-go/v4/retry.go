// Package retry is a stub of github.com/avast/retry-go/v4 for tests.
package retry

import (
	"context"
	"time"
)

type RetryableFunc func() error

type RetryableFuncWithData[T any] func() (T, error)

type Option func(*Config)

type Config struct{}

func Attempts(attempts uint) Option { return nil }

func UntilSucceeded() Option { return nil }

func Delay(delay time.Duration) Option { return nil }

func Context(ctx context.Context) Option { return nil }

func LastErrorOnly(lastErrorOnly bool) Option { return nil }

func RetryIf(retryIf func(error) bool) Option { return nil }

func Do(retryableFunc RetryableFunc, opts ...Option) error { return retryableFunc() }

func DoWithData[T any](retryableFunc RetryableFuncWithData[T], opts ...Option) (T, error) {
	return retryableFunc()
}

func Unrecoverable(err error) error { return err }
