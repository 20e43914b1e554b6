package breaker

import (
	"math/rand/v2"
	"sync"
	"testing"

	"github.com/resilvet/resilvet/runtime/internal/leaktest"
)

// TestCountWindowTotalsUnderConcurrency checks the invariant the lock-free
// closed path relies on: whatever the interleaving, including the skipped
// writes, the running totals equal a recount of the ring.
func TestCountWindowTotalsUnderConcurrency(t *testing.T) {
	leaktest.Check(t)
	for _, failEvery := range []int{0, 2, 7, 100} {
		w := newCountWindow(50)
		var wg sync.WaitGroup
		for g := range 8 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				r := rand.New(rand.NewPCG(uint64(g), uint64(failEvery)))
				for range 20000 {
					w.record(failEvery > 0 && r.IntN(failEvery) == 0, false)
				}
			}()
		}
		wg.Wait()
		if err := w.check(); err != nil {
			t.Errorf("failEvery %d: %v", failEvery, err)
		}
		filled := w.filled.Load()
		if filled != 50 {
			t.Errorf("failEvery %d: %d slots filled after 160000 outcomes; want 50", failEvery, filled)
		}
	}
}

// TestCountWindowSuccessOnFullCleanWindowWritesNothing pins the fast path:
// a success on a full window without failures leaves the cursor alone.
func TestCountWindowSuccessOnFullCleanWindowWritesNothing(t *testing.T) {
	leaktest.Check(t)
	w := newCountWindow(4)
	for range 4 {
		w.record(false, false)
	}
	cursor := w.next.Load()
	if _, _, judge := w.record(false, false); judge {
		t.Error("a success on a full clean window asked for a judgement")
	}
	if w.next.Load() != cursor {
		t.Errorf("cursor moved from %d to %d", cursor, w.next.Load())
	}
	if _, _, judge := w.record(true, false); !judge || w.failed.Load() != 1 {
		t.Errorf("a failure: judge %v, failed %d; want true, 1", judge, w.failed.Load())
	}
}
