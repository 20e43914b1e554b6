package breaker

import (
	"sync/atomic"
	"time"
)

// window keeps recent outcomes. Implementations are not synchronised; the
// breaker's mutex guards them.
type window interface {
	add(now time.Time, failed, slow bool)
	rates(now time.Time) (calls int, failureRate, slowRate float64)
	reset()
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
// and failures after it, when the outcome can have moved the failure rate
// up to a threshold: a failure that replaced a success or an empty slot,
// or a success that filled an empty slot (MinCalls may now be reached).
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
	// totals stay the sum of the slots either way.
	if slot.Load() == v {
		return 0, 0, false
	}
	old := slot.Swap(v)
	if old == 0 {
		calls = w.filled.Add(1)
	} else {
		calls = w.filled.Load()
	}
	df := int64(v&cwFailure)/cwFailure - int64(old&cwFailure)/cwFailure
	if df != 0 {
		failures = w.failed.Add(df)
	} else {
		failures = w.failed.Load()
	}
	if ds := int64(v&cwSlow)/cwSlow - int64(old&cwSlow)/cwSlow; ds != 0 {
		w.slowN.Add(ds)
	}
	return calls, failures, df > 0 || old == 0
}

func (w *countWindow) rates(time.Time) (int, float64, float64) {
	n := w.filled.Load()
	if n == 0 {
		return 0, 0, 0
	}
	return int(n), float64(w.failed.Load()) / float64(n), float64(w.slowN.Load()) / float64(n)
}

func (w *countWindow) reset() {
	for i := range w.ring {
		w.ring[i].Store(0)
	}
	w.next.Store(0)
	w.filled.Store(0)
	w.failed.Store(0)
	w.slowN.Store(0)
}

const timeBuckets = 10

// timeWindow counts outcomes in ten buckets spanning its duration.
type timeWindow struct {
	width   time.Duration
	buckets [timeBuckets]struct {
		epoch                int64
		calls, failed, slowN int
	}
}

func newTimeWindow(d time.Duration) *timeWindow {
	w := &timeWindow{width: d / timeBuckets}
	if w.width <= 0 {
		w.width = 1
	}
	return w
}

func (w *timeWindow) epoch(now time.Time) int64 { return now.UnixNano()/int64(w.width) + 1 }

func (w *timeWindow) add(now time.Time, failed, slow bool) {
	e := w.epoch(now)
	b := &w.buckets[e%timeBuckets]
	if b.epoch != e {
		b.epoch, b.calls, b.failed, b.slowN = e, 0, 0, 0
	}
	b.calls++
	if failed {
		b.failed++
	}
	if slow {
		b.slowN++
	}
}

func (w *timeWindow) rates(now time.Time) (int, float64, float64) {
	e := w.epoch(now)
	calls, failed, slowN := 0, 0, 0
	for i := range w.buckets {
		b := &w.buckets[i]
		if b.epoch > e-timeBuckets && b.epoch <= e {
			calls += b.calls
			failed += b.failed
			slowN += b.slowN
		}
	}
	if calls == 0 {
		return 0, 0, 0
	}
	return calls, float64(failed) / float64(calls), float64(slowN) / float64(calls)
}

func (w *timeWindow) reset() {
	w.buckets = [timeBuckets]struct {
		epoch                int64
		calls, failed, slowN int
	}{}
}
