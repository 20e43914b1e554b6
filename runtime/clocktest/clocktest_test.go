package clocktest_test

import (
	"context"
	"errors"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"github.com/resilvet/resilvet/runtime/breaker"
	"github.com/resilvet/resilvet/runtime/budget"
	"github.com/resilvet/resilvet/runtime/clocktest"
	"github.com/resilvet/resilvet/runtime/deadline"
	"github.com/resilvet/resilvet/runtime/hedge"
	"github.com/resilvet/resilvet/runtime/retry"
)

// These tests are outside the module's packages, as users' tests are: a
// *clocktest.Clock must be usable where the runtime's internal clock
// types are not.

var epoch = time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)

var errDown = errors.New("dependency down")

func TestAdvanceFiresDueTimersInOrder(t *testing.T) {
	clk := clocktest.New(epoch)
	var fired []string
	clk.AfterFunc(2*time.Second, func() { fired = append(fired, "2s") })
	clk.AfterFunc(time.Second, func() { fired = append(fired, "1s") })
	stopped := clk.AfterFunc(time.Second, func() { fired = append(fired, "stopped") })
	clk.AfterFunc(time.Hour, func() { fired = append(fired, "1h") })
	if !stopped.Stop() {
		t.Fatal("Stop of a pending timer reported it not pending")
	}
	clk.Advance(3 * time.Second)
	if want := []string{"1s", "2s"}; !slices.Equal(fired, want) {
		t.Fatalf("fired %v; want %v", fired, want)
	}
	if got := clk.Now(); !got.Equal(epoch.Add(3 * time.Second)) {
		t.Fatalf("Now() = %v after 3 s", got)
	}
	if clk.PendingTimers() != 1 {
		t.Fatalf("%d timers pending; want the hour's", clk.PendingTimers())
	}
}

func TestSleepAdvancesUnlessDone(t *testing.T) {
	clk := clocktest.New(epoch)
	if err := clk.Sleep(context.Background(), time.Second); err != nil {
		t.Fatal(err)
	}
	if err := clk.Sleep(context.Background(), -time.Hour); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := clk.Sleep(ctx, time.Minute); !errors.Is(err, context.Canceled) {
		t.Fatalf("Sleep on a done context: %v", err)
	}
	if got := clk.Now().Sub(epoch); got != time.Second {
		t.Fatalf("the clock moved %v; want the one second slept", got)
	}
}

// TestBreakerCooldown: the breaker's cooldown runs on the fake clock.
func TestBreakerCooldown(t *testing.T) {
	clk := clocktest.New(epoch)
	br := breaker.New(breaker.Settings{MinCalls: 1, WindowSize: 1, Probes: 1, Cooldown: 5 * time.Second, CooldownJitter: -1, Clock: clk})
	br.Do(context.Background(), func(context.Context) error { return errDown })
	clk.Advance(5*time.Second - 1)
	if br.State() != breaker.Open {
		t.Fatalf("state %v before the cooldown is over", br.State())
	}
	clk.Advance(1)
	if br.State() != breaker.HalfOpen {
		t.Fatalf("state %v once the cooldown is over", br.State())
	}
}

// TestRetryBackoffAndDeadline: with Sleep, backoffs move the fake time,
// and the retry measures the time left against the same clock.
func TestRetryBackoffAndDeadline(t *testing.T) {
	clk := clocktest.New(epoch)
	// The context's own timer is the wall clock's, and will not fire: the
	// deadline is years away in real time. The retry reads it by the fake
	// clock.
	ctx, cancel := context.WithDeadline(context.Background(), epoch.Add(time.Second))
	defer cancel()
	var delays []time.Duration
	p := &retry.Policy{
		MaxAttempts: 10, BaseDelay: 200 * time.Millisecond, MaxDelay: 200 * time.Millisecond,
		Clock: clk, Sleep: clk.Sleep, Rand: func() float64 { return 1 },
		OnRetry: func(_ int, _ error, d time.Duration) { delays = append(delays, d) },
	}
	err := retry.Do(ctx, p, func(context.Context) error { return retry.Retry(errDown) })
	if !errors.Is(err, retry.ErrNoTimeLeft) || !errors.Is(err, errDown) {
		t.Fatalf("err %v; want no time left after the last failure", err)
	}
	// Attempts at 0, 200, ... 1,000 ms: the one at 800 ms still had time
	// for a backoff, the one at 1 s had not.
	if len(delays) != 5 || clk.Now().Sub(epoch) != time.Second {
		t.Fatalf("retried after %v, %v in fake time", delays, clk.Now().Sub(epoch))
	}
}

// TestHedgeDelayFiredByAdvance: the hedge scheduler's timers are the
// fake clock's, so advancing past the delay sends the extra copy, inside
// Advance. A clock without timers would silently mean the wall clock.
func TestHedgeDelayFiredByAdvance(t *testing.T) {
	clk := clocktest.New(epoch)
	p := &hedge.Policy{Delay: time.Hour, Clock: clk}
	var copies atomic.Int32
	v, err := hedge.Do(context.Background(), p, hedge.Idempotent(func(ctx context.Context) (string, error) {
		if copies.Add(1) > 1 {
			return "extra copy", nil
		}
		if clk.PendingTimers() != 1 {
			t.Errorf("%d timers pending; want the hedge's", clk.PendingTimers())
		}
		clk.Advance(time.Hour)
		if p.Metrics().Hedges != 1 {
			t.Error("Advance returned before the extra copy was sent")
		}
		<-ctx.Done() // the extra copy wins
		return "", ctx.Err()
	}))
	if v != "extra copy" || err != nil {
		t.Fatalf("Do = %q, %v", v, err)
	}
	if m := p.Metrics(); m.Hedges != 1 || m.HedgeWins != 1 {
		t.Fatalf("metrics %+v", m)
	}
}

// TestBudgetWindow: a budget.Ratio's window slides on the fake clock.
func TestBudgetWindow(t *testing.T) {
	clk := clocktest.New(epoch)
	r := &budget.Ratio{Ratio: 0.5, MinPerSecond: -1, Window: 10 * time.Second, Clock: clk}
	for range 4 {
		r.Deposit()
	}
	if r.Available() != 2 {
		t.Fatalf("%d available for 4 requests at 50%%", r.Available())
	}
	clk.Advance(11 * time.Second)
	if r.Available() != 0 {
		t.Fatalf("%d available once the requests left the window", r.Available())
	}
}

// TestDeadlineBudget: the deadline package measures what is left on the
// fake clock.
func TestDeadlineBudget(t *testing.T) {
	clk := clocktest.New(epoch)
	ctx, cancel := context.WithDeadline(context.Background(), epoch.Add(3*time.Second))
	defer cancel()
	b := deadline.Budget{Clock: clk}
	clk.Advance(time.Second)
	if left, ok := b.Remaining(ctx); !ok || left != 2*time.Second {
		t.Fatalf("Remaining = %v, %v; want 2s", left, ok)
	}
	if err := b.Check(ctx, 3*time.Second); !errors.Is(err, deadline.ErrInsufficient) {
		t.Fatalf("Check for 3 s with 2 s left: %v", err)
	}
	_ = &deadline.Transport{Clock: clk}
	_ = deadline.ServerOptions{Clock: clk}
}
