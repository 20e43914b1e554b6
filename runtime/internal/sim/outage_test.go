package sim_test

import (
	"testing"
	"time"

	"github.com/resilvet/resilvet/runtime/internal/sim"
)

// TestOutage checks the breaker's promises in the design notes' outage,
// on the real breaker: without it every request waits on the hung
// dependency; with it the circuit opens once MinCalls calls have failed
// (the 10th failing call of the outage returns after its 1 s timeout, so
// within 1 s + 10 × 50 ms), closes within a cooldown and one probe round
// of the recovery, and the callers' waiting drops by most of the hang.
func TestOutage(t *testing.T) {
	without, with := sim.Outage(false), sim.Outage(true)
	t.Logf("without: %+v", without)
	t.Logf("with:    %+v", with)
	if without.Requests != 1200 || without.DependencyCalls != 1200 {
		t.Errorf("without breaker: %d requests, %d calls; want 1200, 1200", without.Requests, without.DependencyCalls)
	}
	if with.OpenedAfter <= 0 || with.OpenedAfter > time.Second+10*50*time.Millisecond {
		t.Errorf("opened %v into the outage; want within 1.5 s (the timeout plus MinCalls arrivals)", with.OpenedAfter)
	}
	// Cooldown 5 s, then 3 probes arriving 50 ms apart, answering in 20 ms.
	if with.ClosedAfter <= 0 || with.ClosedAfter > 5*time.Second+3*50*time.Millisecond+20*time.Millisecond {
		t.Errorf("closed %v after recovery; want within a cooldown and a probe round", with.ClosedAfter)
	}
	// 400 requests arrive during the 20 s hang; the breaker lets through
	// those before it opens and a probe round per cooldown.
	if saved := 1 - with.Waiting.Seconds()/without.Waiting.Seconds(); saved < 0.8 {
		t.Errorf("the breaker saved %.0f%% of the waiting; want most of the hang (80%% or more)", 100*saved)
	}
	if with.DependencyCalls >= without.DependencyCalls {
		t.Errorf("%d dependency calls with the breaker, %d without", with.DependencyCalls, without.DependencyCalls)
	}
}
