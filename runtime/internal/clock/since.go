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
