package breaker_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/resilvet/resilvet/runtime/breaker"
	"github.com/resilvet/resilvet/runtime/internal/clock"
	"github.com/resilvet/resilvet/runtime/internal/leaktest"
)

// hookLog records the hooks' calls, in order, as text.
type hookLog struct {
	mu     sync.Mutex
	events []string
	errs   []*breaker.OpenError // OnReject's, in order
}

func (l *hookLog) add(format string, args ...any) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.events = append(l.events, fmt.Sprintf(format, args...))
}

func (l *hookLog) take() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	e := l.events
	l.events = nil
	return e
}

// hooked sets every hook of s to log into l.
func hooked(s breaker.Settings, l *hookLog) breaker.Settings {
	s.OnStateChange = func(name string, from, to breaker.State) { l.add("%s: %v>%v", name, from, to) }
	s.OnReject = func(name string, err *breaker.OpenError) {
		l.add("%s: reject %v after %v", name, err.State, err.After)
		l.mu.Lock()
		l.errs = append(l.errs, err)
		l.mu.Unlock()
	}
	s.OnOutcome = func(name string, o breaker.Outcome, took time.Duration) { l.add("%s: %v in %v", name, o, took) }
	return s
}

func expect(t *testing.T, what string, got []string, want ...string) {
	t.Helper()
	if !slices.Equal(got, want) {
		t.Fatalf("%s: hooks saw\n\t%s\nwant\n\t%s", what, strings.Join(got, "\n\t"), strings.Join(want, "\n\t"))
	}
}

// TestOnRejectForEveryRefusedCall: Do, Execute and Allow each report a
// refusal, open or with the probe slots taken, with the very error they
// return, once per rejection that Metrics counts.
func TestOnRejectForEveryRefusedCall(t *testing.T) {
	leaktest.Check(t)
	var l hookLog
	b, fake := newBreaker(hooked(breaker.Settings{Name: "db", MinCalls: 2, WindowSize: 2, Probes: 1}, &l))
	call(b, errDown)
	call(b, errDown)
	l.take()

	var returned []error
	returned = append(returned, call(b, nil))
	fake.Advance(time.Second)
	_, err := breaker.Execute(context.Background(), b, func(context.Context) (int, error) { return 1, nil })
	returned = append(returned, err)
	_, err = b.Allow()
	returned = append(returned, err)
	expect(t, "open", l.take(), "db: reject open after 5s", "db: reject open after 4s", "db: reject open after 4s")

	fake.Advance(4 * time.Second)
	probe, err := b.Allow() // the only probe slot
	if err != nil {
		t.Fatal(err)
	}
	returned = append(returned, call(b, nil))
	expect(t, "half-open, probe out", l.take(), "db: open>half-open", "db: reject half-open after 0s")
	probe.Record(breaker.Success)
	expect(t, "probe back", l.take(), "db: success in 0s", "db: half-open>closed")

	if len(l.errs) != len(returned) {
		t.Fatalf("%d rejections hooked, %d returned", len(l.errs), len(returned))
	}
	for i, err := range returned {
		var oe *breaker.OpenError
		if !errors.As(err, &oe) || oe != l.errs[i] {
			t.Fatalf("rejection %d: returned %v, hooked %v; want the same *OpenError", i, err, l.errs[i])
		}
	}
	if m := b.Metrics(); m.Rejections != uint64(len(returned)) {
		t.Fatalf("Metrics counts %d rejections, the hook %d", m.Rejections, len(returned))
	}
}

// TestOnOutcomeOnEveryPath: the lock-free closed path, the locked one
// (a time window, slow-call tracking) and the two-step form all report
// each outcome as classified, Ignore included, with the call's duration
// on the breaker's clock, before the transition it causes.
func TestOnOutcomeOnEveryPath(t *testing.T) {
	for _, tc := range []struct {
		name string
		s    breaker.Settings
	}{
		{"lock-free closed path", breaker.Settings{}},
		{"time window", breaker.Settings{Window: breaker.TimeWindow}},
		{"slow-call tracking", breaker.Settings{SlowCall: time.Hour}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			leaktest.Check(t)
			var l hookLog
			tc.s.Name, tc.s.MinCalls, tc.s.WindowSize = "db", 5, 5
			b, fake := newBreaker(hooked(tc.s, &l))
			taking := func(d time.Duration, err error) func(context.Context) error {
				return func(context.Context) error { fake.Advance(d); return err }
			}
			ctx := context.Background()
			b.Do(ctx, taking(10*time.Millisecond, nil))
			b.Do(ctx, taking(20*time.Millisecond, breaker.ClientError(errDown)))
			cancelled, cancel := context.WithCancel(ctx)
			cancel()
			b.Do(cancelled, taking(30*time.Millisecond, context.Canceled))
			breaker.Execute(ctx, b, func(context.Context) (int, error) {
				fake.Advance(40 * time.Millisecond)
				return 0, errDown
			})
			func() {
				defer func() { recover() }()
				b.Do(ctx, func(context.Context) error { fake.Advance(50 * time.Millisecond); panic("boom") })
			}()
			done, err := b.Allow()
			if err != nil {
				t.Fatal(err)
			}
			fake.Advance(60 * time.Millisecond)
			done.Report(ctx, errDown) // 5 outcomes counted, 3 failed: it opens
			done.Report(ctx, nil)     // ignored: once only
			expect(t, "outcomes", l.take(),
				"db: success in 10ms",
				"db: success in 20ms",
				"db: ignore in 30ms",
				"db: failure in 40ms",
				"db: failure in 50ms",
				"db: failure in 60ms",
				"db: closed>open",
			)
		})
	}
}

// TestOnOutcomeForStaleOutcomes: a call admitted before a state change
// still reports its outcome, though the breaker does not count it, so
// that admitted calls and OnOutcome's calls stay equal.
func TestOnOutcomeForStaleOutcomes(t *testing.T) {
	leaktest.Check(t)
	var l hookLog
	b, _ := newBreaker(hooked(breaker.Settings{Name: "db", MinCalls: 1, WindowSize: 1}, &l))
	done, _ := b.Allow()
	call(b, errDown) // opens
	done.Record(breaker.Failure)
	expect(t, "stale", l.take(), "db: failure in 0s", "db: closed>open", "db: failure in 0s")
	if m := b.Metrics(); m.Transitions != 1 {
		t.Fatalf("a stale outcome changed the state: %+v", m)
	}
}

// TestTransportHooks: Transport's requests report their outcome (until
// the response's headers) and its refusals, under the Group's key.
func TestTransportHooks(t *testing.T) {
	leaktest.Check(t)
	fake := clock.NewFake(time.Unix(1e9, 0))
	var l hookLog
	srv, status, _ := statusServer(t, http.StatusOK)
	slow := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fake.Advance(15 * time.Millisecond)
		srv.Config.Handler.ServeHTTP(w, r)
	}))
	defer slow.Close()
	g := breaker.NewGroup(0, func(string) breaker.Settings {
		return hooked(breaker.Settings{MinCalls: 2, WindowSize: 2, FailureRate: 1, Cooldown: time.Hour, CooldownJitter: -1, Clock: fake}, &l)
	})
	client := &http.Client{Transport: &breaker.Transport{Base: slow.Client().Transport, Breakers: g}}
	defer client.CloseIdleConnections()
	host := strings.TrimPrefix(slow.URL, "http://")

	get(client, slow.URL)
	status.Store(http.StatusNotFound)
	get(client, slow.URL)
	status.Store(http.StatusServiceUnavailable)
	get(client, slow.URL)
	get(client, slow.URL)
	if err := get(client, slow.URL); !errors.Is(err, breaker.ErrOpen) {
		t.Fatalf("err = %v; want the open-circuit error", err)
	}
	expect(t, "transport", l.take(),
		host+": success in 15ms",
		host+": success in 15ms",
		host+": failure in 15ms",
		host+": failure in 15ms",
		host+": closed>open",
		host+": reject open after 1h0m0s",
	)
}

// TestHooksCountEveryCallConcurrently: under callers at once and a
// flapping circuit, every call is either an outcome or a rejection, and
// the rejections are the ones Metrics counts (run with -race: the hooks
// run concurrently).
func TestHooksCountEveryCallConcurrently(t *testing.T) {
	leaktest.Check(t)
	var mu sync.Mutex
	outcomes, rejections := 0, 0
	b, fake := newBreaker(breaker.Settings{
		MinCalls: 5, WindowSize: 10, FailureRate: 0.3, Probes: 2, Cooldown: time.Millisecond,
		OnReject: func(string, *breaker.OpenError) { mu.Lock(); rejections++; mu.Unlock() },
		OnOutcome: func(string, breaker.Outcome, time.Duration) {
			mu.Lock()
			outcomes++
			mu.Unlock()
		},
	})
	const goroutines, calls = 8, 400
	var wg sync.WaitGroup
	for g := range goroutines {
		wg.Go(func() {
			for i := range calls {
				if g == 0 && i%10 == 0 {
					fake.Advance(time.Millisecond) // ends cooldowns
				}
				var err error
				if (g+i)%3 == 0 {
					err = errDown
				}
				call(b, err)
			}
		})
	}
	wg.Wait()
	mu.Lock()
	defer mu.Unlock()
	if outcomes+rejections != goroutines*calls {
		t.Fatalf("%d outcomes + %d rejections; want %d calls", outcomes, rejections, goroutines*calls)
	}
	if m := b.Metrics(); m.Rejections != uint64(rejections) || rejections == 0 {
		t.Fatalf("Metrics counts %d rejections, the hook %d", m.Rejections, rejections)
	}
}
