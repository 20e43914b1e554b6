package clock

import "time"

// Sincer is implemented by clocks that measure elapsed time on a clock of
// their own (a monotonic one) rather than by subtracting readings of Now.
// Test clocks implement it to step their wall time without moving time.
type Sincer interface {
	Since(t time.Time) time.Duration
}

// Since returns how long ago t, a reading of c, was. For Real readings
// carry the monotonic clock, so a step of the wall clock (NTP, a VM
// resumed) neither moves windows back nor skips them forward.
func Since(c Clock, t time.Time) time.Duration {
	if s, ok := c.(Sincer); ok {
		return s.Since(t)
	}
	return c.Now().Sub(t)
}

// Stamp is a reading taken to measure an interval, as cheap as the clock
// allows: on the wall clock (a nil Clock) the monotonic reading alone,
// one clock read where time.Now makes two (a retry layer stamps every
// attempt it runs under a deadline).
type Stamp struct {
	mono time.Duration // since epoch, on the wall clock
	at   time.Time     // the reading of a Clock
}

// epoch is what wall-clock Stamps count from; only its monotonic reading
// is used.
var epoch = time.Now()

// Start stamps now on c, nil for the wall clock.
func Start(c Clock) Stamp {
	if c == nil {
		return Stamp{mono: time.Since(epoch)}
	}
	return Stamp{at: c.Now()}
}

// Elapsed returns how long ago s was stamped on c, the Clock it was
// stamped on.
func (s Stamp) Elapsed(c Clock) time.Duration {
	if c == nil {
		return time.Since(epoch) - s.mono
	}
	return Since(c, s.at)
}

// Until returns the time left before t on c, nil for the wall clock.
func Until(c Clock, t time.Time) time.Duration {
	if c == nil {
		return time.Until(t)
	}
	return t.Sub(c.Now())
}
