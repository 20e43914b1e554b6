// Package sync calls the fetcher from retry layers of its own: layers
// sharing the fetcher's backoff object spend one budget and are not
// reported; layers with an object of their own multiply.
package sync

import (
	"context"
	"time"

	"github.com/cenkalti/backoff/v4"

	"retrystack/backoffs/fetcher"
)

type Syncer struct {
	f *fetcher.Fetcher
}

// Shared hands its loop's object to Fetch: not reported.
func (s *Syncer) Shared(ctx context.Context) error {
	b := backoff.NewExponentialBackOff()
	for {
		err := s.f.Fetch(ctx, b)
		if err == nil {
			return nil
		}
		d := b.NextBackOff()
		if d == backoff.Stop {
			return err
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(d):
		}
	}
}

// SharedLibrary retries with backoff.Retry on the object it gives Fetch
// and FetchWith, through a closure: not reported.
func (s *Syncer) SharedLibrary(ctx context.Context) error {
	b := backoff.WithContext(backoff.NewExponentialBackOff(), ctx)
	return backoff.Retry(func() error {
		if err := s.f.FetchWith(ctx, b); err != nil {
			return err
		}
		return s.f.Fetch(ctx, b)
	}, b)
}

// Separate gives Fetch an object of its own: the layers multiply. Its
// loop leaves when its object, which allows 2 retries, says stop: 3
// attempts.
func (s *Syncer) Separate(ctx context.Context) error {
	outer := backoff.WithMaxRetries(backoff.NewExponentialBackOff(), 2)
	for {
		err := s.f.Fetch(ctx, backoff.NewConstantBackOff(time.Second)) // want `retry loop \(3 attempts\) wraps fetcher.Fetcher.Fetch, which retries without bound \(fetcher.go:\d+\): attempts without bound per call`
		if err == nil {
			return nil
		}
		d := outer.NextBackOff()
		if d == backoff.Stop {
			return err
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(d):
		}
	}
}

// Counted loops three times around Fetch, which has its own budget.
func (s *Syncer) Counted(ctx context.Context, b backoff.BackOff) error {
	var err error
	for i := 0; i < 3; i++ {
		if err = s.f.Fetch(ctx, b); err == nil { // want `retry loop \(3 attempts\) wraps fetcher.Fetcher.Fetch`
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(time.Second):
		}
	}
	return err
}

// Poll reaches the fetcher's shared layers: one budget, not reported.
func (s *Syncer) Poll(ctx context.Context) error {
	return s.f.Poll(ctx)
}
