package breaker

import "time"

// window keeps recent outcomes. Implementations are not synchronised; the
// breaker's mutex guards them.
type window interface {
	add(now time.Time, failed, slow bool)
	rates(now time.Time) (calls int, failureRate, slowRate float64)
	reset()
}

// countWindow is a ring of the last n outcomes with running totals, so
// rates are exact and O(1).
type countWindow struct {
	ring          []uint8 // bit 0: failed, bit 1: slow
	next, filled  int
	failed, slowN int
}

func newCountWindow(n int) *countWindow { return &countWindow{ring: make([]uint8, n)} }

func (w *countWindow) add(_ time.Time, failed, slow bool) {
	if w.filled == len(w.ring) {
		old := w.ring[w.next]
		w.failed -= int(old & 1)
		w.slowN -= int(old >> 1)
	} else {
		w.filled++
	}
	var v uint8
	if failed {
		v |= 1
		w.failed++
	}
	if slow {
		v |= 2
		w.slowN++
	}
	w.ring[w.next] = v
	w.next = (w.next + 1) % len(w.ring)
}

func (w *countWindow) rates(time.Time) (int, float64, float64) {
	if w.filled == 0 {
		return 0, 0, 0
	}
	n := float64(w.filled)
	return w.filled, float64(w.failed) / n, float64(w.slowN) / n
}

func (w *countWindow) reset() {
	clear(w.ring)
	w.next, w.filled, w.failed, w.slowN = 0, 0, 0, 0
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
