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
// breaker's mutex (each slot is swapped atomically and the totals follow),
// which lets the closed state record outcomes lock-free.
type countWindow struct {
	ring   []atomic.Uint32 // 0 empty, 1 success, 2 failure; bit 2 set: slow
	next   atomic.Uint64
	filled atomic.Int64
	failed atomic.Int64
	slowN  atomic.Int64
}

func newCountWindow(n int) *countWindow { return &countWindow{ring: make([]atomic.Uint32, n)} }

const (
	cwSuccess = 1
	cwFailure = 2
	cwSlow    = 4
)

func (w *countWindow) add(_ time.Time, failed, slow bool) {
	w.record(failed, slow)
}

// record adds an outcome and returns the window's calls and failures.
func (w *countWindow) record(failed, slow bool) (calls, failures int64) {
	v := uint32(cwSuccess)
	if failed {
		v = cwFailure
	}
	if slow {
		v |= cwSlow
	}
	i := w.next.Add(1) - 1
	old := w.ring[i%uint64(len(w.ring))].Swap(v)
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
	return calls, failures
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
