package retry_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"runtime"
	"sync/atomic"
	"testing"
	"time"

	"github.com/resilvet/resilvet/runtime/budget"
	"github.com/resilvet/resilvet/runtime/internal/leaktest"
	"github.com/resilvet/resilvet/runtime/retry"
)

// nest runs an outer layer around an inner one that calls bottom; hop
// moves the inner layer to another goroutine.
func nest(outer, inner *retry.Policy, hop bool, bottom func(context.Context) error) (outerCalls, innerCalls int, err error) {
	err = retry.Do(context.Background(), outer, func(ctx context.Context) error {
		outerCalls++
		run := func() error {
			return retry.Do(ctx, inner, func(ctx context.Context) error { innerCalls++; return bottom(ctx) })
		}
		if !hop {
			return run()
		}
		errc := make(chan error)
		go func() { errc <- run() }()
		return <-errc
	})
	return outerCalls, innerCalls, err
}

func TestNestedLayersDoNotMultiply(t *testing.T) {
	leaktest.Check(t)
	for _, hop := range []bool{false, true} {
		outer, _ := policy(3)
		inner, _ := policy(3)
		outerCalls, innerCalls, err := nest(outer, inner, hop, func(context.Context) error { return errFlaky })
		if outerCalls != 3 || innerCalls != 3 || retry.Attempts(err) != 3 || !errors.Is(err, retry.ErrAttemptsExhausted) {
			t.Errorf("other goroutine %v: outer calls %d, inner calls %d, err %v; want 3, 3 and the outer give-up", hop, outerCalls, innerCalls, err)
		}
	}
	// AllowNested on the inner layer multiplies, on purpose.
	outer, _ := policy(3)
	inner, _ := policy(3)
	inner.AllowNested = true
	if outerCalls, innerCalls, _ := nest(outer, inner, false, func(context.Context) error { return errFlaky }); outerCalls != 3 || innerCalls != 9 {
		t.Fatalf("with AllowNested: outer calls %d, inner calls %d; want 3 and 9", outerCalls, innerCalls)
	}
}

// TestThreeLayersMakeAtMostTheLargestMaxAttempts is the 3×3×3 = 27 case,
// with a layer that does not retry in the middle of the stack.
func TestThreeLayersMakeAtMostTheLargestMaxAttempts(t *testing.T) {
	leaktest.Check(t)
	calls := 0
	layer := func(max int, next func(context.Context) error) func(context.Context) error {
		p, _ := policy(max)
		return func(ctx context.Context) error { return retry.Do(ctx, p, next) }
	}
	bottom := func(context.Context) error { calls++; return errFlaky }
	stack := layer(3, layer(1, layer(4, layer(2, bottom))))
	if err := stack(context.Background()); err == nil || calls > 4 {
		t.Fatalf("%d calls reached the dependency; want at most 4, err %v", calls, err)
	}
}

// TestOuterLayerFoundAtAnyDepth: the outer layer is known from the
// context, however deep the stack between the layers (a stack walk
// bounded at 128 frames missed it).
func TestOuterLayerFoundAtAnyDepth(t *testing.T) {
	leaktest.Check(t)
	outer, _ := policy(3)
	inner, _ := policy(3)
	var deep func(ctx context.Context, depth int) error
	innerCalls := 0
	deep = func(ctx context.Context, depth int) error {
		if depth > 0 {
			return deep(ctx, depth-1)
		}
		return retry.Do(ctx, inner, func(context.Context) error { innerCalls++; return errFlaky })
	}
	outerCalls := 0
	_ = retry.Do(context.Background(), outer, func(ctx context.Context) error { outerCalls++; return deep(ctx, 300) })
	if outerCalls != 3 || innerCalls != 3 {
		t.Fatalf("300 frames apart: outer calls %d, inner calls %d; want 3 and 3 (one per outer attempt)", outerCalls, innerCalls)
	}
}

var errSerialization = errors.New("pq: could not serialize access due to concurrent update")

// TestInnerLayerRetriesWhatOnlyItRetries: an inner layer whose own
// classifier retries an error the outer one does not retry keeps retrying
// it; the errors the outer layer retries go up at once.
func TestInnerLayerRetriesWhatOnlyItRetries(t *testing.T) {
	leaktest.Check(t)
	outer, _ := policy(3) // default classifier: knows nothing of serialization failures
	inner, _ := policy(3)
	inner.Retryable = func(err error) bool { return errors.Is(err, errSerialization) || retry.Transient(err) }
	calls := 0
	bottom := func(context.Context) error {
		if calls++; calls < 3 {
			return errSerialization
		}
		return nil
	}
	if outerCalls, innerCalls, err := nest(outer, inner, false, bottom); err != nil || outerCalls != 1 || innerCalls != 3 {
		t.Fatalf("outer calls %d, inner calls %d, err %v; want 1, 3 and success on the inner layer's third attempt", outerCalls, innerCalls, err)
	}
	// Mixed: the transient error goes up to the outer layer, which
	// retries; the serialization failure is retried where it is known.
	calls = 0
	seq := []error{errFlaky, errSerialization, nil}
	bottom = func(context.Context) error { calls++; return seq[calls-1] }
	if outerCalls, innerCalls, err := nest(outer, inner, false, bottom); err != nil || outerCalls != 2 || innerCalls != 3 {
		t.Fatalf("mixed: outer calls %d, inner calls %d, err %v; want 2, 3, nil", outerCalls, innerCalls, err)
	}
}

// TestPerAttemptTimeoutIsRetried: an attempt whose own deadline expired,
// while the caller's context is alive, is transient; the caller's
// deadline expiring is not.
func TestPerAttemptTimeoutIsRetried(t *testing.T) {
	leaktest.Check(t)
	p, _ := policy(3)
	calls := 0
	err := retry.Do(context.Background(), p, func(ctx context.Context) error {
		calls++
		ctx, cancel := context.WithTimeout(ctx, time.Nanosecond) // per attempt
		defer cancel()
		if calls < 3 {
			<-ctx.Done()
			return fmt.Errorf("query: %w", ctx.Err())
		}
		return nil
	})
	if err != nil || calls != 3 {
		t.Fatalf("calls %d, err %v; want 3 and success", calls, err)
	}
	// Any deadline error while the caller's context is alive came from
	// inside the attempt; it is retried until attempts run out.
	ctx, cancel := context.WithTimeout(context.Background(), time.Nanosecond)
	defer cancel()
	calls = 0
	<-ctx.Done()
	err = retry.Do(context.WithoutCancel(ctx), p, func(context.Context) error { calls++; return ctx.Err() })
	if calls != 3 || !errors.Is(err, retry.ErrAttemptsExhausted) {
		t.Fatalf("a deadline error under a live caller context: %d calls, err %v; want 3 and attempts exhausted", calls, err)
	}
	// The caller's own context ending: not retried.
	calls = 0
	live, stop := context.WithCancel(context.Background())
	err = retry.Do(live, p, func(context.Context) error { calls++; stop(); return context.DeadlineExceeded })
	if calls != 1 || !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("caller gone: %d calls, err %v; want 1", calls, err)
	}
	// Permanent still wins.
	calls = 0
	_ = retry.Do(context.Background(), p, func(context.Context) error { calls++; return retry.Permanent(context.DeadlineExceeded) })
	if calls != 1 {
		t.Fatalf("Permanent(DeadlineExceeded): %d calls; want 1", calls)
	}
}

// TestDetachedContextStartsANewOperation: work detached with
// context.WithoutCancel from a retried attempt, or launched by it and
// running after it returned, retries in full.
func TestDetachedContextStartsANewOperation(t *testing.T) {
	leaktest.Check(t)
	parent, cancel := context.WithCancel(context.Background())
	defer cancel()
	// policy's fake clock reads an hour ahead of the real one.
	deadlined, cancelDeadline := context.WithTimeout(parent, 24*time.Hour)
	defer cancelDeadline()
	for _, tc := range []struct {
		name   string
		parent context.Context
		detach func(context.Context) context.Context
		later  bool // run the job after the attempt returned
	}{
		{"WithoutCancel", parent, context.WithoutCancel, false},
		// CLIs, cron jobs, consumers and tests run on Background: nothing
		// is lost by WithoutCancel there but the attempt's own Done.
		{"WithoutCancel under Background", context.Background(), context.WithoutCancel, false},
		{"WithoutCancel and a value under Background", context.Background(), func(ctx context.Context) context.Context {
			return context.WithValue(context.WithoutCancel(ctx), jobKey{}, 1)
		}, false},
		{"WithoutCancel then a longer timeout", deadlined, func(ctx context.Context) context.Context {
			ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 48*time.Hour)
			t.Cleanup(cancel)
			return ctx
		}, false},
		{"launched, runs after the attempt", parent, func(ctx context.Context) context.Context { return ctx }, true},
	} {
		outer, _ := policy(5)
		job, _ := policy(5)
		jobCalls := 0
		runJob := func(ctx context.Context) {
			_ = retry.Do(ctx, job, func(context.Context) error { jobCalls++; return errFlaky })
		}
		var pending func()
		attempt := 0
		_ = retry.Do(tc.parent, outer, func(ctx context.Context) error {
			if attempt++; attempt == 2 {
				jctx := tc.detach(ctx)
				if tc.later {
					pending = func() { runJob(jctx) }
				} else {
					runJob(jctx)
				}
			}
			return errFlaky
		})
		if pending != nil {
			pending()
		}
		if jobCalls != 5 {
			t.Errorf("%s: the background job made %d attempts; want 5", tc.name, jobCalls)
		}
	}
	// Not detached: a child with a shorter deadline is still the request's.
	outer, _ := policy(3)
	inner, _ := policy(3)
	innerCalls := 0
	_ = retry.Do(deadlined, outer, func(ctx context.Context) error {
		ctx, cancel := context.WithTimeout(ctx, 12*time.Hour)
		defer cancel()
		return retry.Do(ctx, inner, func(context.Context) error { innerCalls++; return errFlaky })
	})
	if innerCalls != 3 {
		t.Fatalf("derived with a shorter deadline: %d inner calls; want 3", innerCalls)
	}
}

type jobKey struct{}

// TestDetachedUnderBackgroundIsItsOwnRequest: under a Background caller,
// a job detached from an attempt deposits in a shared budget as a request
// of its own and sends no attempt header; a context derived from the
// attempt through cancellation stays the attempt's.
func TestDetachedUnderBackgroundIsItsOwnRequest(t *testing.T) {
	leaktest.Check(t)
	shared := &countingBudget{}
	outer, _ := policy(2)
	job, _ := policy(2)
	outer.Budget, job.Budget = shared, shared
	var detachedRetrying, derivedRetrying bool
	_ = retry.Do(context.Background(), outer, func(ctx context.Context) error {
		derived, cancel := context.WithCancel(context.WithValue(ctx, jobKey{}, 1))
		defer cancel()
		_, derivedRetrying = retry.Retrying(derived)
		_ = retry.Do(context.WithoutCancel(ctx), job, func(ctx context.Context) error {
			return nil
		})
		_, detachedRetrying = retry.Retrying(context.WithoutCancel(ctx))
		return nil
	})
	if got := shared.deposits.Load(); got != 2 {
		t.Errorf("a request and a job detached from it deposited %d times in the shared budget; want 2", got)
	}
	if detachedRetrying || !derivedRetrying {
		t.Errorf("Retrying: detached %v, derived %v; want false and true", detachedRetrying, derivedRetrying)
	}
}

// TestAttemptUnderBackgroundStartsNoWatchers: the attempt's own Done
// channel under a Background caller must not cost a goroutine per context
// derived from it (the context package watches a parent it does not know
// with one), and contexts derived from it behave as under Background.
func TestAttemptUnderBackgroundStartsNoWatchers(t *testing.T) {
	leaktest.Check(t)
	p, _ := policy(1)
	var cancels []context.CancelFunc
	var before, after int
	_ = retry.Do(context.Background(), p, func(ctx context.Context) error {
		if ctx.Done() == nil {
			t.Error("an attempt's context has no Done channel under Background")
		}
		before = runtime.NumGoroutine()
		for i := range 100 {
			c, cancel := context.WithCancel(context.WithValue(ctx, jobKey{}, i))
			cancels = append(cancels, cancel)
			if c.Err() != nil || context.Cause(c) != nil {
				t.Fatalf("derived context: Err %v, Cause %v; want none", c.Err(), context.Cause(c))
			}
		}
		after = runtime.NumGoroutine()
		select {
		case <-ctx.Done():
			t.Error("the attempt's own Done channel closed")
		default:
		}
		return nil
	})
	for _, cancel := range cancels {
		cancel()
	}
	if after-before > 10 {
		t.Fatalf("100 contexts derived from an attempt under Background started %d goroutines", after-before)
	}
	// Under a cancellable caller, cancellation still reaches the derived
	// contexts.
	parent, cancel := context.WithCancel(context.Background())
	var derived context.Context
	_ = retry.Do(parent, p, func(ctx context.Context) error {
		var stop context.CancelFunc
		derived, stop = context.WithCancel(context.WithValue(ctx, jobKey{}, 0))
		t.Cleanup(stop)
		return nil
	})
	cancel()
	select {
	case <-derived.Done():
	case <-time.After(time.Second):
		t.Fatal("cancelling the caller did not cancel a context derived from its attempt")
	}
}

// TestSharedBudgetDepositsOncePerRequest: two layers sharing a budget
// count one logical request once.
func TestSharedBudgetDepositsOncePerRequest(t *testing.T) {
	leaktest.Check(t)
	shared := &countingBudget{}
	other := &countingBudget{}
	outer, _ := policy(2)
	inner, _ := policy(2)
	outer.Budget, inner.Budget = shared, shared
	for range 10 {
		_, _, _ = nest(outer, inner, false, func(context.Context) error { return errFlaky })
	}
	if got := shared.deposits.Load(); got != 10 {
		t.Fatalf("10 requests through two layers sharing a budget deposited %d times; want 10", got)
	}
	inner.Budget = other
	for range 10 {
		_, _, _ = nest(outer, inner, false, func(context.Context) error { return errFlaky })
	}
	if s, o := shared.deposits.Load(), other.deposits.Load(); s != 20 || o != 20 {
		t.Fatalf("separate budgets: deposits %d and %d; want 20 (one per request) and 20 (one per outer attempt)", s, o)
	}
}

type countingBudget struct{ deposits atomic.Int64 }

func (c *countingBudget) Deposit()       { c.deposits.Add(1) }
func (c *countingBudget) Withdraw() bool { return true }

var _ budget.Budget = (*countingBudget)(nil)

// TestAttemptCrossesHTTP: a server behind Middleware, called through
// Transport from inside a retrying layer, leaves the retrying to a
// trusted caller; an untrusted caller cannot switch its retries off.
func TestAttemptCrossesHTTP(t *testing.T) {
	leaktest.Check(t)
	var headers []string
	serverCalls := 0
	trusted := false
	handler := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		headers = append(headers, r.Header.Get(retry.AttemptHeader))
		p, _ := policy(3)
		_ = retry.Do(r.Context(), p, func(ctx context.Context) error { serverCalls++; return errFlaky })
		w.WriteHeader(http.StatusServiceUnavailable)
	})
	srv := httptest.NewServer(retry.Middleware(handler, func(*http.Request) bool { return trusted }))
	defer srv.Close()
	client := &http.Client{Transport: &retry.Transport{Base: srv.Client().Transport}}
	defer client.CloseIdleConnections()
	get := func(ctx context.Context) error {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, srv.URL, nil)
		if err != nil {
			return err
		}
		resp, err := client.Do(req)
		if err != nil {
			return err
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		return retry.ResponseError(resp)
	}

	for _, tc := range []struct {
		trusted     bool
		maxAttempts int
		headers     string
		server      int
	}{
		{true, 2, `["1" "2"]`, 2},      // one server attempt per client attempt
		{false, 2, `["1" "2"]`, 3 + 3}, // untrusted: the header is ignored
		{true, 1, `[""]`, 3},           // the client does not retry: no header
	} {
		headers, serverCalls, trusted = nil, 0, tc.trusted
		p, _ := policy(tc.maxAttempts)
		err := retry.Do(context.Background(), p, get)
		var se *retry.StatusError
		if !errors.As(err, &se) || se.Code != 503 {
			t.Fatalf("err = %v", err)
		}
		if got := fmt.Sprintf("%q", headers); got != tc.headers || serverCalls != tc.server {
			t.Fatalf("trusted %v, MaxAttempts %d: headers %q, server-side attempts %d; want %s and %d", tc.trusted, tc.maxAttempts, headers, serverCalls, tc.headers, tc.server)
		}
	}
	// Outside any retry layer: no header.
	headers = nil
	_ = get(context.Background())
	if len(headers) != 1 || headers[0] != "" {
		t.Fatalf("outside a retry layer the request carried %q", headers)
	}
}

// TestFirstAttemptAllocatesOnce: the mark costs one allocation.
func TestFirstAttemptAllocatesOnce(t *testing.T) {
	p := &retry.Policy{}
	ctx := context.Background()
	fn := func(context.Context) error { return nil }
	if a := testing.AllocsPerRun(100, func() { _ = retry.Do(ctx, p, fn) }); a > 1 {
		t.Fatalf("%v allocations per call whose first attempt succeeds; want 1", a)
	}
}

type nopRoundTripper struct{}

func (nopRoundTripper) RoundTrip(*http.Request) (*http.Response, error) { return nil, errFlaky }

// BenchmarkTransport measures what Transport adds to a request: a context
// lookup outside a retry layer, and the header on a request clone inside.
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
		p := &retry.Policy{MaxAttempts: 2, Retryable: func(error) bool { return false }}
		b.ReportAllocs()
		for b.Loop() {
			retry.Do(context.Background(), p, func(ctx context.Context) error { _, err := t.RoundTrip(req.WithContext(ctx)); return err })
		}
	})
}

// TestRetryingAndWithCaller: the exported pair protocol adapters use.
func TestRetryingAndWithCaller(t *testing.T) {
	leaktest.Check(t)
	if _, ok := retry.Retrying(context.Background()); ok {
		t.Fatal("outside any layer")
	}
	var seen []int
	p, _ := policy(3)
	_ = retry.Do(context.Background(), p, func(ctx context.Context) error {
		n, ok := retry.Retrying(ctx)
		if ok {
			seen = append(seen, n)
		}
		// A layer that does not retry is looked through.
		_ = retry.Do(ctx, &retry.Policy{MaxAttempts: 1}, func(ctx context.Context) error {
			if m, ok := retry.Retrying(ctx); !ok || m != n {
				t.Errorf("through a MaxAttempts 1 layer: %d, %v; want %d", m, ok, n)
			}
			return nil
		})
		return errFlaky
	})
	if fmt.Sprint(seen) != "[1 2 3]" {
		t.Fatalf("attempts seen %v; want [1 2 3]", seen)
	}
	// A caller's mark: the layer inside leaves transient failures to it
	// and keeps its own.
	ctx, done := retry.WithCaller(context.Background(), 2)
	inner, _ := policy(3)
	calls := 0
	_ = retry.Do(ctx, inner, func(context.Context) error { calls++; return errFlaky })
	if calls != 1 {
		t.Fatalf("under a caller that retries: %d calls; want 1", calls)
	}
	done()
	calls = 0
	_ = retry.Do(ctx, inner, func(context.Context) error { calls++; return errFlaky })
	if calls != 3 {
		t.Fatalf("after the request ended: %d calls; want 3", calls)
	}
	if c, d := retry.WithCaller(context.Background(), 0); c != context.Background() || d == nil {
		t.Fatal("attempt 0 is no mark")
	}
}
