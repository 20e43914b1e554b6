package breaker_test

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/resilvet/resilvet/runtime/breaker"
	"github.com/resilvet/resilvet/runtime/internal/clock"
	"github.com/resilvet/resilvet/runtime/internal/leaktest"
)

var errDown = errors.New("dependency down")

func newBreaker(s breaker.Settings) (*breaker.Breaker, *clock.Fake) {
	fake := clock.NewFake(time.Now())
	s.Clock = fake
	s.Rand = func() float64 { return 0.5 } // no jitter offset
	return breaker.New(s), fake
}

func call(b *breaker.Breaker, err error) error {
	return b.Do(context.Background(), func(context.Context) error { return err })
}

func TestOpensAtThresholdAfterMinCalls(t *testing.T) {
	leaktest.Check(t)
	b, _ := newBreaker(breaker.Settings{WindowSize: 20, MinCalls: 10, FailureRate: 0.5})
	for i := range 9 {
		call(b, errDown)
		if b.State() != breaker.Closed {
			t.Fatalf("opened after %d calls, before MinCalls", i+1)
		}
	}
	call(b, nil) // 10 calls, 90% failures
	if b.State() != breaker.Open {
		t.Fatalf("state %v after 9 failures of 10; want open", b.State())
	}
	err := call(b, nil)
	var oe *breaker.OpenError
	if !errors.Is(err, breaker.ErrOpen) || !errors.As(err, &oe) || oe.RetryAfter() != 5*time.Second {
		t.Fatalf("err = %v; want an OpenError with RetryAfter 5s", err)
	}
	if m := b.Metrics(); m.Rejections != 1 || m.State != breaker.Open || m.Transitions != 1 {
		t.Fatalf("metrics %+v", m)
	}
}

func TestStaysClosedBelowThreshold(t *testing.T) {
	leaktest.Check(t)
	b, _ := newBreaker(breaker.Settings{WindowSize: 20, MinCalls: 10, FailureRate: 0.5})
	for i := range 100 {
		var err error
		if i%3 == 0 {
			err = errDown // 34%
		}
		call(b, err)
	}
	if b.State() != breaker.Closed {
		t.Fatal("opened below the failure rate")
	}
	if m := b.Metrics(); m.Calls != 20 {
		t.Fatalf("count window holds %d outcomes; want 20", m.Calls)
	}
}

func TestHalfOpenProbes(t *testing.T) {
	leaktest.Check(t)
	b, fake := newBreaker(breaker.Settings{MinCalls: 2, WindowSize: 2, Probes: 3})
	call(b, errDown)
	call(b, errDown)
	if st, m := b.State(), b.Metrics().State; st != breaker.Open || m != breaker.Open {
		t.Fatalf("State %v, Metrics().State %v while cooling down; want open", st, m)
	}
	fake.Advance(5 * time.Second)
	if st, m := b.State(), b.Metrics().State; st != breaker.HalfOpen || m != breaker.HalfOpen {
		t.Fatalf("State %v, Metrics().State %v after the cooldown, before any call; want half-open for both", st, m)
	}
	for i := range 3 {
		if err := call(b, nil); err != nil {
			t.Fatalf("probe %d: %v", i, err)
		}
	}
	if b.State() != breaker.Closed {
		t.Fatalf("state %v after 3 successful probes", b.State())
	}
	// Reopen; a failed probe opens it again.
	call(b, errDown)
	call(b, errDown)
	fake.Advance(5 * time.Second)
	call(b, errDown)
	if b.State() != breaker.Open {
		t.Fatalf("state %v after a failed probe", b.State())
	}
	if m := b.Metrics(); m.ProbeSuccesses != 3 || m.ProbeFailures != 1 {
		t.Fatalf("probe metrics %+v", m)
	}
}

// TestHalfOpenStampede: 64 callers arrive together after the cooldown;
// exactly Probes of them reach the dependency.
func TestHalfOpenStampede(t *testing.T) {
	leaktest.Check(t)
	b, fake := newBreaker(breaker.Settings{MinCalls: 1, WindowSize: 1, Probes: 3})
	call(b, errDown)
	fake.Advance(5 * time.Second)
	var admitted atomic.Int64
	release := make(chan struct{})
	var start, done sync.WaitGroup
	start.Add(1)
	for range 64 {
		done.Add(1)
		go func() {
			defer done.Done()
			start.Wait()
			b.Do(context.Background(), func(context.Context) error {
				admitted.Add(1)
				<-release
				return nil
			})
		}()
	}
	start.Done()
	// Wait until every caller has been admitted or rejected.
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(time.Millisecond) {
		if m := b.Metrics(); int(m.Rejections)+int(admitted.Load()) == 64 {
			break
		}
	}
	close(release)
	done.Wait()
	if got := admitted.Load(); got != 3 {
		t.Fatalf("%d probes admitted; want exactly 3", got)
	}
	if b.State() != breaker.Closed {
		t.Fatalf("state %v after 3 successful probes", b.State())
	}
}

func TestSlowCalls(t *testing.T) {
	leaktest.Check(t)
	b, fake := newBreaker(breaker.Settings{MinCalls: 4, WindowSize: 4, SlowCall: 100 * time.Millisecond, SlowCallRate: 0.5})
	slow := func(context.Context) error { fake.Advance(200 * time.Millisecond); return nil }
	b.Do(context.Background(), slow)
	call(b, nil)
	call(b, nil)
	if b.State() != breaker.Closed {
		t.Fatal("opened early")
	}
	b.Do(context.Background(), slow) // 2 of 4 slow
	if b.State() != breaker.Open {
		t.Fatalf("state %v with half the calls slow", b.State())
	}
}

func TestClassification(t *testing.T) {
	leaktest.Check(t)
	b, _ := newBreaker(breaker.Settings{MinCalls: 3, WindowSize: 3})
	// Client errors count as successes.
	for range 3 {
		call(b, breaker.ClientError(errors.New("bad request")))
	}
	if m := b.Metrics(); m.FailureRate != 0 || m.Calls != 3 {
		t.Fatalf("client errors counted as failures: %+v", m)
	}
	// The caller's own cancellation counts as neither.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for range 5 {
		b.Do(ctx, func(ctx context.Context) error { return ctx.Err() })
	}
	if m := b.Metrics(); m.Calls != 3 || b.State() != breaker.Closed {
		t.Fatalf("caller cancellation was recorded: %+v", m)
	}
	// A timeout the caller did not ask for is a failure.
	for range 3 {
		call(b, fmt.Errorf("attempt: %w", context.DeadlineExceeded))
	}
	if b.State() != breaker.Open {
		t.Fatalf("per-call timeouts did not open the circuit")
	}
}

func TestPanicCountsAsFailureAndIsReraised(t *testing.T) {
	leaktest.Check(t)
	b, _ := newBreaker(breaker.Settings{MinCalls: 1, WindowSize: 1})
	func() {
		defer func() {
			if r := recover(); r != "boom" {
				t.Fatalf("recovered %v; want the original panic", r)
			}
		}()
		b.Do(context.Background(), func(context.Context) error { panic("boom") })
	}()
	if b.State() != breaker.Open {
		t.Fatalf("state %v after a panicking call", b.State())
	}
}

// TestHookWithoutLock: a hook that calls back into the breaker would
// deadlock if it ran under the lock.
func TestHookWithoutLock(t *testing.T) {
	leaktest.Check(t)
	var b *breaker.Breaker
	var seen []string
	b, fake := newBreaker(breaker.Settings{MinCalls: 1, WindowSize: 1, Probes: 1, OnStateChange: func(name string, from, to breaker.State) {
		_ = b.Metrics()
		seen = append(seen, from.String()+">"+to.String())
	}})
	done := make(chan struct{})
	go func() {
		defer close(done)
		call(b, errDown)
		fake.Advance(5 * time.Second)
		call(b, nil)
	}()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("deadlock: hook called with the lock held")
	}
	if fmt.Sprint(seen) != "[closed>open open>half-open half-open>closed]" {
		t.Fatalf("transitions %v", seen)
	}
}

func TestCooldownJitterAndGrowth(t *testing.T) {
	leaktest.Check(t)
	fake := clock.NewFake(time.Now())
	r := 1.0
	b := breaker.New(breaker.Settings{MinCalls: 1, WindowSize: 1, Probes: 1, Cooldown: time.Second, CooldownJitter: 0.2, CooldownGrowth: 2, MaxCooldown: 3 * time.Second, Clock: fake, Rand: func() float64 { return r }})
	var after []time.Duration
	for range 4 {
		call(b, errDown) // opens (or reopens from half-open)
		var oe *breaker.OpenError
		errors.As(call(b, nil), &oe)
		after = append(after, oe.After)
		fake.Advance(oe.After)
	}
	// Rand = 1 → +20%: 1.2 s, then 2 s·1.2, then capped 3 s·1.2 twice.
	want := "[1.2s 2.4s 3.6s 3.6s]"
	if fmt.Sprint(after) != want {
		t.Fatalf("cooldowns %v; want %v", after, want)
	}
}

func TestTimeWindow(t *testing.T) {
	leaktest.Check(t)
	b, fake := newBreaker(breaker.Settings{Window: breaker.TimeWindow, WindowDuration: 10 * time.Second, MinCalls: 4})
	for range 3 {
		call(b, errDown)
	}
	fake.Advance(11 * time.Second) // the failures age out
	call(b, errDown)
	call(b, nil)
	call(b, nil)
	call(b, nil)
	if b.State() != breaker.Closed {
		t.Fatalf("old failures still counted: %+v", b.Metrics())
	}
	call(b, errDown)
	call(b, errDown)
	call(b, errDown)
	if b.State() != breaker.Open {
		t.Fatalf("state %v with 4 failures of 7 in the window", b.State())
	}
}

func TestTwoStep(t *testing.T) {
	leaktest.Check(t)
	b, _ := newBreaker(breaker.Settings{MinCalls: 1, WindowSize: 1})
	done, err := b.Allow()
	if err != nil {
		t.Fatal(err)
	}
	done.Report(context.Background(), errDown)
	done.Report(context.Background(), nil) // ignored: once only
	if b.State() != breaker.Open {
		t.Fatal("Report did not record the failure")
	}
	if _, err := b.Allow(); !errors.Is(err, breaker.ErrOpen) {
		t.Fatalf("Allow on an open circuit: %v", err)
	}
}

func TestExecute(t *testing.T) {
	leaktest.Check(t)
	b, _ := newBreaker(breaker.Settings{})
	v, err := breaker.Execute(context.Background(), b, func(context.Context) (int, error) { return 42, nil })
	if v != 42 || err != nil {
		t.Fatalf("Execute = %v, %v", v, err)
	}
}

func BenchmarkClosed(b *testing.B) {
	br := breaker.New(breaker.Settings{})
	ctx := context.Background()
	fn := func(context.Context) error { return nil }
	b.ReportAllocs()
	for b.Loop() {
		_ = br.Do(ctx, fn)
	}
}

// TestConcurrentClosedPath drives the lock-free closed path from many
// goroutines: the window's counts stay consistent and the circuit opens.
func TestConcurrentClosedPath(t *testing.T) {
	leaktest.Check(t)
	b, _ := newBreaker(breaker.Settings{WindowSize: 50, MinCalls: 50, FailureRate: 0.9})
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 500 {
				var err error
				if (g+i)%4 == 0 {
					err = errDown // 25%: below the threshold
				}
				call(b, err)
			}
		}()
	}
	wg.Wait()
	m := b.Metrics()
	if m.State != breaker.Closed || m.Calls != 50 || m.FailureRate < 0.1 || m.FailureRate > 0.4 {
		t.Fatalf("metrics after 4,000 concurrent calls: %+v", m)
	}
	for range 50 {
		call(b, errDown)
	}
	if b.State() != breaker.Open {
		t.Fatalf("state %v after 50 straight failures", b.State())
	}
}
