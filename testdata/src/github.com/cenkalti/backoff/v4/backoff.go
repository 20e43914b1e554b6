// Package backoff is a stub of github.com/cenkalti/backoff/v4 for tests.
package backoff

import (
	"context"
	"time"
)

type BackOff interface {
	NextBackOff() time.Duration
	Reset()
}

type BackOffContext interface {
	BackOff
	Context() context.Context
}

type Operation func() error

type OperationWithData[T any] func() (T, error)

type Notify func(error, time.Duration)

type ExponentialBackOff struct {
	InitialInterval time.Duration
	MaxElapsedTime  time.Duration
}

func (b *ExponentialBackOff) NextBackOff() time.Duration { return 0 }
func (b *ExponentialBackOff) Reset()                     {}

type ExponentialBackOffOpts func(*ExponentialBackOff)

func NewExponentialBackOff(opts ...ExponentialBackOffOpts) *ExponentialBackOff {
	return &ExponentialBackOff{}
}

type ConstantBackOff struct{ Interval time.Duration }

func (b *ConstantBackOff) NextBackOff() time.Duration { return b.Interval }
func (b *ConstantBackOff) Reset()                     {}

func NewConstantBackOff(d time.Duration) *ConstantBackOff { return &ConstantBackOff{Interval: d} }

type StopBackOff struct{}

func (b *StopBackOff) NextBackOff() time.Duration { return -1 }
func (b *StopBackOff) Reset()                     {}

const Stop time.Duration = -1

func WithMaxRetries(b BackOff, max uint64) BackOff { return b }

func WithContext(b BackOff, ctx context.Context) BackOffContext { return nil }

func Retry(o Operation, b BackOff) error { return o() }

func RetryWithData[T any](o OperationWithData[T], b BackOff) (T, error) { return o() }

func RetryNotify(operation Operation, b BackOff, notify Notify) error { return operation() }

func RetryNotifyWithData[T any](operation OperationWithData[T], b BackOff, notify Notify) (T, error) {
	return operation()
}

func Permanent(err error) error { return err }
