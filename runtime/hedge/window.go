package hedge

import (
	"time"

	"github.com/resilvet/resilvet/runtime/internal/slots"
)

// window counts events per second over the last slots.N seconds of the
// scheduler's clock, in the runtime's one sliding window (budget.Ratio's
// rule, at the hedge's width).
type window struct{ slots.Ring[int64] }

// windowSlot is the width of a slot.
const windowSlot = time.Second

// epochOf returns the number of the slot holding now, an offset of the
// scheduler's clock.
func epochOf(now time.Duration) int64 { return slots.Epoch(now, windowSlot) }

// add counts an event in slot epoch.
func (w *window) add(epoch int64) { *w.At(epoch)++ }

// sum returns the events of the window ending with slot epoch.
func (w *window) sum(epoch int64) int64 {
	var n int64
	w.Sum(epoch, func(c *int64) { n += *c })
	return n
}
