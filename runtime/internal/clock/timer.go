package clock

import "time"

// Timer is a function call waiting for its time, made by a TimerClock's
// AfterFunc. *time.Timer is one.
type Timer interface {
	// Stop cancels the call and reports whether it was still pending.
	Stop() bool
	// Reset makes the call due d from now, pending again if it had run or
	// was stopped, and reports whether it was pending.
	Reset(d time.Duration) bool
}

// TimerClock is a Clock that can also call a function later, by its own
// time. Real and *Fake are TimerClocks.
type TimerClock interface {
	Clock
	// AfterFunc calls f once d has passed on this clock.
	AfterFunc(d time.Duration, f func()) Timer
}

// AfterFunc is time.AfterFunc: f runs on a goroutine of its own.
func (Real) AfterFunc(d time.Duration, f func()) Timer { return time.AfterFunc(d, f) }

// TimerClockOr returns c if it can make timers, or Real when c is nil or
// cannot: code that measures time and sets timers then reads both from
// the same clock, so a timer is never due by one clock and waiting on
// another.
func TimerClockOr(c Clock) TimerClock {
	if tc, ok := c.(TimerClock); ok {
		return tc
	}
	return Real{}
}

// AfterFunc returns a timer that calls f when Advance moves the fake time
// to d from now or beyond. f runs on the goroutine calling Advance, before
// Advance returns, and without the Fake's lock held, so it may read the
// clock and stop, reset or make timers; a timer it makes due by the new
// time (d <= 0) runs in the same Advance. Otherwise a timer due now or
// earlier waits for the next Advance, Advance(0) included. So a test that advances from one goroutine
// knows, when Advance returns, that every callback due has run; a callback
// must not wait for the goroutine that advances.
func (f *Fake) AfterFunc(d time.Duration, fn func()) Timer {
	t := &fakeTimer{clock: f, fn: fn}
	t.Reset(d)
	return t
}

// PendingTimers returns how many timers are waiting to fire: a test can
// wait for the code under test to arm one before it advances the clock.
func (f *Fake) PendingTimers() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.timers)
}

type fakeTimer struct {
	clock *Fake
	fn    func()
	// Guarded by clock.mu.
	due     time.Time
	order   uint64 // when it was armed, among timers due at once
	pending bool
}

func (t *fakeTimer) Stop() bool {
	f := t.clock
	f.mu.Lock()
	defer f.mu.Unlock()
	was := t.pending
	f.unqueue(t)
	return was
}

func (t *fakeTimer) Reset(d time.Duration) bool {
	f := t.clock
	f.mu.Lock()
	defer f.mu.Unlock()
	was := t.pending
	if !was {
		f.timers = append(f.timers, t)
		t.pending = true
	}
	t.due = f.now.Add(d)
	f.armed++
	t.order = f.armed
	return was
}

// unqueue removes t from the pending timers. f.mu held.
func (f *Fake) unqueue(t *fakeTimer) {
	if !t.pending {
		return
	}
	for i, x := range f.timers {
		if x == t {
			last := len(f.timers) - 1
			f.timers[i] = f.timers[last]
			f.timers[last] = nil
			f.timers = f.timers[:last]
			break
		}
	}
	t.pending = false
}

// popDue removes and returns the earliest timer due by now, or nil. A
// linear scan: tests hold a few timers.
func (f *Fake) popDue() *fakeTimer {
	f.mu.Lock()
	defer f.mu.Unlock()
	var next *fakeTimer
	for _, t := range f.timers {
		if t.due.After(f.now) {
			continue
		}
		if next == nil || t.due.Before(next.due) || t.due.Equal(next.due) && t.order < next.order {
			next = t
		}
	}
	if next != nil {
		f.unqueue(next)
	}
	return next
}
