package sim_test

import (
	"testing"
	"time"

	"github.com/resilvet/resilvet/runtime/internal/sim"
)

// TestFanout reproduces the hedging example: hedging after the
// single-backend p95 (~15 ms) turns a 100-way p99 of about a second into
// tens of milliseconds for about 5% extra load.
func TestFanout(t *testing.T) {
	r := sim.Fanout()
	t.Logf("%+v", r)
	if r.SingleP95 < 13*time.Millisecond || r.SingleP95 > 16*time.Millisecond {
		t.Errorf("single-backend p95 %v; want about 15 ms", r.SingleP95)
	}
	if r.P99 < time.Second || r.P99 > 1250*time.Millisecond {
		t.Errorf("100-way p99 without hedging %v; want about 1.2 s", r.P99)
	}
	if r.HedgedP99 < 15*time.Millisecond || r.HedgedP99 > 50*time.Millisecond {
		t.Errorf("100-way p99 with hedging %v; want tens of ms (~36 ms in the notes)", r.HedgedP99)
	}
	if r.ExtraLoad < 0.04 || r.ExtraLoad > 0.06 {
		t.Errorf("extra load %.3f; want about 5%%", r.ExtraLoad)
	}
}
