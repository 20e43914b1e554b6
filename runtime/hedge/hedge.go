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
// reviewers and to resilvet's hedgeidem analyzer.
//
// Every extra copy draws on a shared budget, attempts are bounded, an
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
	"math"
	"sync"
	"sync/atomic"
	"time"

	"github.com/resilvet/resilvet/runtime/budget"
	"github.com/resilvet/resilvet/runtime/internal/clock"
	"github.com/resilvet/resilvet/runtime/retry"
)

// Op is an operation declared idempotent. Make one with Idempotent.
type Op[T any] struct {
	fn func(context.Context) (T, error)
}

// Idempotent declares that fn may run more than once, concurrently,
// without harm, and returns it as an Op that Do accepts.
func Idempotent[T any](fn func(context.Context) (T, error)) Op[T] {
	return Op[T]{fn: fn}
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
	// Budget, if set, receives a deposit per call and must grant every
	// extra copy.
	Budget budget.Budget
	// Limiter, if set, is acquired by every attempt and released when that
	// attempt returns, even after another copy has won.
	Limiter Limiter
	// Fatal reports errors that stop the race at once (every copy would
	// fail the same way). nil means errors that are not retry.Transient.
	Fatal func(error) bool
	// Clock defaults to the wall clock.
	Clock clock.Clock

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
// The first copy runs on the calling goroutine and a timer arms the
// hedge, so a call whose first copy answers before the delay starts no
// goroutine. Extra copies run on goroutines of their own. When one of
// them wins, the first copy's context is cancelled and Do returns once
// that copy has returned: hedged operations must honour their context
// (HTTP and gRPC clients do), as every operation in a request should.
func Do[T any](ctx context.Context, p *Policy, op Op[T]) (T, error) {
	var zero T
	if op.fn == nil {
		return zero, errors.New("hedge: Op not made with hedge.Idempotent")
	}
	if err := ctx.Err(); err != nil {
		return zero, err
	}
	if p.Budget != nil {
		p.Budget.Deposit()
	}
	r := &race[T]{p: p, op: op, parent: ctx, max: p.MaxAttempts, sent: 1}
	if r.max <= 0 {
		r.max = 2
	}
	r.ctx, r.cancel = context.WithCancel(ctx)
	defer r.cancel()
	if p.Delay <= 0 { // latencies feed only the adaptive delay
		r.now = clock.Or(p.Clock).Now
	}
	defer r.end()
	if r.max > 1 {
		p.sched.arm(r, p.CurrentDelay(), true)
	} else {
		p.metrics.calls.Add(1)
	}
	first := r.attempt(0)
	return r.settle(first)
}

// race is one call of Do: the first copy on the caller's goroutine, extra
// copies on their own, all under ctx, which the winner cancels.
type race[T any] struct {
	p      *Policy
	op     Op[T]
	parent context.Context
	ctx    context.Context
	cancel context.CancelFunc
	now    func() time.Time // nil: latencies are not recorded
	max    int
	endedFlag

	mu      sync.Mutex
	sent    int            // copies started, the first included
	running int            // extra copies whose results are not read yet
	over    bool           // Do is returning: start nothing more
	results chan result[T] // extra copies' results; buffered, never blocks
}

type result[T any] struct {
	v       T
	err     error
	attempt int
	took    time.Duration
}

// attempt runs copy n under the race context, holding a limiter permit
// for exactly as long as the operation runs.
func (r *race[T]) attempt(n int) result[T] {
	if l := r.p.Limiter; l != nil {
		if err := l.Acquire(r.ctx); err != nil {
			return result[T]{err: err, attempt: n}
		}
		defer l.Release()
	}
	if n > 0 && r.ctx.Err() != nil {
		// Decided while this copy waited to start: do not send it.
		return result[T]{err: r.ctx.Err(), attempt: n}
	}
	var start time.Time
	if r.now != nil {
		start = r.now()
	}
	v, err := r.op.fn(r.ctx)
	res := result[T]{v: v, err: err, attempt: n}
	if r.now != nil {
		res.took = r.now().Sub(start)
	}
	return res
}

// fire sends the next copy if attempts and budget allow; the scheduler
// calls it when the copy is due.
func (r *race[T]) fire() (next time.Duration, again bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.over || r.sent >= r.max || !r.allowed() {
		return 0, false
	}
	r.launch()
	return r.p.CurrentDelay(), r.sent < r.max
}

// end marks the call as returned, for the scheduler.
func (r *race[T]) end() {
	r.mu.Lock()
	r.over = true
	r.mu.Unlock()
	r.endedFlag.v.Store(true)
}

// allowed asks the budget for an extra copy. r.mu held.
func (r *race[T]) allowed() bool {
	if r.p.Budget != nil && !r.p.Budget.Withdraw() {
		r.p.metrics.denials.Add(1)
		return false
	}
	return true
}

// launch starts the next copy on its own goroutine. r.mu held.
func (r *race[T]) launch() {
	if r.results == nil {
		r.results = make(chan result[T], r.max)
	}
	n := r.sent
	r.sent++
	r.running++
	r.p.metrics.hedges.Add(1)
	go func() {
		res := r.attempt(n)
		r.results <- res
		// A success or a fatal error ends the race: stop the others (the
		// first copy among them) now rather than when Do reads this.
		if res.err == nil || r.p.fatal(res.err) {
			r.cancel()
		}
	}()
}

// settle decides the call once the first copy has returned, waiting for
// extra copies when the first did not succeed.
func (r *race[T]) settle(first result[T]) (T, error) {
	var zero T
	if first.err == nil {
		if won, ok := r.finish(true); ok { // an extra copy succeeded first
			r.won(won)
			return won.v, nil
		}
		r.won(first)
		return first.v, nil
	}
	lastErr := first.err
	stopped := r.ctx.Err() != nil && r.parent.Err() == nil // another copy ended the race
	if stopped {
		r.p.metrics.cancelled.Add(1) // the first copy lost
	} else {
		if err := r.parent.Err(); err != nil {
			r.finish(false)
			return zero, err
		}
		if r.p.fatal(first.err) {
			r.finish(false)
			return zero, first.err
		}
	}
	for {
		r.mu.Lock()
		if r.running == 0 {
			if stopped || r.sent >= r.max || !r.allowed() {
				r.over = true
				r.mu.Unlock()
				return zero, lastErr
			}
			r.launch() // every copy so far failed fast: send the next now
		}
		r.mu.Unlock()
		select {
		case res := <-r.results:
			r.mu.Lock()
			r.running--
			r.mu.Unlock()
			if res.err == nil {
				r.finish(false)
				r.won(res)
				return res.v, nil
			}
			lastErr = res.err
			if err := r.parent.Err(); err != nil {
				r.finish(false)
				return zero, err
			}
			if r.p.fatal(res.err) {
				r.finish(false)
				return zero, res.err
			}
		case <-r.parent.Done():
			r.finish(false)
			return zero, r.parent.Err()
		}
	}
}

// finish ends the race: nothing more starts, and copies still running
// count as cancelled losers. With firstWon, it first looks for an extra
// copy's success already delivered, which beat the first copy, and
// returns it.
func (r *race[T]) finish(firstWon bool) (result[T], bool) {
	r.mu.Lock()
	r.over = true
	running := r.running
	r.mu.Unlock()
	if firstWon {
		for range running {
			select {
			case res := <-r.results:
				running--
				if res.err == nil {
					r.p.metrics.cancelled.Add(uint64(running))
					return res, true
				}
			default:
			}
		}
	}
	r.p.metrics.cancelled.Add(uint64(running))
	return result[T]{}, false
}

// won records the winner's latency and whether an extra copy won.
func (r *race[T]) won(res result[T]) {
	if r.now != nil {
		r.p.lat.add(res.took)
	}
	if res.attempt > 0 {
		r.p.metrics.wins.Add(1)
	}
}

func (p *Policy) fatal(err error) bool {
	if p.Fatal != nil {
		return p.Fatal(err)
	}
	return !retry.Transient(err)
}

// latencies is a decaying log-scale histogram of recent latencies: adding
// is O(1), a quantile is a scan of 128 counters, and old samples fade as the
// counts are halved every 1024 additions.
type latencies struct {
	mu     sync.Mutex
	counts [128]uint32
	total  uint32
	adds   uint32
}

// bucket i covers [2^(i/4), 2^((i+1)/4)) microseconds: 19% resolution
// from 1 µs to 2^32 µs (71 minutes).
func bucketOf(d time.Duration) int {
	us := d.Microseconds()
	if us < 1 {
		return 0
	}
	i := 0
	for v := us; v > 1; v >>= 1 {
		i += 4
	}
	// Refine within the power of two by quarters.
	base := int64(1) << (i / 4)
	for q := 1; q < 4 && float64(us) >= float64(base)*pow2q(q); q++ {
		i++
	}
	if i > 127 {
		i = 127
	}
	return i
}

func pow2q(q int) float64 { return [4]float64{1, 1.189207, 1.414214, 1.681793}[q] }

func bucketUpper(i int) time.Duration {
	us := float64(int64(1)<<(i/4)) * pow2q(i%4)
	return time.Duration(us * float64(time.Microsecond) * 1.189207)
}

func (l *latencies) add(d time.Duration) {
	l.mu.Lock()
	l.counts[bucketOf(d)]++
	l.total++
	l.adds++
	if l.adds >= 1024 {
		l.adds, l.total = 0, 0
		for i := range l.counts {
			l.counts[i] /= 2
			l.total += l.counts[i]
		}
	}
	l.mu.Unlock()
}

func (l *latencies) quantile(q float64) (time.Duration, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.total < 20 {
		return 0, false
	}
	// The q-quantile is the value of rank ceil(q·n).
	want := uint32(math.Ceil(q * float64(l.total)))
	var seen uint32
	for i, c := range l.counts {
		seen += c
		if seen >= want {
			return bucketUpper(i), true
		}
	}
	return bucketUpper(len(l.counts) - 1), true
}
