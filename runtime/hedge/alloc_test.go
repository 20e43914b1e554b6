package hedge_test

import (
	"context"
	"testing"
	"time"

	"github.com/resilvet/resilvet/runtime/hedge"
)

// TestPrimaryPathAllocatesOnlyTheRace: the common call, whose first copy
// answers before the delay, allocates one object (the race, the first
// copy's context embedded) whatever the caller's context: a cancellable
// one, as every real request has, must not cost a registration with it.
func TestPrimaryPathAllocatesOnlyTheRace(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector allocates")
	}
	cancellable, cancel := context.WithCancel(context.Background())
	defer cancel()
	deadline, cancel2 := context.WithTimeout(cancellable, time.Hour)
	defer cancel2()
	for _, tc := range []struct {
		name string
		ctx  context.Context
		p    *hedge.Policy
	}{
		{"background", context.Background(), &hedge.Policy{Delay: time.Hour}},
		{"cancellable", cancellable, &hedge.Policy{Delay: time.Hour}},
		{"deadline", deadline, &hedge.Policy{Delay: time.Hour}},
		{"adaptive delay", cancellable, &hedge.Policy{InitialDelay: time.Hour}},
	} {
		hedge.Do(tc.ctx, tc.p, answerAtOnce) // set the policy up
		if n := testing.AllocsPerRun(1000, func() { hedge.Do(tc.ctx, tc.p, answerAtOnce) }); n > 1 {
			t.Errorf("%s: %v allocations a call; want 1", tc.name, n)
		}
	}
	// A request's context is new: Do must not make its Done channel, which
	// a context.WithCancel makes on demand (2 allocations are WithCancel's).
	p := &hedge.Policy{Delay: time.Hour}
	if n := testing.AllocsPerRun(1000, func() {
		ctx, cancel := context.WithCancel(cancellable)
		hedge.Do(ctx, p, answerAtOnce)
		cancel()
	}); n > 3 {
		t.Errorf("a new cancellable context per call: %v allocations a call; want 3", n)
	}
}
