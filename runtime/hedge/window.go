package hedge

import "time"

// window counts events per second over the last windowSlots seconds of the
// scheduler's clock, as budget.Ratio does.
type window [windowSlots]struct{ epoch, n int64 }

const (
	windowSlots = 10
	windowSlot  = time.Second
)

// epochOf returns the number of the slot holding now, an offset of the
// scheduler's clock; slot 0 means unused.
func epochOf(now time.Duration) int64 { return int64(now/windowSlot) + 1 }

// add counts an event in slot epoch, forgetting the slot's older count.
func (w *window) add(epoch int64) {
	s := &w[epoch%windowSlots]
	if s.epoch != epoch {
		s.epoch, s.n = epoch, 0
	}
	s.n++
}

// sum returns the events of the window ending with slot epoch.
func (w *window) sum(epoch int64) int64 {
	var n int64
	for _, s := range w {
		if s.epoch > epoch-windowSlots && s.epoch <= epoch {
			n += s.n
		}
	}
	return n
}
