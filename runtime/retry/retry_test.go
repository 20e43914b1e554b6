package retry_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/resilvet/resilvet/runtime/budget"
	"github.com/resilvet/resilvet/runtime/internal/clock"
	"github.com/resilvet/resilvet/runtime/internal/leaktest"
	"github.com/resilvet/resilvet/runtime/retry"
)

var errFlaky = fmt.Errorf("dial: %w", syscall.ECONNREFUSED)

// fakeSleep records the delays Do asks for and advances a fake clock.
type fakeSleep struct {
	mu     sync.Mutex
	clock  *clock.Fake
	delays []time.Duration
}

func (f *fakeSleep) Sleep(ctx context.Context, d time.Duration) error {
	f.mu.Lock()
	f.delays = append(f.delays, d)
	f.mu.Unlock()
	f.clock.Advance(d)
	return ctx.Err()
}

func policy(max int) (*retry.Policy, *fakeSleep) {
	fs := &fakeSleep{clock: clock.NewFake(time.Now().Add(time.Hour))}
	return &retry.Policy{
		MaxAttempts: max, BaseDelay: 100 * time.Millisecond, MaxDelay: time.Second,
		Clock: fs.clock, Sleep: fs.Sleep, Rand: func() float64 { return 0.5 },
	}, fs
}

// failing returns fn that fails with errs in turn, then succeeds.
func failing(calls *int, errs ...error) func(context.Context) error {
	return func(ctx context.Context) error {
		*calls++
		if *calls <= len(errs) {
			return errs[*calls-1]
		}
		return nil
	}
}

func TestFirstAttemptSucceeds(t *testing.T) {
	leaktest.Check(t)
	p, fs := policy(3)
	calls := 0
	if err := retry.Do(context.Background(), p, failing(&calls)); err != nil {
		t.Fatal(err)
	}
	if calls != 1 || len(fs.delays) != 0 {
		t.Fatalf("calls %d, sleeps %v", calls, fs.delays)
	}
}

func TestRetriesTransientWithJitteredBackoff(t *testing.T) {
	leaktest.Check(t)
	p, fs := policy(5)
	calls := 0
	if err := retry.Do(context.Background(), p, failing(&calls, errFlaky, errFlaky, errFlaky)); err != nil {
		t.Fatal(err)
	}
	// Full jitter with Rand = 0.5: half of 100, 200, 400 ms.
	want := []time.Duration{50 * time.Millisecond, 100 * time.Millisecond, 200 * time.Millisecond}
	if calls != 4 || fmt.Sprint(fs.delays) != fmt.Sprint(want) {
		t.Fatalf("calls %d, delays %v; want 4, %v", calls, fs.delays, want)
	}
}

func TestBackoffIsCapped(t *testing.T) {
	leaktest.Check(t)
	p, fs := policy(8)
	p.Rand = func() float64 { return 0.999999 }
	calls := 0
	errs := make([]error, 7)
	for i := range errs {
		errs[i] = errFlaky
	}
	_ = retry.Do(context.Background(), p, failing(&calls, errs...))
	for _, d := range fs.delays {
		if d > time.Second {
			t.Fatalf("delay %v exceeds MaxDelay", d)
		}
	}
	if last := fs.delays[len(fs.delays)-1]; last < 999*time.Millisecond {
		t.Fatalf("late delays must reach the cap, got %v", last)
	}
}

func TestStopsOnNonRetryable(t *testing.T) {
	leaktest.Check(t)
	for _, err := range []error{
		errors.New("validation failed"),
		retry.Permanent(errFlaky),
		context.Canceled, // an attempt's own deadline is retried: TestPerAttemptTimeoutIsRetried
		&retry.StatusError{Code: http.StatusNotFound},
		circuitOpen{},
	} {
		p, _ := policy(3)
		calls := 0
		got := retry.Do(context.Background(), p, failing(&calls, err, err))
		if calls != 1 || !errors.Is(got, err) && got != err {
			t.Errorf("%v: calls %d, err %v; want one attempt and the error back", err, calls, got)
		}
	}
}

type circuitOpen struct{}

func (circuitOpen) Error() string     { return "circuit open" }
func (circuitOpen) CircuitOpen() bool { return true }

func TestExhaustsAttempts(t *testing.T) {
	leaktest.Check(t)
	p, _ := policy(3)
	calls := 0
	err := retry.Do(context.Background(), p, failing(&calls, errFlaky, errFlaky, errFlaky, errFlaky))
	if calls != 3 || !errors.Is(err, syscall.ECONNREFUSED) {
		t.Fatalf("calls %d, err %v", calls, err)
	}
}

func TestRetryAfterPushback(t *testing.T) {
	leaktest.Check(t)
	p, fs := policy(2)
	calls := 0
	err := retry.Do(context.Background(), p, failing(&calls, &retry.StatusError{Code: 503, After: 3 * time.Second}))
	if err != nil || calls != 2 || fs.delays[0] != 3*time.Second {
		t.Fatalf("err %v calls %d delays %v; want the 3 s pushback honoured", err, calls, fs.delays)
	}
}

// TestWallClockCountsAttemptDuration: on the wall clock (no Clock set)
// the layer stamps each attempt on the monotonic clock alone and still
// refuses an attempt that cannot finish before the deadline. With 600 ms
// and attempts of 200 ms, the second attempt leaves about 190 ms, less
// than another attempt and its backoff: 2 calls, not 3.
func TestWallClockCountsAttemptDuration(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 600*time.Millisecond)
	defer cancel()
	calls := 0
	p := &retry.Policy{MaxAttempts: 5, BaseDelay: 10 * time.Millisecond, MaxDelay: 10 * time.Millisecond, Rand: func() float64 { return 0 }}
	err := retry.Do(ctx, p, func(context.Context) error {
		calls++
		time.Sleep(200 * time.Millisecond)
		return errFlaky
	})
	if !errors.Is(err, retry.ErrNoTimeLeft) || calls != 2 {
		t.Fatalf("err %v after %d calls; want ErrNoTimeLeft after 2", err, calls)
	}
}

func TestNeverSleepsPastDeadline(t *testing.T) {
	leaktest.Check(t)
	p, fs := policy(5)
	ctx, cancel := context.WithDeadline(context.Background(), fs.clock.Now().Add(120*time.Millisecond))
	defer cancel()
	calls := 0
	// Each attempt takes 60 ms: after the first, 60 ms remain, less than
	// the 50 ms backoff plus another 60 ms attempt.
	err := retry.Do(ctx, p, func(ctx context.Context) error {
		calls++
		fs.clock.Advance(60 * time.Millisecond)
		return errFlaky
	})
	if !errors.Is(err, retry.ErrNoTimeLeft) || !errors.Is(err, syscall.ECONNREFUSED) || calls != 1 || len(fs.delays) != 0 {
		t.Fatalf("err %v, calls %d, sleeps %v", err, calls, fs.delays)
	}
	if retry.Attempts(err) != 1 {
		t.Fatalf("Attempts = %d", retry.Attempts(err))
	}
}

func TestBudget(t *testing.T) {
	leaktest.Check(t)
	p, _ := policy(3)
	p.Budget = &budget.Ratio{Ratio: 0.1, MinPerSecond: -1, Clock: clock.NewFake(time.Unix(1_000_000, 0))}
	calls := 0
	err := retry.Do(context.Background(), p, failing(&calls, errFlaky, errFlaky))
	if !errors.Is(err, retry.ErrBudgetExhausted) || calls != 1 {
		t.Fatalf("err %v calls %d; one request earns no retry at 10%%", err, calls)
	}

	tb := &budget.TokenBucket{}
	p.Budget = tb
	calls = 0
	_ = retry.Do(context.Background(), p, failing(&calls, errFlaky, errFlaky, errFlaky))
	if tb.Tokens() != 7 {
		t.Fatalf("tokens %v; three failed attempts take three tokens", tb.Tokens())
	}
}

func TestCancelDuringRealSleep(t *testing.T) {
	leaktest.Check(t)
	ctx, cancel := context.WithCancel(context.Background())
	p := &retry.Policy{BaseDelay: time.Hour, MaxDelay: time.Hour, Rand: func() float64 { return 1 }}
	done := make(chan error, 1)
	go func() { done <- retry.Do(ctx, p, func(context.Context) error { return errFlaky }) }()
	time.Sleep(20 * time.Millisecond)
	cancel()
	select {
	case err := <-done:
		if !errors.Is(err, context.Canceled) || !errors.Is(err, syscall.ECONNREFUSED) {
			t.Fatalf("err = %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Do kept sleeping after cancellation")
	}
}

func TestConcurrentSharedPolicy(t *testing.T) {
	leaktest.Check(t)
	p := &retry.Policy{BaseDelay: time.Microsecond, Budget: &budget.Ratio{}}
	var wg sync.WaitGroup
	errs := make(chan error, 50)
	for range 50 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			calls := 0
			err := retry.Do(context.Background(), p, failing(&calls, errFlaky))
			if err == nil && calls != 2 {
				err = fmt.Errorf("%d calls; want 2", calls)
			}
			errs <- err
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err) // the zero Ratio's floor grants these 50 retries
		}
	}
}

// BenchmarkFirstAttemptSucceeds: one attempt that succeeds, under the
// background context and under what real requests carry: a deadline with
// a cancellable parent, against which Do budgets attempts (two clock
// reads).
func BenchmarkFirstAttemptSucceeds(b *testing.B) {
	parent, cancel := context.WithCancel(context.Background())
	defer cancel()
	deadlined, cancelDeadline := context.WithTimeout(parent, time.Hour)
	defer cancelDeadline()
	p := &retry.Policy{}
	fn := func(context.Context) error { return nil }
	for _, c := range []struct {
		name string
		ctx  context.Context
	}{{"background", context.Background()}, {"deadline-cancellable-parent", deadlined}} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				_ = retry.Do(c.ctx, p, fn)
			}
		})
	}
}

func TestOnRetry(t *testing.T) {
	p, fs := policy(4)
	type call struct {
		attempt int
		err     error
		delay   time.Duration
	}
	var calls []call
	p.OnRetry = func(attempt int, err error, delay time.Duration) { calls = append(calls, call{attempt, err, delay}) }
	n := 0
	err := retry.Do(context.Background(), p, failing(&n, errFlaky, errFlaky))
	if err != nil || len(calls) != 2 {
		t.Fatalf("err %v, hook calls %+v; want 2 calls and success", err, calls)
	}
	for i, c := range calls {
		if c.attempt != i+1 || c.err != errFlaky || c.delay != fs.delays[i] {
			t.Fatalf("hook call %d = %+v; want attempt %d, the error and the delay slept (%v)", i, c, i+1, fs.delays[i])
		}
	}
	calls = nil
	n = 0
	_ = retry.Do(context.Background(), p, failing(&n, errors.New("validation failed")))
	if len(calls) != 0 {
		t.Fatalf("a failure that is not retried called the hook: %+v", calls)
	}
}
