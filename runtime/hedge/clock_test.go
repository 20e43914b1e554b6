package hedge_test

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"github.com/resilvet/resilvet/runtime/hedge"
	"github.com/resilvet/resilvet/runtime/internal/leaktest"
)

// TestHedgeDelayRunsOnThePolicyClock: the delay before an extra copy is
// timed on Policy.Clock, so a test moves a fake clock past it and the
// hedge goes out, whatever the wall clock says.
func TestHedgeDelayRunsOnThePolicyClock(t *testing.T) {
	leaktest.Check(t)
	fake := newFake()
	p := &hedge.Policy{Delay: time.Hour, Clock: fake}
	var n atomic.Int64
	v, err := hedge.Do(context.Background(), p, hedge.Idempotent(func(ctx context.Context) (string, error) {
		if n.Add(1) > 1 {
			return "hedge", nil
		}
		fake.Advance(time.Hour)
		select {
		case <-ctx.Done():
			return "", ctx.Err()
		case <-time.After(5 * time.Second):
			return "first", nil // no hedge came
		}
	}))
	if v != "hedge" || err != nil || p.Metrics().Hedges != 1 {
		t.Fatalf("v %q err %v metrics %+v; an hour on the policy's clock must send the hedge", v, err, p.Metrics())
	}
}

// TestAdaptiveDelayTimedOnThePolicyClock: the latencies behind the
// adaptive delay and the delay itself are both the policy clock's.
func TestAdaptiveDelayTimedOnThePolicyClock(t *testing.T) {
	leaktest.Check(t)
	fake := newFake()
	p := &hedge.Policy{Clock: fake, InitialDelay: time.Hour}
	for range 20 { // 20 calls of 100 ms, unhedged: the p95 is about 100 ms
		hedge.Do(context.Background(), p, hedge.Idempotent(func(context.Context) (int, error) {
			fake.Advance(100 * time.Millisecond)
			return 0, nil
		}))
	}
	d := p.CurrentDelay()
	if d < 100*time.Millisecond || d > 125*time.Millisecond {
		t.Fatalf("adaptive delay %v; want just above 100 ms", d)
	}
	var n atomic.Int64
	v, _ := hedge.Do(context.Background(), p, hedge.Idempotent(func(ctx context.Context) (string, error) {
		if n.Add(1) > 1 {
			return "hedge", nil
		}
		fake.Advance(d - time.Millisecond)
		if p.Metrics().Hedges != 0 {
			return "", nil // reported below
		}
		fake.Advance(time.Millisecond)
		<-ctx.Done()
		return "", ctx.Err()
	}))
	if v != "hedge" || p.Metrics().Hedges != 1 {
		t.Fatalf("v %q metrics %+v; the hedge must go out at the delay, not before", v, p.Metrics())
	}
}
