package sim_test

import (
	"testing"
	"time"

	"github.com/resilvet/resilvet/runtime/budget"
	"github.com/resilvet/resilvet/runtime/internal/sim"
	"github.com/resilvet/resilvet/runtime/retry"
)

func threeLayers(allowNested bool) []retry.Policy {
	p := retry.Policy{MaxAttempts: 3, AllowNested: allowNested}
	return []retry.Policy{p, p, p}
}

// TestStorm checks the promises the retry storm puts to the test, on the
// real retry package: without retries the server recovers at the offered
// load; three layers that multiply (3×3×3) never recover; the runtime's
// nesting rule keeps three layers to three attempts a request; a budget
// bounds the extra load by its ratio and floor, and the server recovers.
func TestStorm(t *testing.T) {
	none := sim.Storm(sim.StormSetup{Layers: []retry.Policy{{MaxAttempts: 1}}})
	t.Logf("no retries:         %+v", none)
	if none.Recovered < 0 || none.LoadAfter > 1.01 || none.Attempts != 1 {
		t.Errorf("no retries: %+v; want recovery at the offered load, one attempt a request", none)
	}

	// 27× the load is 27× the simulated events: 100 s (the outage and
	// the minute after) tell the story.
	stacked := sim.Storm(sim.StormSetup{Layers: threeLayers(true), Horizon: 100 * time.Second})
	t.Logf("3×3×3, nesting on:  %+v", stacked)
	if stacked.Recovered >= 0 || stacked.LoadAfter < 20 || stacked.Wasted < 0.99 {
		t.Errorf("three multiplying layers: %+v; want no recovery at ~27× load, all work wasted", stacked)
	}

	rule := sim.Storm(sim.StormSetup{Layers: threeLayers(false), Horizon: 100 * time.Second})
	t.Logf("3 layers, the rule: %+v", rule)
	if rule.Attempts > 3 || rule.PeakLoad > 3.2 {
		t.Errorf("three layers under the nesting rule: %+v; want at most 3 attempts a request", rule)
	}

	zero := sim.Storm(sim.StormSetup{Layers: threeLayers(true), Budget: &budget.Ratio{}})
	t.Logf("Ratio{}:            %+v", zero)
	// 10% of 70 req/s plus the floor of 10 extra attempts a second.
	if zero.Recovered < 0 || zero.LoadAfter > 1+0.1+10.0/70+0.01 {
		t.Errorf("zero-value Ratio: %+v; want recovery, load within 10%% + 10/s", zero)
	}

	tuned := sim.Storm(sim.StormSetup{Layers: threeLayers(true), Budget: &budget.Ratio{Ratio: 0.1, MinPerSecond: -1}})
	t.Logf("10%%, no floor:      %+v", tuned)
	if tuned.Recovered < 0 || tuned.LoadAfter > 1.1+0.01 {
		t.Errorf("10%% budget without floor: %+v; want recovery, load within 1.1×", tuned)
	}
	if tuned.Recovered > zero.Recovered {
		t.Errorf("the tighter budget recovered later (%v) than the zero value's (%v)", tuned.Recovered, zero.Recovered)
	}
}
