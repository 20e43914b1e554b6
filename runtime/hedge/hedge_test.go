package hedge_test

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"
	"testing"
	"time"

	"github.com/resilvet/resilvet/runtime/budget"
	"github.com/resilvet/resilvet/runtime/hedge"
	"github.com/resilvet/resilvet/runtime/internal/clock"
	"github.com/resilvet/resilvet/runtime/internal/leaktest"
	"github.com/resilvet/resilvet/runtime/retry"
)

// newFake returns a fake clock for a policy: hedges go out when it is
// advanced past their delay, on the goroutine advancing it.
func newFake() *clock.Fake { return clock.NewFake(time.Unix(1e9, 0)) }

// slowThenFast: the first attempt takes delay on the fake clock, which
// sends the hedge, then hangs until cancelled; later ones answer at once.
func slowThenFast(fake *clock.Fake, delay time.Duration, attempts *atomic.Int64, cancelled *atomic.Int64) hedge.Op[string] {
	return hedge.Idempotent(func(ctx context.Context) (string, error) {
		if attempts.Add(1) == 1 {
			fake.Advance(delay)
			<-ctx.Done()
			cancelled.Add(1)
			return "", ctx.Err()
		}
		return "fast", nil
	})
}

func TestPrimaryAnswersBeforeDelay(t *testing.T) {
	leaktest.Check(t)
	p := &hedge.Policy{Delay: time.Hour}
	var n atomic.Int64
	v, err := hedge.Do(context.Background(), p, hedge.Idempotent(func(context.Context) (int, error) { n.Add(1); return 7, nil }))
	if v != 7 || err != nil || n.Load() != 1 {
		t.Fatalf("v %v err %v attempts %d", v, err, n.Load())
	}
	if m := p.Metrics(); m.Hedges != 0 || m.Calls != 1 {
		t.Fatalf("metrics %+v", m)
	}
}

func TestHedgeWinsAndLoserIsCancelled(t *testing.T) {
	leaktest.Check(t)
	fake := newFake()
	p := &hedge.Policy{Delay: 5 * time.Millisecond, Clock: fake}
	var attempts, cancelled atomic.Int64
	v, err := hedge.Do(context.Background(), p, slowThenFast(fake, 5*time.Millisecond, &attempts, &cancelled))
	if v != "fast" || err != nil {
		t.Fatalf("v %q err %v", v, err)
	}
	if cancelled.Load() != 1 { // Do returns once the first copy has returned
		t.Fatal("the losing copy was not cancelled")
	}
	if m := p.Metrics(); m.Hedges != 1 || m.HedgeWins != 1 || m.LosersCancelled != 1 {
		t.Fatalf("metrics %+v", m)
	}
}

func TestBudgetDeniesHedges(t *testing.T) {
	leaktest.Check(t)
	fake := newFake()
	p := &hedge.Policy{Delay: time.Millisecond, Clock: fake, Budget: &budget.Ratio{Ratio: 0.1, MinPerSecond: -1, Clock: fake}}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var attempts atomic.Int64
	_, err := hedge.Do(ctx, p, hedge.Idempotent(func(ctx context.Context) (string, error) {
		attempts.Add(1)
		fake.Advance(time.Millisecond) // the hedge is due, and refused
		cancel()                       // the caller gives up
		<-ctx.Done()
		return "", ctx.Err()
	}))
	if !errors.Is(err, context.Canceled) || attempts.Load() != 1 {
		t.Fatalf("err %v attempts %d; the budget must refuse the hedge", err, attempts.Load())
	}
	if p.Metrics().BudgetDenials != 1 {
		t.Fatalf("metrics %+v", p.Metrics())
	}
}

func TestFatalErrorStopsTheRace(t *testing.T) {
	leaktest.Check(t)
	p := &hedge.Policy{Delay: time.Hour, MaxAttempts: 3}
	var n atomic.Int64
	notFound := &retry.StatusError{Code: 404}
	_, err := hedge.Do(context.Background(), p, hedge.Idempotent(func(context.Context) (int, error) { n.Add(1); return 0, notFound }))
	if !errors.Is(err, notFound) || n.Load() != 1 {
		t.Fatalf("err %v attempts %d; a 404 is final", err, n.Load())
	}
	// A transient failure of every copy so far sends the next at once.
	n.Store(0)
	v, err := hedge.Do(context.Background(), p, hedge.Idempotent(func(context.Context) (int, error) {
		if n.Add(1) < 3 {
			return 0, &retry.StatusError{Code: 503}
		}
		return 1, nil
	}))
	if v != 1 || err != nil || n.Load() != 3 {
		t.Fatalf("v %v err %v attempts %d", v, err, n.Load())
	}
}

type countingLimiter struct {
	sem             chan struct{}
	held, maxHeld   atomic.Int64
	acquired, freed atomic.Int64
}

func (l *countingLimiter) Acquire(ctx context.Context) error {
	select {
	case l.sem <- struct{}{}:
		l.acquired.Add(1)
		if h := l.held.Add(1); h > l.maxHeld.Load() {
			l.maxHeld.Store(h)
		}
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (l *countingLimiter) Release() { l.held.Add(-1); l.freed.Add(1); <-l.sem }

// TestLimiterPermitHeldUntilReturn: a losing extra copy keeps its permit
// until it has really returned, after Do has.
func TestLimiterPermitHeldUntilReturn(t *testing.T) {
	leaktest.Check(t)
	lim := &countingLimiter{sem: make(chan struct{}, 4)}
	fake := newFake()
	p := &hedge.Policy{Delay: time.Millisecond, Limiter: lim, MaxAttempts: 3, Clock: fake}
	release := make(chan struct{})
	var n atomic.Int64
	v, err := hedge.Do(context.Background(), p, hedge.Idempotent(func(ctx context.Context) (int, error) {
		switch n.Add(1) {
		case 1: // fails fast: the second copy goes out at once
			return 0, &retry.StatusError{Code: 503}
		case 2:
			fake.Advance(time.Millisecond) // slow: the third copy is due
			<-release                      // ignores cancellation for a while, as real calls do
			return 0, ctx.Err()
		}
		return 3, nil
	}))
	if v != 3 || err != nil {
		t.Fatalf("v %v err %v; want the third copy's answer", v, err)
	}
	if lim.held.Load() != 1 {
		t.Fatalf("%d permits held after Do returned; the unfinished loser must still hold its own", lim.held.Load())
	}
	close(release)
	for deadline := time.Now().Add(2 * time.Second); lim.held.Load() != 0 && time.Now().Before(deadline); {
		time.Sleep(time.Millisecond)
	}
	if lim.held.Load() != 0 || lim.freed.Load() != 3 {
		t.Fatalf("held %d freed %d", lim.held.Load(), lim.freed.Load())
	}
}

// TestFirstCopyRunsOnTheCallersGoroutine: a hedge that wins cancels the
// first copy, and Do returns when that copy has returned.
func TestFirstCopyRunsOnTheCallersGoroutine(t *testing.T) {
	leaktest.Check(t)
	fake := newFake()
	p := &hedge.Policy{Delay: time.Millisecond, Clock: fake}
	var firstReturned atomic.Bool
	var n atomic.Int64
	v, err := hedge.Do(context.Background(), p, hedge.Idempotent(func(ctx context.Context) (string, error) {
		if n.Add(1) == 1 {
			fake.Advance(time.Millisecond)
			<-ctx.Done()
			time.Sleep(5 * time.Millisecond) // slow to notice
			firstReturned.Store(true)
			return "", ctx.Err()
		}
		return "hedge", nil
	}))
	if v != "hedge" || err != nil || !firstReturned.Load() {
		t.Fatalf("v %q err %v first copy returned %v; want the hedge's answer after the first copy returned", v, err, firstReturned.Load())
	}
}

func TestAdaptiveDelay(t *testing.T) {
	leaktest.Check(t)
	p := &hedge.Policy{}
	if d := p.CurrentDelay(); d != 10*time.Millisecond {
		t.Fatalf("initial delay %v; want 10ms", d)
	}
	fake := clock.NewFake(time.Now())
	p.Clock = fake
	p.MaxAttempts = 1 // timed, never hedged: no copy advances the clock twice
	for i := range 100 {
		d := 10 * time.Millisecond
		if i%20 == 0 {
			d = time.Second // 5% slow
		}
		hedge.Do(context.Background(), p, hedge.Idempotent(func(context.Context) (int, error) {
			fake.Advance(d)
			return 0, nil
		}))
	}
	if d := p.CurrentDelay(); d < 10*time.Millisecond || d > 15*time.Millisecond {
		t.Fatalf("adaptive p95 delay %v; want just above the 10 ms of 95%% of calls", d)
	}
}

func TestCallerDeadlineBoundsTheRace(t *testing.T) {
	leaktest.Check(t)
	fake := newFake()
	p := &hedge.Policy{Delay: time.Millisecond, MaxAttempts: 3, Clock: fake}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	var n atomic.Int64
	_, err := hedge.Do(ctx, p, hedge.Idempotent(func(ctx context.Context) (int, error) {
		if n.Add(1) == 1 {
			fake.Advance(time.Millisecond) // the second copy goes out
			fake.Advance(time.Millisecond) // and the third
		}
		<-ctx.Done()
		return 0, ctx.Err()
	}))
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("err %v", err)
	}
	if m := p.Metrics(); m.Hedges != 2 {
		t.Fatalf("hedges %d; want 2 (3 attempts)", m.Hedges)
	}
}

func TestZeroOpFailsClearly(t *testing.T) {
	leaktest.Check(t)
	_, err := hedge.Do(context.Background(), &hedge.Policy{}, hedge.Op[int]{})
	if err == nil {
		t.Fatal("an Op not made by Idempotent must be refused")
	}
}

// TestManyConcurrentSlowCallsAllHedged: every one of many concurrent calls
// whose first copy hangs gets its hedge, whichever scheduler shard it
// lands on.
func TestManyConcurrentSlowCallsAllHedged(t *testing.T) {
	leaktest.Check(t)
	fake := newFake()
	const calls = 300
	// A budget granting every extra copy: this test is about the shards.
	p := &hedge.Policy{Delay: 2 * time.Millisecond, Clock: fake, Budget: &budget.Ratio{Ratio: 1, MinPerSecond: -1, Clock: fake}}
	errs := make(chan error, calls)
	var started atomic.Int64
	for range calls {
		go func() {
			var n atomic.Int64
			v, err := hedge.Do(context.Background(), p, hedge.Idempotent(func(ctx context.Context) (int, error) {
				if n.Add(1) == 1 {
					started.Add(1)
					<-ctx.Done()
					return 0, ctx.Err()
				}
				return 2, nil
			}))
			if err == nil && v != 2 {
				err = fmt.Errorf("value %d", v)
			}
			errs <- err
		}()
	}
	waitFor(t, "every first copy to start", func() bool { return started.Load() == calls })
	fake.Advance(2 * time.Millisecond) // every hedge is due
	for range calls {
		select {
		case err := <-errs:
			if err != nil {
				t.Fatal(err)
			}
		case <-time.After(10 * time.Second):
			t.Fatal("a call whose first copy hangs was never hedged")
		}
	}
	if m := p.Metrics(); m.Calls != calls || m.Hedges != calls || m.HedgeWins != calls || m.LosersCancelled != calls {
		t.Fatalf("metrics %+v; want %d of each", m, calls)
	}
}

// waitFor polls cond, for what other goroutines are doing, not for time to
// pass: the fake clock stands still meanwhile.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); !cond(); time.Sleep(100 * time.Microsecond) {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
	}
}

// TestCopysOwnTimeoutIsNotFatal: a copy that runs out of a per-attempt
// timeout of its own (context.WithTimeout inside the operation) while the
// caller's context is alive does not end the race: the next copy goes.
func TestCopysOwnTimeoutIsNotFatal(t *testing.T) {
	leaktest.Check(t)
	p := &hedge.Policy{Delay: time.Hour, Clock: newFake()}
	var attempts atomic.Int64
	v, err := hedge.Do(context.Background(), p, hedge.Idempotent(func(ctx context.Context) (string, error) {
		if attempts.Add(1) == 1 {
			attemptCtx, cancel := context.WithTimeout(ctx, time.Nanosecond)
			defer cancel()
			<-attemptCtx.Done()
			return "", attemptCtx.Err()
		}
		return "second", nil
	}))
	if err != nil || v != "second" || attempts.Load() != 2 {
		t.Fatalf("got %q, %v after %d copies; want the second copy's answer", v, err, attempts.Load())
	}
}
