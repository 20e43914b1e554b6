package breaker_test

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"github.com/resilvet/resilvet/runtime/breaker"
)

// readCounter is a clock that counts its readings.
type readCounter struct{ reads atomic.Int64 }

func (c *readCounter) Now() time.Time {
	c.reads.Add(1)
	return time.Unix(1e9, 0)
}

// TestClosedPathCost: the lock-free closed path allocates nothing and
// reads no clock without OnOutcome, whatever other hooks are set, also
// with failures in the window; with OnOutcome it reads the clock twice a
// call, to time it, and still allocates nothing.
func TestClosedPathCost(t *testing.T) {
	ctx := context.Background()
	i := 0
	oneInFiveFails := func(context.Context) error {
		i++
		if i%5 == 0 {
			return errDown // 20%: the circuit stays closed
		}
		return nil
	}
	for _, tc := range []struct {
		name  string
		s     breaker.Settings
		reads int64 // a call
	}{
		{"no hooks", breaker.Settings{}, 0},
		{"OnStateChange and OnReject", breaker.Settings{
			OnStateChange: func(string, breaker.State, breaker.State) {},
			OnReject:      func(string, *breaker.OpenError) {},
		}, 0},
		{"OnOutcome", breaker.Settings{OnOutcome: func(string, breaker.Outcome, time.Duration) {}}, 2},
	} {
		clk := &readCounter{}
		tc.s.Clock = clk
		b := breaker.New(tc.s)
		before := clk.reads.Load()
		const calls = 1000
		for range calls {
			b.Do(ctx, oneInFiveFails)
		}
		if got := clk.reads.Load() - before; got != tc.reads*calls {
			t.Errorf("%s: %d clock reads in %d calls; want %d a call", tc.name, got, calls, tc.reads)
		}
		if n := testing.AllocsPerRun(1000, func() { b.Do(ctx, oneInFiveFails) }); n != 0 {
			t.Errorf("%s: %v allocations a call; want none", tc.name, n)
		}
		if b.State() != breaker.Closed {
			t.Fatalf("%s: state %v; the test must stay on the closed path", tc.name, b.State())
		}
	}
}
