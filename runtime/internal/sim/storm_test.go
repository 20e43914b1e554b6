package sim_test

import (
	"testing"
	"time"

	"github.com/resilvet/resilvet/runtime/budget"
	"github.com/resilvet/resilvet/runtime/internal/clock"
	"github.com/resilvet/resilvet/runtime/internal/sim"
)

// TestStorm reproduces the retry-storm model of the design notes
// (capacity 100 req/s, 70 req/s offered, 1 s timeout, 30 s outage): no
// retries recovers ~67 s after the outage; 27 attempts (three layers of
// three) never recovers, at ~27× load with all work wasted; the same with
// a 10% retry budget recovers in ~95–100 s at ~1.1×. Tolerance: ±5 s on
// recovery, ±0.05 on load multiples.
func TestStorm(t *testing.T) {
	none := sim.Storm(1, nil, clock.NewFake(time.Now()))
	stacked := sim.Storm(27, nil, clock.NewFake(time.Now()))
	fake := clock.NewFake(time.Now())
	budgeted := sim.Storm(27, &budget.Ratio{Ratio: 0.1, MinPerSecond: -1, Clock: fake}, fake)
	t.Logf("no retries:            %+v", none)
	t.Logf("27 attempts:           %+v", stacked)
	t.Logf("27 attempts, 10%% budget: %+v", budgeted)
	near := func(name string, got, want, tol float64) {
		t.Helper()
		if got < want-tol || got > want+tol {
			t.Errorf("%s = %.2f; want %.2f ± %.2f", name, got, want, tol)
		}
	}
	near("no retries: recovery (s)", none.Recovered.Seconds(), 67, 5)
	near("no retries: load after", none.LoadAfter, 1, 0.05)
	if stacked.Recovered != -1 {
		t.Errorf("27 attempts recovered after %v; the model says never (metastable)", stacked.Recovered)
	}
	near("27 attempts: load after", stacked.LoadAfter, 27, 0.05)
	near("27 attempts: wasted work", stacked.Wasted, 1, 0.01)
	near("10% budget: recovery (s)", budgeted.Recovered.Seconds(), 97.5, 5)
	near("10% budget: load after", budgeted.LoadAfter, 1.1, 0.05)
}
