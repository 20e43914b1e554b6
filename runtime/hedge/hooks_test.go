package hedge_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/resilvet/resilvet/runtime/budget"
	"github.com/resilvet/resilvet/runtime/hedge"
	"github.com/resilvet/resilvet/runtime/internal/leaktest"
	"github.com/resilvet/resilvet/runtime/retry"
)

// events records what the hooks and the operation saw, in order.
type events struct {
	mu   sync.Mutex
	list []string
}

func (e *events) add(format string, args ...any) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.list = append(e.list, fmt.Sprintf(format, args...))
}

// hook sets p's hooks to record into e.
func (e *events) hook(p *hedge.Policy) *hedge.Policy {
	p.OnHedge = func(copy int) { e.add("hedge %d", copy) }
	p.OnWin = func(copy int) { e.add("win %d", copy) }
	return p
}

// expect checks the events so far. Do has returned: every hook of the
// call has, too.
func (e *events) expect(t *testing.T, want ...string) {
	t.Helper()
	e.mu.Lock()
	defer e.mu.Unlock()
	if !slices.Equal(e.list, want) {
		t.Fatalf("events %q; want %q", e.list, want)
	}
}

// TestOnWinForTheFirstCopy: a call answered before the delay sends no
// copy and is won by copy 0.
func TestOnWinForTheFirstCopy(t *testing.T) {
	leaktest.Check(t)
	var e events
	p := e.hook(&hedge.Policy{Delay: time.Hour, Clock: newFake()})
	if _, err := hedge.Do(context.Background(), p, answerAtOnce); err != nil {
		t.Fatal(err)
	}
	e.expect(t, "win 0")
}

// TestOnHedgeInsideAdvance: the extra copy is sent, and OnHedge called,
// inside the Advance that makes it due, before the copy can win.
func TestOnHedgeInsideAdvance(t *testing.T) {
	leaktest.Check(t)
	fake := newFake()
	var e events
	p := e.hook(&hedge.Policy{Delay: 5 * time.Millisecond, Clock: fake})
	var n atomic.Int64
	v, err := hedge.Do(context.Background(), p, hedge.Idempotent(func(ctx context.Context) (string, error) {
		if n.Add(1) > 1 {
			return "extra", nil
		}
		fake.Advance(5 * time.Millisecond)
		e.add("advanced")
		<-ctx.Done()
		return "", ctx.Err()
	}))
	if v != "extra" || err != nil {
		t.Fatalf("Do = %q, %v", v, err)
	}
	e.expect(t, "hedge 1", "advanced", "win 1")
	if m := p.Metrics(); m.Hedges != 1 || m.HedgeWins != 1 {
		t.Fatalf("metrics %+v", m)
	}
}

// TestOnHedgeForEveryExtraCopy: with three copies, each extra one is
// reported with its index, and the winner with its own.
func TestOnHedgeForEveryExtraCopy(t *testing.T) {
	leaktest.Check(t)
	fake := newFake()
	var e events
	p := e.hook(&hedge.Policy{Delay: 5 * time.Millisecond, MaxAttempts: 3, Clock: fake, Budget: &budget.Ratio{Ratio: 10, Clock: fake}})
	var n atomic.Int64
	v, err := hedge.Do(context.Background(), p, hedge.Idempotent(func(ctx context.Context) (string, error) {
		switch n.Add(1) {
		case 1: // the first copy: lets both delays pass, copy 1 started in between
			fake.Advance(5 * time.Millisecond)
			waitFor(t, "copy 1 to start", func() bool { return n.Load() == 2 })
			fake.Advance(5 * time.Millisecond)
		case 3: // copy 2
			return "copy 2", nil
		}
		<-ctx.Done()
		return "", ctx.Err()
	}))
	if v != "copy 2" || err != nil {
		t.Fatalf("Do = %q, %v", v, err)
	}
	e.expect(t, "hedge 1", "hedge 2", "win 2")
	if m := p.Metrics(); m.Hedges != 2 || m.HedgeWins != 1 {
		t.Fatalf("metrics %+v", m)
	}
}

// TestHooksWhenCopiesFailFast: when every copy so far failed, the next is
// sent at once, from the caller's goroutine, and reported the same; a
// call that fails reports no winner.
func TestHooksWhenCopiesFailFast(t *testing.T) {
	leaktest.Check(t)
	var e events
	p := e.hook(&hedge.Policy{Delay: time.Hour, Clock: newFake()})
	var n atomic.Int64
	v, err := hedge.Do(context.Background(), p, hedge.Idempotent(func(context.Context) (int, error) {
		if n.Add(1) == 1 {
			return 0, &retry.StatusError{Code: 503}
		}
		return 1, nil
	}))
	if v != 1 || err != nil {
		t.Fatalf("Do = %v, %v", v, err)
	}
	e.expect(t, "hedge 1", "win 1")

	e.list = nil
	unavailable := &retry.StatusError{Code: 503}
	_, err = hedge.Do(context.Background(), p, hedge.Idempotent(func(context.Context) (int, error) { return 0, unavailable }))
	if !errors.Is(err, unavailable) {
		t.Fatalf("err %v", err)
	}
	e.expect(t, "hedge 1")
}

// TestNoOnHedgeForADeniedCopy: a copy the budget refuses is not sent, so
// not reported; the call, cancelled, has no winner.
func TestNoOnHedgeForADeniedCopy(t *testing.T) {
	leaktest.Check(t)
	fake := newFake()
	var e events
	p := e.hook(&hedge.Policy{Delay: time.Millisecond, Clock: fake, Budget: &budget.Ratio{Ratio: 0.1, MinPerSecond: -1, Clock: fake}})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	_, err := hedge.Do(ctx, p, hedge.Idempotent(func(ctx context.Context) (string, error) {
		fake.Advance(time.Millisecond) // the copy is due, and refused
		cancel()
		return "", ctx.Err()
	}))
	if !errors.Is(err, context.Canceled) || p.Metrics().BudgetDenials != 1 {
		t.Fatalf("err %v metrics %+v", err, p.Metrics())
	}
	e.expect(t)
}

// TestTransportHooks: hedge.Transport goes through the same hooks.
func TestTransportHooks(t *testing.T) {
	leaktest.Check(t)
	fake := newFake()
	srv, _, _ := slowFirstServer(t, fake, 5*time.Millisecond)
	var e events
	p := e.hook(&hedge.Policy{Delay: 5 * time.Millisecond, Clock: fake})
	client := &http.Client{Transport: &hedge.Transport{Base: srv.Client().Transport, Policy: p}}
	defer client.CloseIdleConnections()
	resp, err := client.Get(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	e.expect(t, "hedge 1", "win 1")
}

// TestHooksAgreeWithMetricsUnderConcurrency: many calls at once, on every
// scheduler shard, call the hooks concurrently; they count what Metrics
// counts (run with -race).
func TestHooksAgreeWithMetricsUnderConcurrency(t *testing.T) {
	leaktest.Check(t)
	fake := newFake()
	const calls = 200
	var hedges, wins, extraWins atomic.Int64
	p := &hedge.Policy{
		Delay: 2 * time.Millisecond, Clock: fake, Budget: &budget.Ratio{Ratio: 1, MinPerSecond: -1, Clock: fake},
		OnHedge: func(int) { hedges.Add(1) },
		OnWin: func(copy int) {
			wins.Add(1)
			if copy > 0 {
				extraWins.Add(1)
			}
		},
	}
	var started atomic.Int64
	var wg sync.WaitGroup
	for i := range calls {
		wg.Go(func() {
			var n atomic.Int64
			hedge.Do(context.Background(), p, hedge.Idempotent(func(ctx context.Context) (int, error) {
				if n.Add(1) == 1 && i%2 == 0 { // half the calls hang until hedged
					started.Add(1)
					<-ctx.Done()
					return 0, ctx.Err()
				}
				return 1, nil
			}))
		})
	}
	waitFor(t, "the hanging first copies to start", func() bool { return started.Load() == calls/2 })
	fake.Advance(2 * time.Millisecond)
	wg.Wait()
	m := p.Metrics()
	if hedges.Load() != int64(m.Hedges) || extraWins.Load() != int64(m.HedgeWins) || wins.Load() != calls || m.HedgeWins != calls/2 {
		t.Fatalf("hooks: %d hedges, %d wins (%d by extra copies); metrics %+v", hedges.Load(), wins.Load(), extraWins.Load(), m)
	}
}

// TestHooksCostNoAllocation: set, the hooks add no allocation to the
// common call (unset, TestPrimaryPathAllocatesOnlyTheRace covers it).
func TestHooksCostNoAllocation(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector allocates")
	}
	var wins atomic.Int64
	p := &hedge.Policy{Delay: time.Hour, OnHedge: func(int) {}, OnWin: func(int) { wins.Add(1) }}
	hedge.Do(context.Background(), p, answerAtOnce)
	if n := testing.AllocsPerRun(1000, func() { hedge.Do(context.Background(), p, answerAtOnce) }); n > 1 {
		t.Errorf("%v allocations a call with hooks; want 1, the race", n)
	}
	if wins.Load() < 1000 {
		t.Fatalf("OnWin called %d times", wins.Load())
	}
}
