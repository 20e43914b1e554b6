// Package clock is the runtime's injectable time source: production code
// reads Real, tests drive a Fake.
package clock

import (
	"sync"
	"time"
)

// Clock tells the time. Implementations must be safe for concurrent use.
type Clock interface {
	Now() time.Time
}

// Real is the wall clock.
type Real struct{}

// Now returns time.Now().
func (Real) Now() time.Time { return time.Now() }

// Fake is a clock that moves only when told to. Its zero value starts at
// the zero time; NewFake starts it elsewhere. It also makes timers (see
// AfterFunc), which fire only as Advance moves time past them.
type Fake struct {
	mu     sync.Mutex
	now    time.Time
	timers []*fakeTimer // pending, in no order
	armed  uint64       // timers armed so far: orders timers due at once
}

// NewFake returns a Fake reading t.
func NewFake(t time.Time) *Fake { return &Fake{now: t} }

// Now returns the fake time.
func (f *Fake) Now() time.Time {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.now
}

// Advance moves the fake time forward by d, then runs the function of
// every timer now due, on the calling goroutine, one after another in
// due order, and returns when they have returned. See AfterFunc.
func (f *Fake) Advance(d time.Duration) {
	f.mu.Lock()
	f.now = f.now.Add(d)
	f.mu.Unlock()
	for {
		t := f.popDue()
		if t == nil {
			return
		}
		t.fn()
	}
}

// Or returns c, or Real when c is nil: the documented zero-value default
// of every Clock field in the runtime.
func Or(c Clock) Clock {
	if c == nil {
		return Real{}
	}
	return c
}
