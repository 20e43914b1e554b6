// Package hedge cuts tail latency by sending a second copy of a slow
// request: the first copy goes out at once, another after a delay (fixed,
// or a percentile of recent latencies such as p95), the first success wins
// and the others are cancelled.
//
// Hedging runs an operation more than once, concurrently, and cancellation
// is cooperative: both copies may take effect. So only operations declared
// idempotent can be hedged: Do takes an Op, which only Idempotent makes.
// Reads, PUT and DELETE by HTTP semantics, and writes carrying an
// idempotency key the server deduplicates on qualify; creating a payment,
// sending mail or a plain INSERT do not. The declaration is visible to
// reviewers and to resilvet's hedgeidem analyzer. Transport applies the
// same rule to HTTP: it hedges only requests whose method is idempotent or
// that carry an Idempotency-Key.
//
// Every extra copy draws on a shared budget (by default one of the
// policy's own: see Policy.Budget), attempts are bounded, an
// optional limiter keeps each attempt's permit until that attempt has
// really returned, and the caller's context bounds everything. Hedging is
// not a cure for overload: budget it.
//
// A Policy is safe for concurrent use; share one per dependency so its
// latency estimate and counters cover all calls.
package hedge

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"time"

	"github.com/resilvet/resilvet/runtime/budget"
	"github.com/resilvet/resilvet/runtime/internal/clock"
	"github.com/resilvet/resilvet/runtime/retry"
)

// Op is an operation declared idempotent. Make one with Idempotent.
type Op[T any] struct {
	fn      func(context.Context) (T, error)
	release func(T)
}

// Idempotent declares that fn may run more than once, concurrently,
// without harm, and returns it as an Op that Do accepts.
func Idempotent[T any](fn func(context.Context) (T, error)) Op[T] {
	return Op[T]{fn: fn}
}

// Release returns the Op with f as the way to release the value of a copy
// that succeeded but lost the race (a response nobody will read). Without
// it, Do closes an *http.Response's Body and calls Close on an io.Closer;
// other values are dropped.
func (o Op[T]) Release(f func(T)) Op[T] {
	o.release = f
	return o
}

// Limiter bounds concurrent attempts (a bulkhead). Acquire blocks until a
// permit is free or ctx is done.
type Limiter interface {
	Acquire(ctx context.Context) error
	Release()
}

// Policy configures Do. Every field's zero value means the default in its
// comment.
type Policy struct {
	// Delay before each extra copy. 0 means adaptive: the Percentile of
	// recent latencies, or InitialDelay until enough are known.
	Delay time.Duration
	// Percentile for the adaptive delay. 0 means 0.95.
	Percentile float64
	// InitialDelay is the adaptive delay before 20 latencies are known.
	// 0 means 10 ms.
	InitialDelay time.Duration
	// MaxAttempts bounds the copies, the first included. 0 means 2.
	MaxAttempts int
	// Budget receives a deposit per logical request and must grant every
	// extra copy. A call whose context shows that a layer further out
	// (another hedge, a retry) has deposited in the same budget for this
	// request does not deposit again. A budget that learns from outcomes
	// (budget.Outcome, as budget.TokenBucket) hears of every copy that
	// ran: Success when it succeeded, Failure when it failed with an
	// error that is not Fatal while neither the race nor the caller had
	// cancelled it (what retry reports too); once, from the innermost
	// layer sharing the budget that the copy went through (a retry inside
	// the copy reports its attempts, and the hedge does not report them
	// again).
	//
	// nil means a budget of the policy's own, so that a slow dependency
	// does not see every call twice: extra copies up to 10% of the calls
	// of the last 10 seconds plus 1 per second (10 per window, for low
	// traffic), on the policy's clock; budget.Ratio{MinPerSecond: 1}'s
	// rule, at a fraction of its cost per call.
	Budget budget.Budget
	// Limiter, if set, is acquired by every attempt and released when that
	// attempt returns, even after another copy has won.
	Limiter Limiter
	// Fatal reports errors that stop the race at once (every copy would
	// fail the same way). A failure that asks the caller to wait (see
	// retry.RetryAfter: a server's pushback or Retry-After) stops it too,
	// whatever Fatal says, and is returned for the retry layer to wait. nil means errors that are not retry.Transient,
	// except context.DeadlineExceeded, a copy's own timeout while the
	// caller's context is alive (as retry's default classifier).
	Fatal func(error) bool
	// Clock times the calls (for the adaptive delay), the delay before
	// each extra copy and the default budget's window. nil means the wall
	// clock, and so does a Clock that cannot set timers (see
	// clock.TimerClock; a *clocktest.Clock can), so that all three agree.
	// It is read once, on the policy's first use.
	Clock clock.Clock
	// OnHedge, if set, is called for every extra copy sent (the copies
	// Metrics.Hedges counts) with the copy's index: 1 for the first extra
	// copy, 2 for the next. It runs before the copy starts, on the
	// goroutine that sends it: the policy's scheduler's timer goroutine
	// (on a clocktest.Clock, the goroutine calling Advance), or the
	// caller's when every copy so far failed fast. It runs with the call's lock held, so
	// it has returned before Do returns, and it must be quick and must not
	// block: it delays that copy, and the extra copies of other calls due
	// at the same time.
	OnHedge func(copy int)
	// OnWin, if set, is called once for every call that returns a value,
	// with the index of the copy that won: 0 for the first copy (most
	// calls), 1 for the first extra copy (the calls Metrics.HedgeWins
	// counts have an index above 0). It runs on the caller's goroutine
	// just before Do returns. A call that returns an error does not call
	// it: count those from Do's error.
	//
	// Unset, the hooks cost nothing but a nil check. Set, each costs a
	// function call: OnWin on nearly every call, OnHedge on the few that
	// hedge. The hooks may be called concurrently, by different calls.
	OnWin func(copy int)

	// Set up on first use.
	once  sync.Once
	clock clock.TimerClock
	own   ownBudget // used when Budget is nil

	lat     latencies
	sched   scheduler
	metrics struct {
		calls, hedges, wins, denials, cancelled atomic.Uint64 // calls: without hedging
	}
}

// Metrics counts what the policy did.
type Metrics struct {
	Calls           uint64 // calls to Do
	Hedges          uint64 // extra copies sent
	HedgeWins       uint64 // calls won by an extra copy
	BudgetDenials   uint64 // extra copies the budget refused
	LosersCancelled uint64 // copies cancelled because another won
}

// Metrics returns the counters.
func (p *Policy) Metrics() Metrics {
	return Metrics{
		Calls:           p.metrics.calls.Load() + p.sched.calls(),
		Hedges:          p.metrics.hedges.Load(),
		HedgeWins:       p.metrics.wins.Load(),
		BudgetDenials:   p.metrics.denials.Load(),
		LosersCancelled: p.metrics.cancelled.Load(),
	}
}

// CurrentDelay returns the delay the next call would wait before hedging.
func (p *Policy) CurrentDelay() time.Duration {
	if p.Delay > 0 {
		return p.Delay
	}
	q := p.Percentile
	if q <= 0 || q >= 1 {
		q = 0.95
	}
	if d, ok := p.lat.quantile(q); ok {
		return d
	}
	if p.InitialDelay > 0 {
		return p.InitialDelay
	}
	return 10 * time.Millisecond
}

// Do runs op, hedging it per p, and returns the first success, the first
// fatal error, or the last error when every copy failed.
//
// The first copy runs on the calling goroutine and the policy's scheduler
// arms the next, so a call whose first copy answers before the delay
// starts no goroutine and no timer of its own. Extra copies run on
// goroutines. When one of them wins, the first copy's context is cancelled
// and Do returns once that copy has returned: hedged operations must
// honour their context (HTTP and gRPC clients do), as every operation in
// a request should.
//
// Each copy has a context of its own. Losers' contexts are cancelled; the
// winner's lives on while its value is in use: for an *http.Response
// until its Body is closed, for other values until Do returns. A loser's
// successful value is released as the Op says (see Op.Release).
//
// Every copy's context behaves as a context.WithCancel child of ctx. When
// the race cancels a copy (it lost, or Do is done with it), its Err and
// context.Cause are context.Canceled, and stay so if ctx is cancelled
// later; when ctx is done first, the copy's Err and Cause are ctx's (the
// cause given to context.WithCancelCause, say). Contexts derived from a
// copy's get the same cause.
func Do[T any](ctx context.Context, p *Policy, op Op[T]) (T, error) {
	var zero T
	if op.fn == nil {
		return zero, errors.New("hedge: Op not made with hedge.Idempotent")
	}
	if err := ctx.Err(); err != nil {
		return zero, err
	}
	p.once.Do(p.setup)
	r := &race[T]{p: p, op: op, max: 2, sent: 1, winner: -1}
	if p.MaxAttempts > 0 {
		r.max = int32(min(p.MaxAttempts, 1<<20))
	}
	r.timed = p.Delay <= 0 // latencies feed only the adaptive delay
	call := r.deposit(ctx)
	r.first.init(&r.marked)
	if r.max > 1 {
		p.sched.arm(r, p.CurrentDelay(), call)
	} else {
		p.metrics.calls.Add(1)
	}
	first := r.attempt(&r.first, 0)
	res := r.settle(first)
	r.end(res)
	return res.v, res.err
}

// setup resolves the policy's clock and readies the scheduler, which its
// default budget shares.
func (p *Policy) setup() {
	p.clock = clock.TimerClockOr(p.Clock)
	p.sched.init(p.clock)
	p.own.sched = &p.sched
}

// ends reports whether a copy's failure ends the race: a fatal error, or
// one that asks the caller to wait (a pushback, a Retry-After): sending
// another copy at once is what the server asked not to do, and the wait
// is the retry layer's.
func (p *Policy) ends(err error) bool {
	if p.fatal(err) {
		return true
	}
	_, wait := retry.RetryAfter(err)
	return wait
}

func (p *Policy) fatal(err error) bool {
	if p.Fatal != nil {
		return p.Fatal(err)
	}
	if errors.Is(err, context.DeadlineExceeded) && !retry.CircuitOpen(err) {
		// A copy's own timeout (a per-attempt context.WithTimeout in the
		// operation): another copy may well answer in time. The caller's
		// deadline ends the race where the race checks the caller.
		return false
	}
	return !retry.Transient(err)
}
