// Package layer is what the runtime's resilience layers (retry, hedge)
// leave in the contexts they pass down, so that a layer further in knows
// which logical request it serves: one logical request deposits once in a
// budget however many layers that share the budget it crosses.
//
// A layer embeds a Deposit in a context type of its own (one allocation
// for the layer, not one more per mark) and answers Key from it.
//
// A context made with context.WithoutCancel from a layer's context starts
// a new logical operation (a background job outliving the request): marks
// left above it do not count. The context package hides which contexts
// went through WithoutCancel, so Origin tells them by what they lost: the
// Done channel, or a deadline no later than the layer's.
package layer

import (
	"context"
	"reflect"
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
	done        <-chan struct{}
	deadline    time.Time
	hasDeadline bool
}

// OriginOf records ctx for Detached.
func OriginOf(ctx context.Context) Origin {
	d, ok := ctx.Deadline()
	return Origin{done: ctx.Done(), deadline: d, hasDeadline: ok}
}

// Detached reports whether ctx, which carries a mark made under o, can
// no longer be a context derived (through cancellation) from o's: it
// cannot be cancelled although o's could, or its deadline is later than
// o's. Such a context was made with context.WithoutCancel on the way.
func (o Origin) Detached(ctx context.Context) bool {
	if o.done != nil && ctx.Done() == nil {
		return true
	}
	if o.hasDeadline {
		d, ok := ctx.Deadline()
		return !ok || d.After(o.deadline)
	}
	return false
}
