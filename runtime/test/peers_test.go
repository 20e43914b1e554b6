package test

// Each test here reproduces a defect reported against another Go
// resilience library (named in its comment, as owner/repo#issue) and
// shows that this runtime does not have it. Defects already pinned by a
// package's own tests are listed in docs/runtime.md with those tests.

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/resilvet/resilvet/runtime/breaker"
	"github.com/resilvet/resilvet/runtime/budget"
	"github.com/resilvet/resilvet/runtime/hedge"
	"github.com/resilvet/resilvet/runtime/internal/clock"
	"github.com/resilvet/resilvet/runtime/internal/leaktest"
	"github.com/resilvet/resilvet/runtime/retry"
)

func newFakeBreaker(s breaker.Settings) (*breaker.Breaker, *clock.Fake) {
	fake := clock.NewFake(time.Unix(1_000_000, 0))
	s.Clock = fake
	s.CooldownJitter = -1
	return breaker.New(s), fake
}

func outcome(b *breaker.Breaker, ctx context.Context, err error) error {
	return b.Do(ctx, func(context.Context) error { return err })
}

// sony/gobreaker#21: a window reset at each interval reports a 90%
// failure rate for a steady 9%. The window here slides.
func TestGobreaker21SteadyRateStaysSteady(t *testing.T) {
	b, _ := newFakeBreaker(breaker.Settings{WindowSize: 100, FailureRate: 0.5})
	for i := range 1000 {
		var err error
		if i%11 == 0 { // 9.1%, spread out
			err = errDown
		}
		outcome(b, context.Background(), err)
		if m := b.Metrics(); i >= 99 && (m.FailureRate < 0.08 || m.FailureRate > 0.10) {
			t.Fatalf("call %d: failure rate %.2f for a steady 9%%", i, m.FailureRate)
		}
	}
}

// sony/gobreaker#37 and #119: the state-change hook runs under the
// breaker's mutex, so reading the breaker from it deadlocks.
func TestGobreaker37HookMayReadTheBreaker(t *testing.T) {
	leaktest.Check(t)
	var b *breaker.Breaker
	seen := make(chan breaker.Metrics, 4)
	b, _ = newFakeBreaker(breaker.Settings{MinCalls: 2, WindowSize: 2, OnStateChange: func(string, breaker.State, breaker.State) {
		_ = b.State()
		seen <- b.Metrics()
	}})
	done := make(chan struct{})
	go func() {
		defer close(done)
		outcome(b, context.Background(), errDown)
		outcome(b, context.Background(), errDown)
	}()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("deadlock: the hook could not read the breaker")
	}
	if m := <-seen; m.State != breaker.Open {
		t.Fatalf("hook saw %v; want open", m.State)
	}
}

// tsouza/cerberus#738: client cancellations tripped the breaker.
func TestCerberus738CallerCancellationDoesNotTrip(t *testing.T) {
	b, _ := newFakeBreaker(breaker.Settings{MinCalls: 5, WindowSize: 10})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for range 50 {
		outcome(b, ctx, context.Canceled)
	}
	if b.State() != breaker.Closed || b.Metrics().Calls != 0 {
		t.Fatalf("state %v after 50 caller cancellations, %d outcomes counted", b.State(), b.Metrics().Calls)
	}
}

// onflow/flow-go#4910: answers that say the caller erred (not found,
// invalid argument) counted as failures of the dependency and opened the
// circuit. Through breaker.Transport a 4xx answer is a success and a 5xx
// a failure; errors from other calls count as successes once marked with
// breaker.ClientError (the gRPC adapter's classifier does so by code).
func TestFlowGo4910ClientErrorsAreSuccesses(t *testing.T) {
	leaktest.Check(t)
	var status atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(int(status.Load()))
	}))
	defer srv.Close()
	group := breaker.NewGroup(0, func(string) breaker.Settings {
		return breaker.Settings{MinCalls: 5, WindowSize: 10, CooldownJitter: -1}
	})
	client := &http.Client{Transport: &breaker.Transport{Base: srv.Client().Transport, Breakers: group}}
	defer client.CloseIdleConnections()
	get := func() error {
		resp, err := client.Get(srv.URL)
		if err != nil {
			return err
		}
		resp.Body.Close()
		return nil
	}
	host := strings.TrimPrefix(srv.URL, "http://")
	for _, code := range []int{http.StatusNotFound, http.StatusBadRequest, http.StatusForbidden} {
		status.Store(int32(code))
		for range 20 {
			if err := get(); err != nil {
				t.Fatalf("%d answers: %v", code, err)
			}
		}
	}
	if m := group.Get(host).Metrics(); m.State != breaker.Closed || m.FailureRate != 0 {
		t.Fatalf("after 60 answers of 404, 400 and 403: %+v; want closed with no failures", m)
	}
	// The same breaker does open on answers that are the dependency's
	// fault, so the check above can fail.
	status.Store(http.StatusServiceUnavailable)
	for range 10 {
		_ = get()
	}
	if st := group.Get(host).State(); st != breaker.Open {
		t.Fatalf("after 10 answers of 503 the circuit is %v; want open", st)
	}
	// Other calls: a marked client error is a success, an unmarked one a
	// failure.
	b, _ := newFakeBreaker(breaker.Settings{MinCalls: 5, WindowSize: 10})
	for range 50 {
		outcome(b, context.Background(), breaker.ClientError(errors.New("not found")))
	}
	if m := b.Metrics(); m.State != breaker.Closed || m.FailureRate != 0 {
		t.Fatalf("metrics %+v after 50 marked client errors", m)
	}
}

// SolaceProducts/solace-broker-mcp#296: consecutive-failure counting
// never trips on sparse failures. A rate window does.
func TestSolace296SparseFailuresTrip(t *testing.T) {
	b, _ := newFakeBreaker(breaker.Settings{MinCalls: 10, WindowSize: 20, FailureRate: 0.5})
	for i := 0; i < 40 && b.State() == breaker.Closed; i++ {
		var err error
		if i%3 != 0 { // two failures in three, never three in a row
			err = errDown
		}
		outcome(b, context.Background(), err)
	}
	if b.State() != breaker.Open {
		t.Fatal("a 67% failure rate with no long failure run did not open the circuit")
	}
}

// slok/goresilience#26: the error rate was compared against the minimum
// request count. MinCalls and FailureRate are separate here.
func TestGoresilience26MinCallsIsNotTheRate(t *testing.T) {
	b, _ := newFakeBreaker(breaker.Settings{MinCalls: 10, WindowSize: 10, FailureRate: 0.5})
	for range 9 {
		outcome(b, context.Background(), errDown)
	}
	if b.State() != breaker.Closed {
		t.Fatal("opened before MinCalls outcomes")
	}
	outcome(b, context.Background(), nil)
	if b.State() != breaker.Open {
		t.Fatal("9 failures in 10 calls did not open at FailureRate 0.5")
	}
}

// failsafe-go/failsafe-go#97: no automatic half-open transition. Here the
// state moves on its own when the cooldown ends (no goroutine, no call).
func TestFailsafe97HalfOpenWithoutACall(t *testing.T) {
	b, fake := newFakeBreaker(breaker.Settings{MinCalls: 1, WindowSize: 1, Cooldown: time.Second})
	outcome(b, context.Background(), errDown)
	fake.Advance(time.Second)
	if b.State() != breaker.HalfOpen {
		t.Fatalf("state %v after the cooldown; want half-open", b.State())
	}
}

// resilience4j#903: probes that hang keep the circuit half-open, refusing
// everything, for as long as they hang.
func TestResilience4j903HungProbesReopen(t *testing.T) {
	leaktest.Check(t)
	b, fake := newFakeBreaker(breaker.Settings{MinCalls: 1, WindowSize: 1, Cooldown: time.Second, Probes: 1, HalfOpenTimeout: 10 * time.Second})
	outcome(b, context.Background(), errDown)
	fake.Advance(time.Second)
	hung := make(chan struct{})
	returned := make(chan struct{})
	go func() {
		defer close(returned)
		b.Do(context.Background(), func(context.Context) error { <-hung; return nil })
	}()
	// Wait for the probe to be admitted: its admission moves the open
	// circuit to half-open, the second transition (State says half-open
	// from the end of the cooldown on).
	for b.Metrics().Transitions < 2 {
		time.Sleep(time.Millisecond)
	}
	if err := outcome(b, context.Background(), nil); !errors.Is(err, breaker.ErrOpen) {
		t.Fatalf("second call during the probe: %v; want rejected", err)
	}
	fake.Advance(10 * time.Second)
	outcome(b, context.Background(), nil) // finds the probe hung past the timeout
	if s := b.Metrics().State; s != breaker.Open {
		t.Fatalf("state %v with a probe hung past HalfOpenTimeout; want open", s)
	}
	fake.Advance(time.Minute)
	if err := outcome(b, context.Background(), nil); err != nil {
		t.Fatalf("a fresh probe after the next cooldown: %v", err)
	}
	close(hung)
	<-returned // its late success belongs to an old generation
}

// cenkalti/backoff#177: with one try, a Permanent error came back still
// wrapped. Here the caller can match it either way, after one attempt.
func TestBackoff177PermanentComesBackMatchable(t *testing.T) {
	for _, max := range []int{1, 3} {
		calls := 0
		want := errors.New("validation failed")
		err := retry.Do(context.Background(), &retry.Policy{MaxAttempts: max, Sleep: noSleep}, func(context.Context) error {
			calls++
			return retry.Permanent(want)
		})
		if calls != 1 || !errors.Is(err, want) || err.Error() != want.Error() {
			t.Fatalf("MaxAttempts %d: %d calls, err %v", max, calls, err)
		}
	}
}

// cenkalti/backoff#113 and #181: whether a retry stopped at the deadline
// showed up differently depending on where it stopped. Here both the
// deadline and the last failure always match.
func TestBackoff181DeadlineStopsMatchTheSameWay(t *testing.T) {
	// Stops before sleeping: not enough time left.
	fake := clock.NewFake(time.Now())
	ctx, cancel := context.WithDeadline(context.Background(), fake.Now().Add(50*time.Millisecond))
	defer cancel()
	p := &retry.Policy{Clock: fake, Sleep: noSleep, BaseDelay: time.Second, MaxDelay: time.Second, Rand: func() float64 { return 1 }}
	err := retry.Do(ctx, p, func(context.Context) error { return errDown })
	if !errors.Is(err, errDown) || !errors.Is(err, retry.ErrNoTimeLeft) {
		t.Fatalf("before sleeping: %v", err)
	}
	// Stops while sleeping: the context expires.
	ctx2, cancel2 := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel2()
	p2 := &retry.Policy{BaseDelay: 10 * time.Millisecond, MaxDelay: 10 * time.Millisecond, Rand: func() float64 { return 1 }, MaxAttempts: 100}
	err = retry.Do(ctx2, p2, func(context.Context) error { return errDown })
	if !errors.Is(err, errDown) || !(errors.Is(err, context.DeadlineExceeded) || errors.Is(err, retry.ErrNoTimeLeft)) {
		t.Fatalf("while sleeping: %v", err)
	}
}

// avast/retry-go#118: the error slice grew without bound with huge
// attempt counts. Here the result holds the last error only.
func TestRetryGo118MemoryBoundedWithManyAttempts(t *testing.T) {
	calls := 0
	err := retry.Do(context.Background(), &retry.Policy{MaxAttempts: 100_000, Sleep: noSleep}, func(context.Context) error {
		calls++
		return fmt.Errorf("attempt %d: %w", calls, errDown)
	})
	if calls != 100_000 || retry.Attempts(err) != 100_000 || len(err.Error()) > 200 {
		t.Fatalf("%d calls, %d attempts reported, error of %d bytes", calls, retry.Attempts(err), len(err.Error()))
	}
	if !strings.Contains(err.Error(), "attempt 100000") {
		t.Fatalf("err %v does not carry the last failure", err)
	}
}

// avast/retry-go#119 and #120: the error was lost when the retry
// predicate said no.
func TestRetryGo119ErrorKeptWhenNotRetryable(t *testing.T) {
	want := errors.New("quota exceeded")
	err := retry.Do(context.Background(), &retry.Policy{Retryable: func(error) bool { return false }}, func(context.Context) error { return want })
	if err != want {
		t.Fatalf("err %v; want the operation's error itself", err)
	}
}

// hashicorp/go-retryablehttp#272: the wait overran the caller's deadline.
func TestRetryablehttp272NoWaitPastDeadline(t *testing.T) {
	leaktest.Check(t)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Millisecond)
	defer cancel()
	p := &retry.Policy{BaseDelay: time.Second, MaxDelay: time.Second, Rand: func() float64 { return 1 }}
	start := time.Now()
	err := retry.Do(ctx, p, func(context.Context) error { return errDown })
	if took := time.Since(start); took > 500*time.Millisecond {
		t.Fatalf("returned after %v for a 30 ms deadline", took)
	}
	if !errors.Is(err, retry.ErrNoTimeLeft) {
		t.Fatalf("err %v; want ErrNoTimeLeft without sleeping", err)
	}
}

// failsafe-go/failsafe-go#141: a hedge refused by the budget cancelled
// every copy in flight, the primary included.
func TestFailsafe141BudgetDenialKeepsThePrimary(t *testing.T) {
	leaktest.Check(t)
	p := &hedge.Policy{Delay: time.Millisecond, Budget: &budget.Ratio{Ratio: 0.01, MinPerSecond: -1}}
	v, err := hedge.Do(context.Background(), p, hedge.Idempotent(func(ctx context.Context) (string, error) {
		for deadline := time.Now().Add(5 * time.Second); p.Metrics().BudgetDenials == 0; {
			if time.Now().After(deadline) {
				return "", errors.New("the hedge was never refused")
			}
			time.Sleep(time.Millisecond)
		}
		if ctx.Err() != nil {
			return "", ctx.Err()
		}
		return "primary", nil
	}))
	if v != "primary" || err != nil || p.Metrics().BudgetDenials != 1 {
		t.Fatalf("v %q err %v metrics %+v", v, err, p.Metrics())
	}
}

// failsafe-go (measured, runtime.md §3.2): every attempt, the first
// included, ran on a new goroutine. Here the first runs on the caller's.
func TestFailsafeHedgeFirstCopyOnCallersGoroutine(t *testing.T) {
	leaktest.Check(t)
	var inOp string
	_, err := hedge.Do(context.Background(), &hedge.Policy{Delay: time.Hour}, hedge.Idempotent(func(context.Context) (int, error) {
		inOp = goroutineID()
		return 1, nil
	}))
	if err != nil || inOp != goroutineID() {
		t.Fatalf("err %v; the first copy ran on goroutine %s, the caller is %s", err, inOp, goroutineID())
	}
}

// goroutineID returns the current goroutine's number, from its stack
// header ("goroutine 7 [running]:").
func goroutineID() string {
	buf := make([]byte, 64)
	buf = buf[:runtime.Stack(buf, false)]
	return strings.Fields(string(buf))[1]
}
