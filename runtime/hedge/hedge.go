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
	r := &race[T]{p: p, op: op, parent: ctx, max: 2, sent: 1, winner: -1}
	if p.MaxAttempts > 0 {
		r.max = int32(min(p.MaxAttempts, 1<<20))
	}
	r.timed = p.Delay <= 0 // latencies feed only the adaptive delay
	r.first.init(ctx)
	if r.max > 1 {
		p.sched.arm(r, p.CurrentDelay(), true)
	} else {
		p.metrics.calls.Add(1)
	}
	first := r.attempt(&r.first, 0)
	res := r.settle(first)
	r.end(res)
	return res.v, res.err
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
