package grpcx

import (
	"context"
	"time"

	"github.com/resilvet/resilvet/runtime/clocktest"
)

// Clock is the time source of the interceptors' deadlines and timeouts,
// as the runtime's other packages take one: nil means the wall clock; a
// *clocktest.Clock makes a test's timeouts fire as it advances the fake
// time. A timeout on a clock gives the call a deadline set from the
// clock's time, which gRPC sends to the server as the time left by the
// wall clock, and a timer on the clock that ends the call: on a fake
// clock started ahead of the wall clock (clocktest.New(time.Now().Add(time.Hour))),
// calls end only when the test advances it. BreakerOutcome, a classifier
// of its own, reads the wall clock.
type Clock interface {
	Now() time.Time
	AfterFunc(d time.Duration, f func()) clocktest.Timer
}

// wall is the wall clock.
type wall struct{}

func (wall) Now() time.Time { return time.Now() }

func (wall) AfterFunc(d time.Duration, f func()) clocktest.Timer { return time.AfterFunc(d, f) }

// clockOr returns c, or the wall clock when c is nil.
func clockOr(c Clock) Clock {
	if c == nil {
		return wall{}
	}
	return c
}

// clockOf returns the clock of an interceptor's optional clock argument.
func clockOf(clk []Clock) Clock {
	if len(clk) == 0 {
		return wall{}
	}
	return clockOr(clk[0])
}

// withTimeout is context.WithTimeout on clk: the context's deadline is
// clk's now plus d, and it is cancelled, with context.DeadlineExceeded as
// its cause, when d has passed on clk.
func withTimeout(ctx context.Context, clk Clock, d time.Duration) (context.Context, context.CancelFunc) {
	if _, ok := clk.(wall); ok {
		return context.WithTimeout(ctx, d)
	}
	dctx, cancelDeadline := context.WithDeadline(ctx, clk.Now().Add(d))
	c, cancel := context.WithCancelCause(dctx)
	t := clk.AfterFunc(d, func() { cancel(context.DeadlineExceeded) })
	return c, func() {
		t.Stop()
		cancel(nil)
		cancelDeadline()
	}
}
