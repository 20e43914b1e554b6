package breaker_test

import (
	"context"
	"math/rand/v2"
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/resilvet/resilvet/runtime/breaker"
	"github.com/resilvet/resilvet/runtime/internal/clock"
	"github.com/resilvet/resilvet/runtime/internal/leaktest"
)

// TestFlappingKeepsWindowConsistent changes the state while callers are on
// the lock-free closed path: eight goroutines fail often enough to open a
// small window, a 1 ns cooldown on a clock they advance sends it straight
// to half-open and back, and now and then one forces a transition. Between
// calls, whenever none is in flight, the window's totals must equal what
// its slots hold; at the end a run of sequential failures must open the
// circuit. Before transitions and window swaps were one atomic step, a
// window reset racing with callers of the new closed period left slots
// filled that the totals did not count, and once the totals fell below
// MinCalls with every slot filled the circuit stayed closed for good.
func TestFlappingKeepsWindowConsistent(t *testing.T) {
	leaktest.Check(t)
	const window, callers, calls, checks = 8, 8, 3000, 500
	for round := range 20 {
		fake := clock.NewFake(time.Unix(1e9, 0))
		b := breaker.New(breaker.Settings{WindowSize: window, MinCalls: 4, Cooldown: time.Nanosecond, CooldownJitter: -1, Probes: 2, Clock: fake})
		// Callers hold quiet for reading while a call is in flight; the
		// checker takes it for writing to see the window between calls.
		var quiet sync.RWMutex
		var wg sync.WaitGroup
		for g := range callers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				r := rand.New(rand.NewPCG(uint64(round), uint64(g)))
				for range calls {
					quiet.RLock()
					flap(b, fake, r)
					quiet.RUnlock()
				}
			}()
		}
		for range checks {
			quiet.Lock()
			err := breaker.CheckWindow(b)
			quiet.Unlock()
			if err != nil {
				t.Errorf("round %d, %v: %v", round, b.State(), err)
				break
			}
			runtime.Gosched()
		}
		wg.Wait()
		if err := breaker.CheckWindow(b); err != nil {
			t.Errorf("round %d, %v at the end: %v", round, b.State(), err)
		}
		// The clock stands still now: once open, the circuit stays open.
		for range window {
			call(b, errDown)
		}
		if s := b.State(); s != breaker.Open {
			t.Fatalf("round %d: %v after %d sequential failures; want open (%+v)", round, s, window, b.Metrics())
		}
	}
}

// flap makes a call of any kind on b, failing 60% of the time, after
// advancing the clock past the cooldown; one in thirty forces a
// transition instead.
func flap(b *breaker.Breaker, fake *clock.Fake, r *rand.Rand) {
	ctx := context.Background()
	fake.Advance(time.Nanosecond)
	var err error
	if r.IntN(10) < 6 {
		err = errDown
	}
	switch k := r.IntN(30); {
	case k == 0:
		breaker.Force(b, breaker.State(r.IntN(3)))
	case k < 5:
		if done, aerr := b.Allow(); aerr == nil {
			done.Report(ctx, err)
		}
	default:
		b.Do(ctx, func(context.Context) error { return err })
	}
}
