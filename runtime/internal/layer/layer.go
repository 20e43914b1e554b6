// Package layer is what the runtime's resilience layers (retry, hedge,
// the gRPC adapter's streams) leave in the contexts they pass down, so
// that a layer further in knows which logical request it serves: one
// logical request deposits once in a budget however many layers that
// share the budget it crosses.
//
// A layer embeds a Deposit in a context type of its own (one allocation
// for the layer, not one more per mark) and answers Key from it.
//
// A context made with context.WithoutCancel from a layer's context starts
// a new logical operation (a background job outliving the request): marks
// left above it do not count. The context package hides which contexts
// went through WithoutCancel, so Detached tells them by what they lost:
// the Done channel, or a deadline no later than the layer's. For the
// first to hold under a caller that can never be cancelled
// (context.Background: CLIs, cron jobs, consumers, tests), a layer's
// context answers Done through Cancel, which gives it a channel of its
// own that is never closed when its parent has none.
package layer

import (
	"context"
	"reflect"
	"sync/atomic"
	"time"
)

// Key is the context key a layer's context answers with its *Deposit.
var Key any = key{}

type key struct{}

// Deposit is a layer's mark for the logical request it serves: the
// budget it shares (the outermost layer sharing it deposited in it),
// the mark of an enclosing layer, if any, and the context the layer ran
// under. It counts the outcomes that layers further in reported to the
// budget for the layer's current attempt (Heard), so that one attempt is
// reported once however many layers sharing the budget it crosses.
type Deposit struct {
	Budget any
	Parent *Deposit
	Under  context.Context
	heard  atomic.Uint64
}

// From returns the innermost deposit ctx carries, or nil.
func From(ctx context.Context) *Deposit {
	d, _ := ctx.Value(Key).(*Deposit)
	return d
}

// Deposited reports whether a layer further out than ctx's, in the same
// logical request, shares b: the outermost of them has deposited.
func Deposited(ctx context.Context, b any) bool {
	return sharing(ctx, b, func(*Deposit) bool { return true })
}

// Reported tells the layers further out than ctx's, in the same logical
// request, that share b that an outcome of the attempt ctx runs in was
// reported to b: the layer that runs the operation reports, and they do
// not report the same attempt again (see Heard).
func Reported(ctx context.Context, b any) {
	sharing(ctx, b, func(d *Deposit) bool { d.heard.Add(1); return false })
}

// sharing calls f with each deposit in b of ctx's logical request, from
// the innermost, until f returns true, and reports whether it did.
func sharing(ctx context.Context, b any, f func(*Deposit) bool) bool {
	if b == nil || !reflect.TypeOf(b).Comparable() {
		// Comparing two interfaces holding the same uncomparable type
		// panics, and a budget may be any type.
		return false
	}
	for d := From(ctx); d != nil; d = d.Parent {
		if OriginOf(d.Under).Detached(ctx) {
			return false
		}
		if d.Budget == b && f(d) {
			return true
		}
	}
	return false
}

// Set makes d the mark of a layer sharing b that runs under ctx.
func (d *Deposit) Set(ctx context.Context, b any) {
	d.Budget, d.Parent, d.Under = b, From(ctx), ctx
}

// Heard returns how many outcomes layers further in have reported for
// the layer's attempts: a layer reads it before and after an attempt,
// and reports the attempt's outcome itself only if it did not change.
func (d *Deposit) Heard() uint64 { return d.heard.Load() }

// Origin is what a layer remembers of the context it ran under.
type Origin struct {
	deadline    time.Time
	hasDeadline bool
}

// OriginOf records ctx for Detached.
func OriginOf(ctx context.Context) Origin {
	d, ok := ctx.Deadline()
	return Origin{deadline: d, hasDeadline: ok}
}

// Detached reports whether ctx, which carries a mark made under o, can
// no longer be a context derived (through cancellation) from the marking
// layer's: it cannot be cancelled, though every layer's context can (see
// Cancel), or its deadline is later than o's. Such a context was made
// with context.WithoutCancel on the way.
//
// One detachment stays invisible: context.WithCancel(WithoutCancel(c))
// under a caller with no deadline, which can be cancelled and has no
// deadline, like c. Its layers count as nested.
func (o Origin) Detached(ctx context.Context) bool {
	if ctx.Done() == nil {
		return true
	}
	if o.hasDeadline {
		d, ok := ctx.Deadline()
		return !ok || d.After(o.deadline)
	}
	return false
}

// Cancel gives a layer's context a Done channel when the context it wraps
// has none, so that WithoutCancel below it is seen (Detached). A layer's
// context embeds one and answers Done and Value through it:
//
//	func (c *layerCtx) Done() <-chan struct{} { return c.cancel.Done(c.Context) }
//	func (c *layerCtx) Value(k any) any      { …own keys…; return c.cancel.Value(c.Context, k) }
//
// The channel belongs to a context.WithCancel context made on first use
// and never cancelled, whose Value the layer's context answers too, so
// that contexts derived from the layer's register with it as with any
// cancellable parent: no goroutine watches it. Under a cancellable parent
// both are the parent's, and nothing is allocated.
type Cancel struct {
	own atomic.Pointer[never]
}

type never struct{ context.Context }

// Done returns parent's Done channel, or the layer's own if parent has
// none.
func (c *Cancel) Done(parent context.Context) <-chan struct{} {
	if d := parent.Done(); d != nil {
		return d
	}
	own := c.own.Load()
	if own == nil {
		own = &never{neverCancelled()}
		if !c.own.CompareAndSwap(nil, own) {
			own = c.own.Load()
		}
	}
	return own.Done()
}

// Value returns parent's value for key, or, for a key parent has no value
// for, the own context's: this is how the context package finds the
// cancellable context behind the own Done channel.
func (c *Cancel) Value(parent context.Context, key any) any {
	if v := parent.Value(key); v != nil {
		return v
	}
	if own := c.own.Load(); own != nil {
		return own.Value(key)
	}
	return nil
}

// neverCancelled returns a cancellable context that nothing cancels: it
// lives as long as the layer's context that holds it, and its children
// with it.
func neverCancelled() context.Context {
	ctx, cancel := context.WithCancel(context.Background())
	_ = cancel // never called, on purpose: see Cancel
	return ctx
}
