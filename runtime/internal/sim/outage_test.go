package sim_test

import (
	"testing"

	"github.com/resilvet/resilvet/runtime/internal/sim"
)

// TestOutage reproduces the breaker example of the design notes: without a
// breaker 1,200 dependency calls and ~417 s of waiting; with it the circuit
// opens ~1.45 s into the outage, closes ~4.45 s after recovery, ~749 calls
// and ~53 s of waiting, about 87% less. Tolerance: ±5% on counts and
// waiting, ±0.5 s on the transition times.
func TestOutage(t *testing.T) {
	without, with := sim.Outage(false), sim.Outage(true)
	t.Logf("without: %+v", without)
	t.Logf("with:    %+v", with)
	if without.Requests != 1200 || without.DependencyCalls != 1200 {
		t.Errorf("without breaker: %d requests, %d calls; want 1200, 1200", without.Requests, without.DependencyCalls)
	}
	near := func(name string, got, want, tol float64) {
		if got < want-tol || got > want+tol {
			t.Errorf("%s = %.2f; want %.2f ± %.2f", name, got, want, tol)
		}
	}
	near("waiting without breaker (s)", without.Waiting.Seconds(), 417, 417*0.05)
	near("dependency calls with breaker", float64(with.DependencyCalls), 749, 749*0.05)
	near("waiting with breaker (s)", with.Waiting.Seconds(), 53, 53*0.05)
	near("opened after (s)", with.OpenedAfter.Seconds(), 1.45, 0.5)
	near("closed after recovery (s)", with.ClosedAfter.Seconds(), 4.45, 0.5)
	saved := 1 - with.Waiting.Seconds()/without.Waiting.Seconds()
	near("waiting saved", saved, 0.87, 0.03)
}
