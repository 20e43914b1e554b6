// Package retryx holds the retry helpers shared by the shipping services.
//
// Most code should call Do or Value, which wait with full-jitter backoff and
// stop when the context is done.
package retryx

import (
	"context"
	"errors"
	"math/rand/v2"
	"time"
)

type permanent struct{ error }

// heldout: clean — accessor, no loop
func (p permanent) Unwrap() error { return p.error }

// Permanent marks err as not worth retrying; Do, Value and Until return it at
// once.
//
// heldout: clean — wraps an error, no loop
func Permanent(err error) error {
	if err == nil {
		return nil
	}
	return permanent{err}
}

// IsPermanent reports whether err was marked with Permanent.
//
// heldout: clean — errors.As, no loop
func IsPermanent(err error) bool {
	var p permanent
	return errors.As(err, &p)
}

// Backoff is the full-jitter delay before retry number attempt (0-based).
//
// heldout: clean — arithmetic only; the loop only doubles a duration
func Backoff(attempt int, base, max time.Duration) time.Duration {
	d := base
	for i := 0; i < attempt && d < max; i++ {
		d *= 2
	}
	if d > max {
		d = max
	}
	return time.Duration(rand.Int64N(int64(d) + 1))
}

// Sleep waits for d or until ctx is done, whichever comes first.
//
// heldout: clean — a single select on ctx.Done and a timer, no loop
func Sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// Do calls fn up to attempts times, waiting with jittered backoff between
// attempts. It is the one retry layer callers are expected to use.
//
// heldout: clean — helper layer that waits in a select on ctx.Done and a timer; fn is a parameter
func Do(ctx context.Context, attempts int, fn func(context.Context) error) error {
	var err error
	for i := 0; i < attempts; i++ {
		if err = fn(ctx); err == nil {
			return nil
		}
		if IsPermanent(err) {
			return err
		}
		if i == attempts-1 {
			break
		}
		t := time.NewTimer(Backoff(i, 100*time.Millisecond, 5*time.Second))
		select {
		case <-ctx.Done():
			t.Stop()
			return errors.Join(err, ctx.Err())
		case <-t.C:
		}
	}
	return err
}

// Value is Do for calls that return a value.
//
// heldout: clean — helper layer that waits through Sleep (select on ctx.Done and a timer)
func Value[T any](ctx context.Context, attempts int, fn func(context.Context) (T, error)) (T, error) {
	var (
		v   T
		err error
	)
	for attempt := 0; ; attempt++ {
		v, err = fn(ctx)
		if err == nil || IsPermanent(err) {
			return v, err
		}
		if attempt+1 >= attempts {
			return v, err
		}
		if serr := Sleep(ctx, Backoff(attempt, 100*time.Millisecond, 5*time.Second)); serr != nil {
			return v, errors.Join(err, serr)
		}
	}
}

// Linear retries fn n times with a fixed pause. It is meant for start-up
// code that runs before there is a context (config loading, the first
// database ping).
//
// heldout: clean — time.Sleep in a retry loop, but the function has no context
func Linear(n int, pause time.Duration, fn func() error) error {
	var err error
	for i := 0; i < n; i++ {
		if err = fn(); err == nil {
			return nil
		}
		if i < n-1 {
			time.Sleep(pause)
		}
	}
	return err
}

// Until calls fn until it succeeds, returns a permanent error, or reports
// that the context was cancelled. Used by background jobs that must
// eventually get through.
//
// heldout: retrystack — sleep: unbounded retry loop waits with time.Sleep although ctx is a parameter
func Until(ctx context.Context, fn func(context.Context) error) error {
	for attempt := 0; ; attempt++ {
		err := fn(ctx)
		if err == nil || IsPermanent(err) {
			return err
		}
		if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
			return err
		}
		time.Sleep(Backoff(attempt, 250*time.Millisecond, 30*time.Second))
	}
}
