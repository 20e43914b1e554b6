package hedge

import (
	"context"
	"sync"

	"github.com/resilvet/resilvet/runtime/budget"
	"github.com/resilvet/resilvet/runtime/internal/layer"
	"github.com/resilvet/resilvet/runtime/internal/slots"
)

// ownBudget is the budget of a Policy without one, so that a slow
// dependency does not see every call twice (cristalhq/hedgedhttp#18): the
// rule of a budget.Ratio, extra copies up to 10% of the calls of the last
// 10 s, with a floor of 1 a second (10 a window) rather than the Ratio's
// 10, which would hedge every call of a dependency serving up to 100 a
// second. Hedging cuts tail latency; it must not double the load of a
// dependency that is slow.
//
// The calls are counted by the scheduler's shards as they arm them, under
// the shard's lock and on the clock reading the shard makes anyway: the
// common call pays no clock read, lock or shared write of its own for its
// deposit (a budget.Ratio's cost a third of Do's time). So a call with
// MaxAttempts 1, which arms nothing, deposits nothing; it withdraws
// nothing either.
type ownBudget struct {
	sched       *scheduler
	mu          sync.Mutex
	withdrawals window
}

const (
	ownBudgetRatio     = 0.1
	ownBudgetPerSecond = 1
)

// withdraw grants an extra copy if the window's extra copies, this one
// included, stay within the allowance.
func (b *ownBudget) withdraw() bool {
	epoch := epochOf(b.sched.now())
	calls := b.sched.deposits(epoch)
	b.mu.Lock()
	defer b.mu.Unlock()
	// A small epsilon keeps 0.1 × 30 from landing just below 3.
	allowance := ownBudgetRatio*float64(calls) + ownBudgetPerSecond*slots.N + 1e-9
	if float64(b.withdrawals.sum(epoch)+1) > allowance {
		return false
	}
	b.withdrawals.add(epoch)
	return true
}

// budgetID is the budget this policy's calls deposit in, as layers mark
// it in contexts.
func (p *Policy) budgetID() any {
	if p.Budget != nil {
		return p.Budget
	}
	return &p.own
}

// deposit records the call in the policy's budget, once per logical
// request: not if a layer further out marked ctx with a deposit in the
// same budget. Either way the copies' contexts carry this layer's mark
// (see markedCtx). It returns how the scheduler is to count the call: the
// default budget's deposit is the scheduler's to count.
func (r *race[T]) deposit(ctx context.Context) arming {
	id := r.p.budgetID()
	r.marked.Context, r.marked.deposit.Budget = ctx, id
	// Without a mark upstream (the common call), one look-up decides.
	if layer.From(ctx) != nil && layer.Deposited(ctx, id) {
		return newCall
	}
	if b := r.p.Budget; b != nil {
		b.Deposit()
		return newCall
	}
	return newCallDeposit
}

// allowed asks the budget for an extra copy. r.mu held.
func (r *race[T]) allowed() bool {
	var ok bool
	if b := r.p.Budget; b != nil {
		ok = b.Withdraw()
	} else {
		ok = r.p.own.withdraw()
	}
	if !ok {
		r.p.metrics.denials.Add(1)
	}
	return ok
}

// report tells a budget that learns from outcomes how a copy that ran
// went, unless a layer further in that shares the budget reported it (the
// mark's Heard count moved from heard, read as the copy started), and
// tells the layers further out that share it that it did. A copy whose
// context was cancelled when it failed, by the race (it lost, or the call
// was over) or by the caller, says nothing about the dependency: its
// error is most likely that cancellation. Nor does a fatal error (an
// answer on the merits, a 404): as for retry, a failure is one that
// another copy could have fixed, gRPC's rule for its retry throttling.
//
// Copies run at once share the mark: a copy that ran through no layer
// further in while another copy's layer reported is not reported.
func (r *race[T]) report(ctx context.Context, err error, heard uint64) {
	o, ok := r.p.Budget.(budget.Outcome)
	if !ok || r.marked.deposit.Heard() != heard {
		return
	}
	switch {
	case err == nil:
		o.Success()
	case ctx.Err() == nil && !r.p.fatal(err):
		o.Failure()
	default:
		return
	}
	layer.Reported(r.parent(), r.p.Budget)
}
