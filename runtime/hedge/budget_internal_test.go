package hedge

import (
	"testing"
	"time"

	"github.com/resilvet/resilvet/runtime/internal/clock"
	"github.com/resilvet/resilvet/runtime/internal/leaktest"
)

// TestOwnBudgetSlidesWithTheClock: the default budget grants 10% of the
// calls of the last 10 s plus 10, and forgets calls and grants older than
// its window.
func TestOwnBudgetSlidesWithTheClock(t *testing.T) {
	leaktest.Check(t)
	fake := clock.NewFake(time.Unix(1e9, 0))
	var s scheduler
	s.init(fake)
	b := ownBudget{sched: &s}
	arm := func(n int, call arming) {
		for range n {
			r := newFakeRacer()
			r.done.Store(true)
			s.arm(r, time.Hour, call)
		}
	}
	grants := func() (n int) {
		for b.withdraw() {
			n++
		}
		return n
	}
	arm(100, newCallDeposit)
	arm(100, newCall) // counted for Metrics, deposited elsewhere
	if got := grants(); got != 20 {
		t.Fatalf("%d extra copies granted for 100 deposits; want 10%% + 10 = 20", got)
	}
	fake.Advance(5 * time.Second)
	arm(50, newCallDeposit)
	if got := grants(); got != 5 {
		t.Fatalf("%d granted for 50 more deposits in the window; want 5", got)
	}
	fake.Advance(6 * time.Second) // the first 100 deposits and 20 grants are out
	if got := grants(); got != 10 {
		t.Fatalf("%d granted; want 10 (15 allowed for the last 10 s, 5 granted)", got)
	}
	fake.Advance(5 * time.Second) // the 50 deposits and 5 grants are out, not the last 10
	if got := grants(); got != 0 {
		t.Fatalf("%d granted; want 0 (the floor of 10 is spent)", got)
	}
	fake.Advance(10 * time.Second) // all out
	if got := grants(); got != 10 {
		t.Fatalf("%d granted with nothing in the window; want the floor, 10", got)
	}
	if got := s.calls(); got != 250 {
		t.Fatalf("calls %d; want 250", got)
	}
}
