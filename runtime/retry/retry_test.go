package retry_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
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
		context.Canceled,
		fmt.Errorf("call: %w", context.DeadlineExceeded),
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

func TestNestedLayersDoNotMultiply(t *testing.T) {
	leaktest.Check(t)
	outer, _ := policy(3)
	inner, _ := policy(3)
	var innerCalls, outerCalls int
	var tagged []bool
	run := func(hop bool) error {
		innerCalls, outerCalls, tagged = 0, 0, nil
		return retry.Do(context.Background(), outer, func(ctx context.Context) error {
			outerCalls++
			_, ok := retry.Attempt(ctx)
			tagged = append(tagged, ok)
			innerLayer := func() error {
				return retry.Do(ctx, inner, func(ctx context.Context) error {
					innerCalls++
					return errFlaky
				})
			}
			if !hop {
				return innerLayer()
			}
			errc := make(chan error)
			go func() { errc <- innerLayer() }()
			return <-errc
		})
	}

	// Default: the inner layer makes one attempt per outer attempt; on
	// the first, it finds the outer layer on its goroutine's stack.
	err := run(false)
	if innerCalls != 3 || outerCalls != 3 || fmt.Sprint(tagged) != "[false true true]" || retry.Attempts(err) != 3 {
		t.Fatalf("inner calls %d, outer calls %d, tagged %v, err %v; want 3, 3, [false true true]", innerCalls, outerCalls, tagged, err)
	}

	// Across a goroutine the first attempt is invisible: the inner layer
	// retries, gives up, and the outer layer does not retry that give-up.
	err = run(true)
	if innerCalls != 3 || outerCalls != 1 || !errors.Is(err, retry.ErrAttemptsExhausted) || retry.Attempts(err) != 3 {
		t.Fatalf("across a goroutine: inner calls %d, outer calls %d, err %v; want 3, 1 and the inner give-up", innerCalls, outerCalls, err)
	}

	// TagFirstAttempt: the context says so from the first attempt on,
	// across goroutines too.
	outer.TagFirstAttempt = true
	err = run(true)
	if innerCalls != 3 || outerCalls != 3 || fmt.Sprint(tagged) != "[true true true]" || retry.Attempts(err) != 3 {
		t.Fatalf("TagFirstAttempt: inner calls %d, outer calls %d, tagged %v, err %v; want 3, 3, all tagged", innerCalls, outerCalls, tagged, err)
	}

	// AllowNested on the inner layer multiplies, on purpose.
	outer.TagFirstAttempt = false
	inner.AllowNested = true
	if run(false); innerCalls != 9 || outerCalls != 3 {
		t.Fatalf("with AllowNested inner calls %d, outer calls %d; want 9 and 3", innerCalls, outerCalls)
	}
}

// TestThreeLayersMakeAtMostTheLargestMaxAttempts is the 3×3×3 = 27 case.
func TestThreeLayersMakeAtMostTheLargestMaxAttempts(t *testing.T) {
	leaktest.Check(t)
	for _, tagFirst := range []bool{false, true} {
		calls := 0
		layer := func(max int, next func(context.Context) error) func(context.Context) error {
			p, _ := policy(max)
			p.TagFirstAttempt = tagFirst
			return func(ctx context.Context) error { return retry.Do(ctx, p, next) }
		}
		bottom := func(context.Context) error { calls++; return errFlaky }
		stack := layer(3, layer(4, layer(2, bottom)))
		if err := stack(context.Background()); err == nil || calls > 4 {
			t.Fatalf("TagFirstAttempt %v: %d calls reached the dependency; want at most 4, err %v", tagFirst, calls, err)
		}
	}
}

// TestFirstAttemptRunsWithCallersContext: no wrapper, no allocation.
func TestFirstAttemptRunsWithCallersContext(t *testing.T) {
	leaktest.Check(t)
	type key struct{}
	ctx := context.WithValue(context.Background(), key{}, 1)
	p := &retry.Policy{}
	var got context.Context
	_ = retry.Do(ctx, p, func(c context.Context) error { got = c; return nil })
	if got != ctx {
		t.Fatal("the first attempt got a derived context")
	}
	fn := func(context.Context) error { return nil }
	if a := testing.AllocsPerRun(100, func() { _ = retry.Do(ctx, p, fn) }); a != 0 {
		t.Fatalf("%v allocations per call whose first attempt succeeds; want 0", a)
	}
}

// TestAttemptCrossesHTTP: a server behind Middleware, called through
// Transport from inside a retried attempt, sees that its caller retries,
// so its own retry layer makes a single attempt.
func TestAttemptCrossesHTTP(t *testing.T) {
	leaktest.Check(t)
	var headers []string
	innerCalls := 0
	srv := httptest.NewServer(retry.Middleware(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		headers = append(headers, r.Header.Get(retry.AttemptHeader))
		p, _ := policy(3)
		_ = retry.Do(r.Context(), p, func(ctx context.Context) error { innerCalls++; return errFlaky })
		w.WriteHeader(http.StatusServiceUnavailable)
	})))
	defer srv.Close()
	client := &http.Client{Transport: &retry.Transport{Base: srv.Client().Transport}}
	defer client.CloseIdleConnections()

	for _, tc := range []struct {
		tagFirst, hop bool
		headers       string
		server        int
	}{
		{false, false, "[1 2]", 2},   // the first request: Transport finds the layer on the stack
		{true, true, "[1 2]", 2},     // tagged context, whatever the goroutine
		{false, true, "[ 2]", 3 + 1}, // sent from another goroutine: attempts add up
	} {
		headers, innerCalls = nil, 0
		p, _ := policy(2)
		p.TagFirstAttempt = tc.tagFirst
		err := retry.Do(context.Background(), p, func(ctx context.Context) error {
			req, err := http.NewRequestWithContext(ctx, http.MethodGet, srv.URL, nil)
			if err != nil {
				return err
			}
			do := client.Do
			if tc.hop {
				do = func(req *http.Request) (*http.Response, error) {
					type answer struct {
						resp *http.Response
						err  error
					}
					c := make(chan answer)
					go func() { resp, err := client.Do(req); c <- answer{resp, err} }()
					a := <-c
					return a.resp, a.err
				}
			}
			resp, err := do(req)
			if err != nil {
				return err
			}
			io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			return retry.ResponseError(resp)
		})
		var se *retry.StatusError
		if !errors.As(err, &se) || se.Code != 503 {
			t.Fatalf("err = %v", err)
		}
		if fmt.Sprint(headers) != tc.headers || innerCalls != tc.server {
			t.Fatalf("TagFirstAttempt %v, other goroutine %v: headers %v, server-side attempts %d; want %s and %d", tc.tagFirst, tc.hop, headers, innerCalls, tc.headers, tc.server)
		}
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

func BenchmarkFirstAttemptSucceeds(b *testing.B) {
	ctx := context.Background()
	p := &retry.Policy{}
	fn := func(context.Context) error { return nil }
	b.ReportAllocs()
	for b.Loop() {
		_ = retry.Do(ctx, p, fn)
	}
}

type nopRoundTripper struct{}

func (nopRoundTripper) RoundTrip(*http.Request) (*http.Response, error) { return nil, errFlaky }

// BenchmarkTransport measures what Transport adds to a request: the stack
// walk that looks for a retry layer when the context carries no attempt,
// and the header on a request clone when it finds one.
func BenchmarkTransport(b *testing.B) {
	t := &retry.Transport{Base: nopRoundTripper{}}
	req, _ := http.NewRequest(http.MethodGet, "http://example.com/", nil)
	b.Run("outside-retry", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			t.RoundTrip(req)
		}
	})
	b.Run("first-attempt", func(b *testing.B) {
		p := &retry.Policy{MaxAttempts: 1}
		b.ReportAllocs()
		for b.Loop() {
			retry.Do(context.Background(), p, func(context.Context) error { _, err := t.RoundTrip(req); return err })
		}
	})
}
