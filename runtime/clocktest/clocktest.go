// Package clocktest is a fake clock for testing code that uses the
// runtime: time moves only when the test says so, and timers fire as it
// does, so tests of cooldowns, backoffs and hedges take no real time and
// give the same result on every run.
//
// A *Clock fits every Clock field of the runtime: breaker.Settings.Clock
// (cooldowns, half-open timeouts, time windows, call durations),
// retry.Policy.Clock (time left before the deadline; give Sleep too, so
// that backoffs advance the clock instead of waiting), hedge.Policy.Clock
// (latencies, the default budget's window and the delay before each extra
// copy, whose timers fire inside Advance), budget.Ratio.Clock, the
// deadline package's Budget, Transport and Middleware options, and the gRPC
// adapter's (grpcx.Clock: the per-attempt and stream setup timeouts, whose
// timers fire inside Advance, DeadlineOptions and ServerOptions).
//
//	clk := clocktest.New(time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC))
//	br := breaker.New(breaker.Settings{Cooldown: 5 * time.Second, CooldownJitter: -1, Clock: clk})
//	// ... fail enough calls to open the circuit, then
//	clk.Advance(5 * time.Second) // the cooldown is over: the next call probes
//
// Advance runs the timers it makes due on the calling goroutine before it
// returns, so when it returns the extra copies of hedged calls due by
// then have been sent: their goroutines started, their OnHedge hooks
// called. A hedged operation can call Advance itself (the first copy runs
// on the caller's goroutine) to let the delay pass while it is in flight.
//
// What the clock does not fake: the deadlines of contexts, which expire
// by the wall clock, and sleeps and timers set by code other than the
// runtime. The runtime measures the time left before a deadline by its
// Clock, so on a clock started years ahead, as above, a context whose
// deadline is set from the fake time (context.WithDeadline(ctx,
// clk.Now().Add(time.Second))) runs out for the runtime when the fake time
// says, though its Done channel never closes.
package clocktest

import (
	"context"
	"time"

	"github.com/resilvet/resilvet/runtime/internal/clock"
)

// Clock is a fake clock. Make one with New. It is safe for concurrent
// use.
type Clock struct {
	fake *clock.Fake
}

// Timer is a function call waiting for its time, returned by AfterFunc:
//
//	Stop() bool                 // cancels the call; reports whether it was pending
//	Reset(d time.Duration) bool // makes it due d from now, pending again; reports whether it was
//
// It is the runtime's own timer interface, so that a *Clock sets the
// timers of the hedge package's scheduler.
type Timer = clock.Timer

// A *Clock must be a clock that sets timers: a hedge.Policy given a clock
// that cannot falls back to the wall clock, without a word.
var _ clock.TimerClock = (*Clock)(nil)

// New returns a Clock reading t.
func New(t time.Time) *Clock { return &Clock{clock.NewFake(t)} }

// Now returns the fake time.
func (c *Clock) Now() time.Time { return c.fake.Now() }

// Advance moves the time forward by d, then runs every timer now due, on
// the calling goroutine, earliest first (timers due at once in the order
// they were set), and returns when they have returned. A timer set or
// reset by one of them and due by the new time runs in the same Advance.
func (c *Clock) Advance(d time.Duration) { c.fake.Advance(d) }

// AfterFunc returns a timer that calls f once Advance has moved the time
// d from now or beyond: on the goroutine calling Advance, before Advance
// returns, and without the clock's lock, so f may read the clock and set
// timers. A timer due now or earlier (d <= 0) waits for the next Advance,
// Advance(0) included. f must not wait for the goroutine that advances.
func (c *Clock) AfterFunc(d time.Duration, f func()) Timer { return c.fake.AfterFunc(d, f) }

// PendingTimers returns how many timers are waiting to fire, so a test
// can wait until the code under test has set one before it advances.
func (c *Clock) PendingTimers() int { return c.fake.PendingTimers() }

// Sleep advances the clock by d as if the caller had slept that long, or
// returns ctx's error without advancing if ctx is done: the signature of
// retry.Policy.Sleep, so that a retry's backoffs move the fake time (and
// fire what falls due) instead of waiting. Goroutines that sleep at once
// each advance the clock: use it where one goroutine drives the time.
func (c *Clock) Sleep(ctx context.Context, d time.Duration) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	c.Advance(max(d, 0)) // a sleep never moves time back
	return nil
}
