package breaker

import (
	"fmt"
	"sync/atomic"
	"time"

	"github.com/resilvet/resilvet/runtime/internal/slots"
)

// window keeps the recent outcomes of one closed period; the next one
// gets a new window. Implementations are not synchronised, the breaker's
// mutex guards them, except as countWindow says.
type window interface {
	add(now time.Time, failed, slow bool)
	rates(now time.Time) (calls int, failureRate, slowRate float64)
}

// countWindow is a ring of the last n outcomes with running totals, so
// rates are exact and O(1). It is safe for concurrent use without the
// breaker's mutex (each slot is swapped atomically and the totals follow
// the swaps), which lets the closed state record outcomes lock-free.
//
// The layout is for two cores hammering one breaker: the ring header is
// read-only after New, the slot cursor is the one word every call writes,
// and the totals change only when a slot changes value, so each lives on a
// cache line of its own. In the steady state (successes replacing
// successes) a call writes only the cursor.
type countWindow struct {
	ring   []atomic.Uint32 // 0 empty, 1 success, 2 failure; bit 2 set: slow
	size   uint64
	_      [cacheLine - 32]byte
	next   atomic.Uint64
	_      [cacheLine - 8]byte
	filled atomic.Int64
	failed atomic.Int64
	slowN  atomic.Int64
	_      [cacheLine - 24]byte
}

// cacheLine is the false-sharing unit on the CPUs Go services run on.
const cacheLine = 64

func newCountWindow(n int) *countWindow {
	return &countWindow{ring: make([]atomic.Uint32, n), size: uint64(n)}
}

const (
	cwSuccess = 1
	cwFailure = 2
	cwSlow    = 4
)

func (w *countWindow) add(_ time.Time, failed, slow bool) {
	w.record(failed, slow)
}

// record adds an outcome. It returns judge = true, with the window's calls
// and failures after it, when the outcome can leave the failure rate at a
// threshold: a failure (one that changes no slot included) or a success
// that filled an empty slot (MinCalls may now be reached).
func (w *countWindow) record(failed, slow bool) (calls, failures int64, judge bool) {
	v := uint32(cwSuccess)
	if failed {
		v = cwFailure
	}
	if slow {
		v |= cwSlow
	}
	// A window full of plain successes is the same window after one more
	// success, whichever slot the cursor points at: every rotation of a
	// ring of equal values is equal. So the common case writes nothing and
	// the cache lines stay shared between cores.
	if v == cwSuccess && w.failed.Load() == 0 && w.slowN.Load() == 0 && w.filled.Load() == int64(w.size) {
		return 0, 0, false
	}
	slot := &w.ring[(w.next.Add(1)-1)%w.size]
	// Skipping an equal write keeps the slot's cache line shared; the
	// totals stay the sum of the slots either way. A failure still asks
	// for a judgement: concurrent outcomes may have left the window above
	// the rate with none of them seeing it, and then only failures that
	// change nothing may follow.
	if slot.Load() == v {
		if failed {
			return w.filled.Load(), w.failed.Load(), true
		}
		return 0, 0, false
	}
	old := slot.Swap(v)
	if old == 0 {
		w.filled.Add(1)
	}
	df := int64(v&cwFailure)/cwFailure - int64(old&cwFailure)/cwFailure
	if df != 0 {
		w.failed.Add(df)
	}
	if ds := int64(v&cwSlow)/cwSlow - int64(old&cwSlow)/cwSlow; ds != 0 {
		w.slowN.Add(ds)
	}
	// The totals as they are after this outcome's updates, not as those
	// updates returned them: of concurrent outcomes, the one whose update
	// lands last then sees all of them, and a window they leave at the
	// rate is judged.
	return w.filled.Load(), w.failed.Load(), failed || old == 0
}

func (w *countWindow) rates(time.Time) (int, float64, float64) {
	n := w.filled.Load()
	if n == 0 {
		return 0, 0, 0
	}
	return int(n), float64(w.failed.Load()) / float64(n), float64(w.slowN.Load()) / float64(n)
}

// check is the invariant the lock-free closed path relies on, for tests:
// with no call in flight, the running totals equal a recount of the
// slots.
func (w *countWindow) check() error {
	var filled, failed, slowN int64
	for i := range w.ring {
		v := w.ring[i].Load()
		if v != 0 {
			filled++
		}
		if v&cwFailure != 0 {
			failed++
		}
		if v&cwSlow != 0 {
			slowN++
		}
	}
	if filled != w.filled.Load() || failed != w.failed.Load() || slowN != w.slowN.Load() {
		return fmt.Errorf("count window totals %d calls, %d failed, %d slow; its slots hold %d, %d, %d",
			w.filled.Load(), w.failed.Load(), w.slowN.Load(), filled, failed, slowN)
	}
	return nil
}

// timeWindow counts outcomes in the runtime's sliding window, ten slots
// spanning its duration.
type timeWindow struct {
	base   time.Time // when the window began: epochs count from it
	width  time.Duration
	counts slots.Ring[outcomes]
}

type outcomes struct{ calls, failed, slowN int }

func newTimeWindow(d time.Duration, now time.Time) *timeWindow {
	return &timeWindow{base: now, width: d / slots.N}
}

// epoch numbers now's slot. It counts from the window's start, not from
// 1970 with UnixNano, which is negative before 1970 (a zero fake clock
// reads year 1), and which follows the wall clock where Sub uses the
// monotonic one; a clock set back before the start still counts in whole
// slots (slots.Epoch).
func (w *timeWindow) epoch(now time.Time) int64 { return slots.Epoch(now.Sub(w.base), w.width) }

func (w *timeWindow) add(now time.Time, failed, slow bool) {
	o := w.counts.At(w.epoch(now))
	o.calls++
	if failed {
		o.failed++
	}
	if slow {
		o.slowN++
	}
}

func (w *timeWindow) rates(now time.Time) (int, float64, float64) {
	calls, failed, slowN := 0, 0, 0
	w.counts.Sum(w.epoch(now), func(o *outcomes) {
		calls += o.calls
		failed += o.failed
		slowN += o.slowN
	})
	if calls == 0 {
		return 0, 0, 0
	}
	return calls, float64(failed) / float64(calls), float64(slowN) / float64(calls)
}
