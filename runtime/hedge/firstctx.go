package hedge

import (
	"context"
	"sync"
	"sync/atomic"
	"time"
)

// firstCtx is the first copy's context, embedded in the race so that the
// common call, whose first copy answers before any hedge without looking
// at its context's Done channel, allocates nothing for it: a
// context.WithCancel child would cost a context, a closure and a
// registration with the parent on every call.
//
// It is a context.WithCancelCause child of parent made lazily. Until an
// operation asks for its Done channel (directly, or by deriving a context
// from it), it answers Err from its own state and the parent's, and
// values from the parent. Once asked, it makes that child (inner), and
// from then on answers Done, Err and Value from it: inner answers the
// context package's private key for the nearest cancellable ancestor with
// itself, and its Done channel is firstCtx's, so contexts derived from
// firstCtx join inner's children and are cancelled with it, without a
// goroutine, exactly as for a context.WithCancel child.
//
// Cause: when the race cancels it while the parent is live, Err and
// context.Cause are context.Canceled, for good, whatever the parent does
// later. When the parent is done first, Err is the parent's Err and Cause
// the parent's Cause (with context.WithCancelCause or a ...Cause deadline
// upstream, the cause given there). Contexts derived from it get the same
// cause.
type firstCtx struct {
	parent context.Context
	state  atomic.Uint32 // live, cancelled or made
	making sync.Mutex    // one make at a time
	// Set once, before state becomes made.
	inner       context.Context
	cancelInner context.CancelCauseFunc
}

// firstCtx states. Each moves only forward: live to cancelled or made,
// cancelled to made.
const (
	live      = iota // nothing made, not cancelled by the race
	cancelled        // nothing made; cancelled by the race while the parent was live
	made             // inner and cancelInner are set, for good
)

func (c *firstCtx) init(parent context.Context) { c.parent = parent }

func (c *firstCtx) Deadline() (time.Time, bool) { return c.parent.Deadline() }

func (c *firstCtx) Done() <-chan struct{} {
	if c.state.Load() == made {
		return c.inner.Done()
	}
	return c.make().Done()
}

// Err is never nil once the parent is done, as for a context.WithCancel
// child; until inner is made, and while a parent outside the context
// package has yet to tell inner, it asks the parent.
func (c *firstCtx) Err() error {
	switch c.state.Load() {
	case cancelled:
		return context.Canceled
	case made:
		if err := c.inner.Err(); err != nil {
			return err
		}
	}
	return c.parent.Err()
}

// Value answers from the parent while this context is live or followed
// the parent's cancellation: context.Cause then finds the parent's cause.
// Once cancelled by the race, it answers from inner, whose cause is
// context.Canceled: the context package's private key must not lead
// Cause to a cause the parent got later, and only inner can answer that
// key (it cannot be named, so Value cannot tell it from others).
func (c *firstCtx) Value(key any) any {
	switch c.state.Load() {
	case cancelled:
		return c.make().Value(key)
	case made:
		return c.inner.Value(key)
	}
	return c.parent.Value(key)
}

func (c *firstCtx) String() string { return "hedge.firstCopyContext" }

// make makes inner, once: a child of the parent, or, if the race has
// cancelled this context already, a child of the parent's values only,
// cancelled with context.Canceled, deaf to the parent's cancellation.
func (c *firstCtx) make() context.Context {
	c.making.Lock()
	defer c.making.Unlock()
	switch c.state.Load() {
	case made:
		return c.inner
	case cancelled:
		c.inner, c.cancelInner = context.WithCancelCause(context.WithoutCancel(c.parent))
		c.cancelInner(context.Canceled)
		c.state.Store(made)
		return c.inner
	}
	c.inner, c.cancelInner = context.WithCancelCause(c.parent)
	if !c.state.CompareAndSwap(live, made) {
		// The race cancelled this context meanwhile, and cancels no
		// inner it has not seen: do it for the race.
		c.cancelInner(context.Canceled)
		c.state.Store(made)
	}
	return c.inner
}

// cancel is the race's cancellation of this copy: the copy lost, or its
// call is over. If the parent is done already, its cancellation came first
// and this context keeps following it. On the common path (nothing made)
// it is an atomic swap: it runs on every call.
func (c *firstCtx) cancel() {
	if c.parent.Err() != nil || c.state.CompareAndSwap(live, cancelled) {
		return
	}
	if c.state.Load() == made {
		c.cancelInner(context.Canceled) // detaches inner from the parent
	}
}
