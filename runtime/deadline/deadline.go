// Package deadline makes request deadlines travel: it adds a deadline
// only where none (or a later one) exists, reserves time for local work
// before handing the rest to a dependency, fails fast when the remaining
// budget cannot fit the work, drops expired work from queues, and carries
// the remaining budget across HTTP hops.
//
// A timeout is local ("wait 2 s for this call"); a deadline is end to end
// ("this request must finish by T"). Set one at the edge, pass the
// remaining budget minus a small reserve to each hop, check the budget
// before expensive work, and never start work for a caller that has
// already given up.
//
// Composition order inside one caller, outermost first:
//
//	deadline (this package) → retry (budget, remaining deadline) → breaker → per-attempt timeout
//
// Over HTTP, Transport sends the remaining budget as a relative duration
// in the Header (milliseconds, so clock skew between hosts does not
// matter) and Middleware turns it back into the request context's
// deadline. gRPC does the same with its own grpc-timeout header: a gRPC
// client call made with a context that has a deadline sends it, and a
// gRPC server sets the handler context's deadline from it, so no extra
// code is needed there; use Reserve before the call to keep time for the
// work that follows it.
//
// All functions are safe for concurrent use.
package deadline

import (
	"context"
	"errors"
	"time"

	"github.com/resilvet/resilvet/runtime/internal/clock"
)

// Errors. Both are returned without wrapping, for errors.Is.
var (
	// ErrInsufficient means the remaining budget cannot fit the work:
	// starting it would only waste the dependency's capacity.
	ErrInsufficient = errors.New("deadline: not enough time left")
	// ErrExpired means the budget is already spent.
	ErrExpired = errors.New("deadline: budget exhausted")
)

// Clock is the time source of the package-level functions; tests replace
// it through WithClock.
type Clock = clock.Clock

// Budget computes remaining time against a clock. The zero value uses the
// wall clock. Package-level functions use the zero Budget.
type Budget struct {
	// Clock defaults to the wall clock when nil.
	Clock Clock
}

var wall Budget

// Remaining returns the time left until ctx's deadline and true, or 0 and
// false when ctx has no deadline.
func Remaining(ctx context.Context) (time.Duration, bool) { return wall.Remaining(ctx) }

// Ensure returns a context whose deadline is at most d from now: ctx's own
// if it is earlier, else a new one. It never extends a deadline. The
// cancel function must be called, as with context.WithTimeout.
func Ensure(ctx context.Context, d time.Duration) (context.Context, context.CancelFunc) {
	return wall.Ensure(ctx, d)
}

// Reserve returns a child context whose deadline is ctx's minus margin,
// keeping margin for the local work that follows (decoding, writing the
// response). Without a deadline on ctx it returns a plain child. When the
// remaining time is not more than margin it returns a context that is
// already cancelled, so nothing is started by mistake, and, as Check
// does, ErrExpired if the deadline has passed, ErrInsufficient otherwise.
func Reserve(ctx context.Context, margin time.Duration) (context.Context, context.CancelFunc, error) {
	return wall.Reserve(ctx, margin)
}

// Check fails fast before expensive work: it returns ctx's error if ctx is
// done, ErrExpired if its deadline has passed, ErrInsufficient if less
// than need remains, and nil otherwise (also when ctx has no deadline).
func Check(ctx context.Context, need time.Duration) error { return wall.Check(ctx, need) }

// Live filters queued work in place, dropping the items whose context is
// done or whose deadline has passed, and returns the live ones in order.
// Serving expired work only adds load after the caller has gone.
func Live[T any](items []T, ctxOf func(T) context.Context) []T {
	return LiveAt(wall, items, ctxOf)
}

// Remaining is the package-level Remaining against b's clock.
func (b Budget) Remaining(ctx context.Context) (time.Duration, bool) {
	d, ok := ctx.Deadline()
	if !ok {
		return 0, false
	}
	return d.Sub(clock.Or(b.Clock).Now()), true
}

// Ensure is the package-level Ensure against b's clock.
func (b Budget) Ensure(ctx context.Context, d time.Duration) (context.Context, context.CancelFunc) {
	at := clock.Or(b.Clock).Now().Add(d)
	if cur, ok := ctx.Deadline(); ok && !cur.After(at) {
		return context.WithCancel(ctx)
	}
	return context.WithDeadline(ctx, at)
}

// Reserve is the package-level Reserve against b's clock.
func (b Budget) Reserve(ctx context.Context, margin time.Duration) (context.Context, context.CancelFunc, error) {
	left, ok := b.Remaining(ctx)
	if !ok {
		c, cancel := context.WithCancel(ctx)
		return c, cancel, nil
	}
	if left <= margin {
		c, cancel := context.WithCancel(ctx)
		cancel()
		if left <= 0 {
			return c, cancel, ErrExpired
		}
		return c, cancel, ErrInsufficient
	}
	d, _ := ctx.Deadline()
	c, cancel := context.WithDeadline(ctx, d.Add(-margin))
	return c, cancel, nil
}

// Check is the package-level Check against b's clock.
func (b Budget) Check(ctx context.Context, need time.Duration) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	left, ok := b.Remaining(ctx)
	switch {
	case !ok:
		return nil
	case left <= 0:
		return ErrExpired
	case left < need:
		return ErrInsufficient
	}
	return nil
}

// LiveAt is Live against b's clock.
func LiveAt[T any](b Budget, items []T, ctxOf func(T) context.Context) []T {
	out := items[:0]
	for _, it := range items {
		ctx := ctxOf(it)
		if ctx.Err() != nil {
			continue
		}
		if left, ok := b.Remaining(ctx); ok && left <= 0 {
			continue
		}
		out = append(out, it)
	}
	clear(items[len(out):]) // let dropped items be collected
	return out
}
