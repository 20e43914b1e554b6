// Package test holds black-box tests of the runtime's packages composed
// the way services use them.
package test

import (
	"context"
	"errors"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/resilvet/resilvet/runtime/breaker"
	"github.com/resilvet/resilvet/runtime/budget"
	"github.com/resilvet/resilvet/runtime/deadline"
	"github.com/resilvet/resilvet/runtime/hedge"
	"github.com/resilvet/resilvet/runtime/internal/clock"
	"github.com/resilvet/resilvet/runtime/internal/leaktest"
	"github.com/resilvet/resilvet/runtime/retry"
)

var errDown = syscall.ECONNREFUSED

func noSleep(ctx context.Context, _ time.Duration) error { return ctx.Err() }

// TestRetryStopsAtOpenCircuit: once the breaker opens, the retry layer
// around it stops at once instead of spending attempts on fast rejections.
func TestRetryStopsAtOpenCircuit(t *testing.T) {
	leaktest.Check(t)
	br := breaker.New(breaker.Settings{MinCalls: 2, WindowSize: 2})
	var calls atomic.Int32
	p := &retry.Policy{MaxAttempts: 10, Sleep: noSleep}
	err := retry.Do(context.Background(), p, func(ctx context.Context) error {
		return br.Do(ctx, func(context.Context) error { calls.Add(1); return errDown })
	})
	if !errors.Is(err, breaker.ErrOpen) {
		t.Fatalf("err = %v; want the open circuit", err)
	}
	if calls.Load() != 2 {
		t.Fatalf("dependency called %d times; the circuit opened after 2", calls.Load())
	}
	var oe *breaker.OpenError
	if !errors.As(err, &oe) || oe.RetryAfter() <= 0 {
		t.Fatal("the caller must learn when to come back")
	}
}

// TestReserveThenRetryWithinDeadline: a reserved deadline bounds the retry
// layer, which gives up rather than sleep past it.
func TestReserveThenRetryWithinDeadline(t *testing.T) {
	leaktest.Check(t)
	fake := clock.NewFake(time.Now())
	ctx, cancel := context.WithDeadline(context.Background(), fake.Now().Add(time.Second))
	defer cancel()
	b := deadline.Budget{Clock: fake}
	child, cancelChild, err := b.Reserve(ctx, 300*time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	defer cancelChild()
	p := &retry.Policy{MaxAttempts: 100, BaseDelay: 100 * time.Millisecond, MaxDelay: 100 * time.Millisecond,
		Rand: func() float64 { return 0.999 }, Clock: fake,
		Sleep: func(ctx context.Context, d time.Duration) error { fake.Advance(d); return nil }}
	attempts := 0
	err = retry.Do(child, p, func(context.Context) error {
		attempts++
		fake.Advance(50 * time.Millisecond)
		return errDown
	})
	if !errors.Is(err, retry.ErrNoTimeLeft) {
		t.Fatalf("err = %v", err)
	}
	// 700 ms of budget; each attempt takes 50 ms and each backoff ~100 ms:
	// five attempts end by 650 ms, and a sixth could not finish.
	if attempts != 5 {
		t.Fatalf("%d attempts within a 700 ms budget; want 5", attempts)
	}
	if left, _ := b.Remaining(child); left < 0 {
		t.Fatalf("the retry layer ran past the reserved deadline by %v", -left)
	}
	if left, _ := b.Remaining(ctx); left < 300*time.Millisecond {
		t.Fatalf("the reserve was spent: %v left for local work", left)
	}
}

// TestHedgeAndRetryShareABudget: extra copies and retries draw on one
// budget, so together they stay within it.
func TestHedgeAndRetryShareABudget(t *testing.T) {
	leaktest.Check(t)
	shared := &budget.Ratio{Ratio: 0.1, MinPerSecond: -1, Clock: clock.NewFake(time.Now())}
	for range 20 {
		shared.Deposit() // earlier traffic: 2 extra attempts available
	}
	hp := &hedge.Policy{Delay: time.Millisecond, Budget: shared, MaxAttempts: 5}
	rp := &retry.Policy{Budget: shared, MaxAttempts: 5, Sleep: noSleep}
	var sent atomic.Int32
	op := hedge.Idempotent(func(ctx context.Context) (int, error) {
		sent.Add(1)
		return 0, errDown
	})
	_ = retry.Do(context.Background(), rp, func(ctx context.Context) error {
		_, err := hedge.Do(ctx, hp, op)
		return err
	})
	// 20 earlier requests + 1 retry call + hedge deposits ≤ 24 requests,
	// so at most 2 extra attempts in all on top of the first.
	if got := sent.Load(); got > 3 {
		t.Fatalf("%d attempts reached the dependency; the shared 10%% budget allows 3", got)
	}
}

// TestRetryAroundHedgeStaysWithinSharedBudget: a retry layer around a
// hedge, both drawing on one 10% budget, sends at most 10% extra calls:
// one logical request deposits once, however many layers it crosses.
func TestRetryAroundHedgeStaysWithinSharedBudget(t *testing.T) {
	leaktest.Check(t)
	shared := &budget.Ratio{Ratio: 0.1, MinPerSecond: -1, Clock: clock.NewFake(time.Now())}
	hp := &hedge.Policy{Delay: 10 * time.Microsecond, Budget: shared, MaxAttempts: 2}
	rp := &retry.Policy{Budget: shared, MaxAttempts: 3, Sleep: noSleep}
	var calls atomic.Int32
	// Slower than the hedge delay, and failing: both layers want more.
	op := hedge.Idempotent(func(ctx context.Context) (int, error) {
		calls.Add(1)
		select {
		case <-time.After(200 * time.Microsecond):
		case <-ctx.Done():
		}
		return 0, errDown
	})
	const requests = 1000
	for range requests {
		_ = retry.Do(context.Background(), rp, func(ctx context.Context) error {
			_, err := hedge.Do(ctx, hp, op)
			return err
		})
	}
	if got := calls.Load(); got > requests*11/10 {
		t.Fatalf("%d calls for %d requests; a shared 10%% budget allows %d", got, requests, requests*11/10)
	}
	if got := calls.Load(); got < requests*11/10-5 {
		t.Fatalf("%d calls for %d requests; the budget's 10%% should have been used", got, requests)
	}
}

// outcomeBudget counts the outcomes a budget hears and grants everything.
type outcomeBudget struct{ deposits, successes, failures atomic.Int32 }

func (b *outcomeBudget) Deposit()       { b.deposits.Add(1) }
func (b *outcomeBudget) Withdraw() bool { return true }
func (b *outcomeBudget) Success()       { b.successes.Add(1) }
func (b *outcomeBudget) Failure()       { b.failures.Add(1) }

// TestSharedBudgetHearsEachAttemptOnce: layers sharing a budget that
// learns from outcomes (a TokenBucket) report each attempt that reached
// the dependency once between them, as they deposit once per request:
// otherwise it drains and refills as many times faster as there are
// layers.
func TestSharedBudgetHearsEachAttemptOnce(t *testing.T) {
	leaktest.Check(t)
	for _, tc := range []struct {
		name  string
		inner func(b budget.Budget) func(context.Context, func(context.Context) error) error
	}{
		{"retry in retry", func(b budget.Budget) func(context.Context, func(context.Context) error) error {
			p := &retry.Policy{MaxAttempts: 3, Budget: b, Sleep: noSleep}
			return func(ctx context.Context, fn func(context.Context) error) error { return retry.Do(ctx, p, fn) }
		}},
		{"hedge in retry", func(b budget.Budget) func(context.Context, func(context.Context) error) error {
			p := &hedge.Policy{MaxAttempts: 1, Budget: b}
			return func(ctx context.Context, fn func(context.Context) error) error {
				_, err := hedge.Do(ctx, p, hedge.Idempotent(func(ctx context.Context) (struct{}, error) { return struct{}{}, fn(ctx) }))
				return err
			}
		}},
	} {
		b := &outcomeBudget{}
		inner := tc.inner(b)
		outer := &retry.Policy{MaxAttempts: 3, Budget: b, Sleep: noSleep}
		var calls atomic.Int32
		for i := range 4 {
			fail := i%2 == 0 // two calls fail every attempt, two succeed at once
			_ = retry.Do(context.Background(), outer, func(ctx context.Context) error {
				return inner(ctx, func(context.Context) error {
					calls.Add(1)
					if fail {
						return errDown
					}
					return nil
				})
			})
		}
		if got := b.deposits.Load(); got != 4 {
			t.Errorf("%s: %d deposits for 4 requests; want 4", tc.name, got)
		}
		if s, f := b.successes.Load(), b.failures.Load(); s != 2 || f != calls.Load()-2 {
			t.Errorf("%s: the budget heard %d successes and %d failures of %d attempts (2 succeeded); want each attempt once", tc.name, s, f, calls.Load())
		}
	}
}

// TestCustomClassifierNeverRetriesAnOpenCircuit: a classifier that
// retries everything (or marks the rejection retryable) in front of an
// open breaker neither retries it nor sleeps out the cooldown the
// rejection's RetryAfter names.
func TestCustomClassifierNeverRetriesAnOpenCircuit(t *testing.T) {
	leaktest.Check(t)
	br := breaker.New(breaker.Settings{MinCalls: 1, WindowSize: 1, Cooldown: time.Hour})
	_ = br.Do(context.Background(), func(context.Context) error { return errDown })
	var slept []time.Duration
	for _, retryable := range []func(error) bool{
		func(error) bool { return true },
		func(err error) bool { return errors.Is(err, breaker.ErrOpen) },
	} {
		slept = slept[:0]
		p := &retry.Policy{MaxAttempts: 5, Retryable: retryable, Sleep: func(ctx context.Context, d time.Duration) error {
			slept = append(slept, d)
			return ctx.Err()
		}}
		attempts := 0
		err := retry.Do(context.Background(), p, func(ctx context.Context) error {
			attempts++
			return br.Do(ctx, func(context.Context) error { return nil })
		})
		if !errors.Is(err, breaker.ErrOpen) || attempts != 1 || len(slept) != 0 {
			t.Fatalf("open circuit behind a classifier that retries it: %d attempts, slept %v, err %v; want 1 attempt, no sleep, the rejection", attempts, slept, err)
		}
	}
	// Marked retryable by hand: still not.
	rejection := br.Do(context.Background(), func(context.Context) error { return nil })
	if !errors.Is(rejection, breaker.ErrOpen) || retry.Transient(retry.Retry(rejection)) {
		t.Fatal("Transient(Retry(ErrOpen)) must be false: an open circuit is never retried")
	}
}

// TestHedgeLeavesRetryAfterToTheRetryLayer: retry → hedge, a copy that
// fails with a Retry-After ends the race; the retry layer waits it.
func TestHedgeLeavesRetryAfterToTheRetryLayer(t *testing.T) {
	leaktest.Check(t)
	var slept []time.Duration
	rp := &retry.Policy{MaxAttempts: 3, Rand: func() float64 { return 0 }, Sleep: func(ctx context.Context, d time.Duration) error {
		slept = append(slept, d)
		return ctx.Err()
	}}
	hp := &hedge.Policy{Delay: time.Hour}
	var calls atomic.Int32
	err := retry.Do(context.Background(), rp, func(ctx context.Context) error {
		_, err := hedge.Do(ctx, hp, hedge.Idempotent(func(context.Context) (int, error) {
			if calls.Add(1) == 1 {
				return 0, &retry.StatusError{Code: 503, After: 250 * time.Millisecond}
			}
			return 1, nil
		}))
		return err
	})
	if err != nil || calls.Load() != 2 || len(slept) != 1 || slept[0] != 250*time.Millisecond || hp.Metrics().Hedges != 0 {
		t.Fatalf("err %v, %d calls, slept %v, %d extra copies; want success on the retry after waiting 250 ms, no extra copy", err, calls.Load(), slept, hp.Metrics().Hedges)
	}
}
