package hedge

import (
	"context"
	"sync"

	"github.com/resilvet/resilvet/runtime/internal/layer"
)

// markedCtx is the caller's context as every copy sees it: the caller's,
// answering layer.Key with the mark that this logical request has
// deposited in the policy's budget, so that a layer further in sharing
// that budget does not deposit again. It is embedded in the race (no
// allocation) and is the parent of every copy's context; being the
// caller's context in all else (Done and the context package's private
// key included), contexts derived from it register with the caller's
// cancellable context directly.
//
// It needs no Done channel of its own under a caller that can never be
// cancelled (see layer.Cancel): every copy runs under a cancellable child
// of it, which context.WithoutCancel visibly drops.
//
// The mark is made when first asked for: it depends on the caller's
// context only, which cannot change, and making it asks that context for
// its Done channel, which a context.WithCancel makes on demand: the common
// call, with no layer further in, must not pay for that.
type markedCtx struct {
	context.Context
	marking sync.Once
	deposit layer.Deposit // its Budget set at once, the rest by mark
}

func (c *markedCtx) Value(key any) any {
	if key == layer.Key {
		c.marking.Do(c.mark)
		return &c.deposit
	}
	return c.Context.Value(key)
}

func (c *markedCtx) mark() { c.deposit.Set(c.Context, c.deposit.Budget) }

func (c *markedCtx) String() string { return "hedge.callContext" }
