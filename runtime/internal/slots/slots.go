// Package slots is the runtime's one sliding window: counts kept in ten
// slots, each for one numbered slice of time (an epoch) of a window's
// width, so that the sum over the live slots is the count of the last
// window. budget.Ratio (deposits and withdrawals), the hedge's own budget
// (calls and extra copies) and the breaker's time window (calls,
// failures, slow calls) keep their counts in it.
//
// A Ring is not safe for concurrent use: its owner holds a lock around
// it, as each of them does for the decisions the counts feed.
package slots

import "time"

// N is the number of slots in a window.
const N = 10

// Ring holds counts of type T (a struct of counters, or one counter) in
// N slots.
type Ring[T any] struct {
	s [N]struct {
		epoch int64
		v     T
	}
}

// At returns the counts of epoch's slot, cleared first if the slot still
// held an older epoch's.
func (r *Ring[T]) At(epoch int64) *T {
	s := &r.s[index(epoch)]
	if s.epoch != epoch {
		var zero T
		s.epoch, s.v = epoch, zero
	}
	return &s.v
}

// Sum calls f with the counts of each slot of the window that ends with
// epoch's slot: the N epochs up to and including it.
func (r *Ring[T]) Sum(epoch int64, f func(*T)) {
	for i := range r.s {
		if s := &r.s[i]; s.epoch > epoch-N && s.epoch <= epoch {
			f(&s.v)
		}
	}
}

// Epoch numbers the slot of width holding elapsed, the time since the
// window's origin: 1 for [0, width), and on, rounding down, so a clock
// set back before the origin still counts in whole slots. A slot never
// used holds epoch 0 and zero counts, which sum to nothing.
func Epoch(elapsed, width time.Duration) int64 {
	if width <= 0 {
		width = 1
	}
	e := int64(elapsed / width)
	if elapsed < 0 && elapsed%width != 0 {
		e--
	}
	return e + 1
}

func index(epoch int64) int { return int((epoch%N + N) % N) }
