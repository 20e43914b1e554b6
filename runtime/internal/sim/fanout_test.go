package sim_test

import (
	"testing"
	"time"

	"github.com/resilvet/resilvet/runtime/internal/sim"
)

// TestFanout checks the hedging promise on the real hedge package: with
// the adaptive delay (the p95 of what the policy has seen), a 100-way
// fan-out whose backends are slow 1% of the time no longer waits for the
// slow ones at the p99, and the extra load covers the slow calls and
// stays within the default budget.
func TestFanout(t *testing.T) {
	r := sim.Fanout(300)
	t.Logf("%+v", r)
	// The backends answer in 5–15 ms 99% of the time: their p95 is near
	// 14.5 ms, which the histogram reports within its 19% resolution.
	if r.Delay < 12*time.Millisecond || r.Delay > 18*time.Millisecond {
		t.Errorf("adaptive delay %v; want the backends' p95, about 14.5 ms", r.Delay)
	}
	if r.P99 < time.Second {
		t.Errorf("p99 without hedging %v; a 100-way fan-out with 1%% slow calls waits for one at the p99", r.P99)
	}
	// A slow first copy is answered by a copy sent after the delay, which
	// is normal 99% of the time: the delay plus at most 15 ms, or a third
	// copy after twice the delay.
	if r.HedgedP99 > 3*r.Delay+15*time.Millisecond {
		t.Errorf("p99 with hedging %v; want at most three delays plus a normal answer", r.HedgedP99)
	}
	// Every slow call (1%) is hedged, and fast calls only when the learnt
	// delay falls below 15 ms (it reports the histogram bucket's upper
	// bound); the default budget allows 10% and a floor.
	if r.ExtraLoad < 0.01 || r.ExtraLoad > 0.1 {
		t.Errorf("extra load %.3f; want at least the 1%% slow calls, within the 10%% budget", r.ExtraLoad)
	}
}

// TestFanoutCorrelatedSlowness: when slowness is not independent of the
// copy, hedging helps less or not at all, and the budget still bounds
// what it costs. A slow replica that stays slow catches a third of the
// copies sent after the first (one replica in three), so the 100-way p99
// stays slow; a pause that stops every backend delays every copy alike.
func TestFanoutCorrelatedSlowness(t *testing.T) {
	independent := sim.FanoutWith(300, sim.Independent)
	replica := sim.FanoutWith(300, sim.SlowReplica)
	pause := sim.FanoutWith(300, sim.Pause)
	t.Logf("independent %+v", independent)
	t.Logf("slow replica %+v", replica)
	t.Logf("pause %+v", pause)
	if replica.P99 < time.Second || replica.HedgedP99 < 10*independent.HedgedP99 {
		t.Errorf("slow replica: p99 %v, hedged %v; want a slow p99 that hedging does not bring near the independent case's %v", replica.P99, replica.HedgedP99, independent.HedgedP99)
	}
	if pause.HedgedP99 < pause.P99-5*time.Millisecond {
		t.Errorf("pause: p99 %v, hedged %v; a pause that stops every copy cannot be hedged away", pause.P99, pause.HedgedP99)
	}
	for _, r := range []sim.FanoutResult{replica, pause} {
		if r.ExtraLoad > 0.1 {
			t.Errorf("extra load %.3f; want within the 10%% budget", r.ExtraLoad)
		}
	}
}
