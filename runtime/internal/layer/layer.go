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

// Deposit records that the logical request deposited in Budget; Parent is
// the deposit of an enclosing layer, if any, and Under the context the
// depositing layer ran under.
type Deposit struct {
	Budget any
	Parent *Deposit
	Under  context.Context
}

// From returns the innermost deposit ctx carries, or nil.
func From(ctx context.Context) *Deposit {
	d, _ := ctx.Value(Key).(*Deposit)
	return d
}

// Deposited reports whether the logical request ctx belongs to has
// already deposited in b.
func Deposited(ctx context.Context, b any) bool {
	if b == nil || !reflect.TypeOf(b).Comparable() {
		// Comparing two interfaces holding the same uncomparable type
		// panics, and a budget may be any type.
		return false
	}
	for d := From(ctx); d != nil; d = d.Parent {
		if OriginOf(d.Under).Detached(ctx) {
			return false
		}
		if d.Budget == b {
			return true
		}
	}
	return false
}

// Mark returns the deposit to embed in a layer's context after the layer
// deposited in b under ctx.
func Mark(ctx context.Context, b any) Deposit {
	return Deposit{Budget: b, Parent: From(ctx), Under: ctx}
}

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
