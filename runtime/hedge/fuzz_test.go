package hedge_test

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
	"time"

	"github.com/resilvet/resilvet/runtime/hedge"
	"github.com/resilvet/resilvet/runtime/internal/leaktest"
	"github.com/resilvet/resilvet/runtime/retry"
)

var errFatal = errors.New("fatal: not found")

// FuzzDo runs Do over fuzzed plans (what each copy does and how long it
// takes) and checks what must hold whatever the timing: bounded copies,
// honest counters, a value only from a copy that succeeded, an error only
// from a copy or the caller's deadline, balanced limiter permits, and
// every copy returned in the end.
func FuzzDo(f *testing.F) {
	f.Add(uint8(2), uint8(0), []byte{0})
	f.Add(uint8(3), uint8(0), []byte{3, 0, 0})
	f.Add(uint8(3), uint8(1), []byte{1, 1, 0})
	f.Add(uint8(4), uint8(2), []byte{2 | 8, 0, 3})
	f.Add(uint8(2), uint8(3), []byte{3, 3})
	f.Add(uint8(0), uint8(0), []byte{1 | 4, 2, 0})
	f.Fuzz(func(t *testing.T, maxAttempts, delayMs uint8, plan []byte) {
		leaktest.Check(t)
		max := int(maxAttempts % 5)
		effMax := max
		if effMax == 0 {
			effMax = 2
		}
		lim := &countingLimiter{sem: make(chan struct{}, 8)}
		p := &hedge.Policy{MaxAttempts: max, Delay: time.Duration(delayMs%4+1) * time.Millisecond, Limiter: lim}
		var started, returned atomic.Int64
		succeeded := make([]atomic.Bool, 8)
		// A copy's plan byte: bits 0-1 what it does (0 succeed, 1 fail
		// transiently, 2 fail fatally, 3 hang until cancelled), bits 2-3
		// how many milliseconds it takes first.
		op := hedge.Idempotent(func(ctx context.Context) (int, error) {
			i := int(started.Add(1)) - 1
			defer returned.Add(1)
			var b byte
			if i < len(plan) {
				b = plan[i]
			}
			time.Sleep(time.Duration(b>>2&3) * time.Millisecond)
			switch b & 3 {
			case 0:
				succeeded[i].Store(true)
				return i + 1, nil
			case 1:
				return 0, &retry.StatusError{Code: 503}
			case 2:
				return 0, errFatal
			}
			<-ctx.Done()
			return 0, ctx.Err()
		})
		ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
		defer cancel()
		v, err := hedge.Do(ctx, p, op)
		for deadline := time.Now().Add(5 * time.Second); returned.Load() != started.Load(); {
			if time.Now().After(deadline) {
				t.Fatalf("%d copies started, %d returned", started.Load(), returned.Load())
			}
			time.Sleep(100 * time.Microsecond)
		}
		n := int(started.Load())
		m := p.Metrics()
		if n < 1 || n > effMax {
			t.Fatalf("%d copies for MaxAttempts %d", n, max)
		}
		// A copy launched after the race was decided does not run.
		if m.Calls != 1 || m.Hedges < uint64(n-1) || m.Hedges > uint64(effMax-1) || m.HedgeWins > 1 {
			t.Fatalf("%d copies, metrics %+v", n, m)
		}
		if err == nil {
			if v < 1 || v > n || !succeeded[v-1].Load() {
				t.Fatalf("value %d did not come from a copy that succeeded (%d copies)", v, n)
			}
			// Which copy started its operation first depends on timing,
			// so v says nothing about which copy won; a win by an extra
			// copy needs one.
			if m.HedgeWins > m.Hedges {
				t.Fatalf("HedgeWins %d > Hedges %d", m.HedgeWins, m.Hedges)
			}
		} else {
			var se *retry.StatusError
			if !errors.Is(err, errFatal) && !errors.As(err, &se) && !errors.Is(err, context.DeadlineExceeded) {
				t.Fatalf("error %v is neither a copy's nor the deadline's", err)
			}
			allSucceed := true
			for i := range n {
				if i < len(plan) && plan[i]&3 != 0 {
					allSucceed = false
				}
			}
			if allSucceed {
				t.Fatalf("every copy succeeds, yet err %v", err)
			}
		}
		// Permits go back just after the copies return, and a copy
		// launched as the race was decided may still be taking and
		// giving back its permit without running the operation.
		settled := func() bool { return lim.held.Load() == 0 && lim.acquired.Load() == lim.freed.Load() }
		for deadline := time.Now().Add(5 * time.Second); !settled() && time.Now().Before(deadline); {
			time.Sleep(100 * time.Microsecond)
		}
		if lim.held.Load() != 0 || lim.acquired.Load() != lim.freed.Load() {
			t.Fatalf("limiter: held %d, acquired %d, freed %d", lim.held.Load(), lim.acquired.Load(), lim.freed.Load())
		}
	})
}
