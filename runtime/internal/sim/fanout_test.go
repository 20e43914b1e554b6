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
