package breaker

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/resilvet/resilvet/runtime/internal/clock"
	"github.com/resilvet/resilvet/runtime/internal/leaktest"
)

// TestUnjudgedWindowOpensOnTheNextFailure: concurrent outcomes can leave
// the window above the failure rate with no caller having judged it (each
// saw the totals before the others' updates). The next failure must open
// the circuit, even one that lands on a slot already holding a failure
// and so changes nothing: otherwise a window full of failures stays
// closed for any number of them.
func TestUnjudgedWindowOpensOnTheNextFailure(t *testing.T) {
	leaktest.Check(t)
	b := New(Settings{WindowSize: 3, MinCalls: 3, FailureRate: 1, Clock: clock.NewFake(time.Unix(1e9, 0))})
	w := b.win.(*countWindow)
	for range 3 {
		w.record(true, false) // recorded, their judgements lost
	}
	fail := errors.New("down")
	for range 10 {
		b.Do(context.Background(), func(context.Context) error { return fail })
	}
	if s := b.State(); s != Open {
		t.Fatalf("state %v after 10 failures on a window of 3 failures; want open", s)
	}
}

// TestConcurrentFailuresFillingTheWindowOpen: n callers each fail once,
// at once, into an empty window of n with MinCalls n and FailureRate 1.
// Whatever the interleaving, the caller whose update lands last must see
// all n and open the circuit.
func TestConcurrentFailuresFillingTheWindowOpen(t *testing.T) {
	leaktest.Check(t)
	const n = 4
	fail := errors.New("down")
	fake := clock.NewFake(time.Unix(1e9, 0))
	for round := range 3000 {
		b := New(Settings{WindowSize: n, MinCalls: n, FailureRate: 1, Clock: fake})
		var wg sync.WaitGroup
		start := make(chan struct{})
		for range n {
			wg.Go(func() {
				<-start
				b.Do(context.Background(), func(context.Context) error { return fail })
			})
		}
		close(start)
		wg.Wait()
		if s := b.State(); s != Open {
			t.Fatalf("round %d: %v after %d concurrent failures filled the window; want open (%+v)", round, s, n, b.Metrics())
		}
	}
}
