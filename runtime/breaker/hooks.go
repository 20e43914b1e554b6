package breaker

import (
	"context"
	"time"
)

// The hooks of Settings: OnStateChange, OnReject and OnOutcome. Each runs
// outside the breaker's lock, so a hook may read the breaker (Metrics,
// State) without deadlocking. Only OnStateChange is serialised: rejections
// and outcomes come from every caller at once, and a mutex around them
// would put back on the closed path the contention its lock-free design
// removes.

// notify calls OnStateChange for a transition, outside mu.
func (b *Breaker) notify(t transition) {
	if b.s.OnStateChange == nil {
		return
	}
	b.hookMu.Lock()
	defer b.hookMu.Unlock()
	b.s.OnStateChange(b.s.Name, t.from, t.to)
}

// reject calls OnReject for a refused call, outside mu.
func (b *Breaker) reject(err *OpenError) {
	if f := b.s.OnReject; f != nil {
		f(b.s.Name, err)
	}
}

// observe calls OnOutcome for an admitted call's outcome, outside mu and
// before the outcome is recorded, so that a hook sees the outcome before
// the transition it causes.
func (b *Breaker) observe(o Outcome, took time.Duration) {
	if f := b.s.OnOutcome; f != nil {
		f(b.s.Name, o, took)
	}
}

// doClosedTimed is doClosed for a breaker with OnOutcome: the same
// lock-free path, plus the two clock reads that time the call for the
// hook. It is a function of its own so that doClosed, without the hook,
// stays exactly as cheap as before hooks existed.
func (b *Breaker) doClosedTimed(ctx context.Context, w *countWindow, fn func(context.Context) error) error {
	start := b.now()
	returned := false
	defer func() {
		if !returned { // fn panicked: a failure; the panic goes on
			b.observe(Failure, b.now().Sub(start))
			b.recordClosed(w, Failure)
		}
	}()
	err := fn(ctx)
	returned = true
	o := b.classify(ctx, err)
	b.observe(o, b.now().Sub(start))
	b.recordClosed(w, o)
	return err
}
