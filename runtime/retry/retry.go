// Package retry retries transient failures with capped exponential backoff
// and full jitter, within a shared budget and the caller's deadline, and
// keeps retry layers from multiplying. Three layers of three attempts
// would send 27 attempts to a failing dependency; here a layer running
// inside another leaves the failures the outer layer retries to it.
//
// Every attempt runs with a context that says so (see Attempt): the
// attempt number, and what its layer retries. A layer that finds such a
// context from a live enclosing layer makes a single attempt for every
// error the enclosing layers would retry, and retries only the errors
// that its own policy alone retries (a database layer's "serialization
// failure" under an HTTP layer that knows nothing of it). So a stack of
// layers whose errors are of one kind makes at most the largest
// MaxAttempts among them. Across HTTP, Transport sends the attempt in a
// request header and Middleware puts it back into the server's context,
// for callers the server trusts. A layer whose policy sets AllowNested
// retries whatever it is inside, multiplying on purpose.
//
// A context made with context.WithoutCancel from an attempt's context,
// or used after the attempt returned (a background job it launched),
// starts a new logical operation: its layers retry in full, under any
// caller (context.Background included: an attempt's context always has a
// Done channel, its own when the caller's has none). Two detached
// contexts still count as nested: one given a deadline shorter than the
// attempt's while it runs, and context.WithCancel(context.WithoutCancel(c))
// under a caller with no deadline.
//
// Place it inside the request's deadline and outside the breaker:
//
//	deadline → retry (budget, remaining deadline) → breaker → per-attempt timeout
//
// Do and DoValue are safe for concurrent use with a shared Policy.
package retry

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"strconv"
	"syscall"
	"time"

	"github.com/resilvet/resilvet/runtime/budget"
	"github.com/resilvet/resilvet/runtime/internal/clock"
	"github.com/resilvet/resilvet/runtime/internal/layer"
)

// Errors that explain why Do stopped early. The error Do returns wraps both
// the reason and the last attempt's error, so errors.Is works for either.
var (
	ErrBudgetExhausted = errors.New("retry: budget exhausted")
	ErrNoTimeLeft      = errors.New("retry: not enough time left for another attempt")
	// ErrAttemptsExhausted: every attempt failed with a retryable error.
	ErrAttemptsExhausted = errors.New("retry: attempts exhausted")
)

// Policy configures Do. A nil *Policy, like the zero value, means the
// defaults documented on each field.
type Policy struct {
	// MaxAttempts counts the first attempt. 0 means 3; 1 means no retry.
	MaxAttempts int
	// BaseDelay is the backoff before the first retry, doubled for each
	// further one. 0 means 100 ms.
	BaseDelay time.Duration
	// MaxDelay caps the backoff. 0 means 10 s.
	MaxDelay time.Duration
	// Retryable decides whether an error may be retried. nil means
	// Transient, and also an attempt's own timeout (see Do). Do asks it
	// only while the caller's context is alive.
	Retryable func(error) bool
	// Budget, if set, receives a deposit for each logical request and
	// must grant every retry; budgets that implement budget.Outcome also
	// learn each attempt's outcome. Layers sharing one budget (a retry
	// around a hedge, two retry layers) deposit once per logical request
	// between them, and report each attempt's outcome once: the innermost
	// layer sharing the budget that the attempt went through reports it.
	Budget budget.Budget
	// AllowNested lets this layer retry every failure even when it runs
	// inside another retry layer, and lets outer layers retry what it
	// gave up on. Off by default: nested retries multiply.
	AllowNested bool
	// Clock defaults to the wall clock.
	Clock clock.Clock
	// Sleep waits d or until ctx is done. nil uses a timer; simulations
	// and tests inject a fake.
	Sleep func(ctx context.Context, d time.Duration) error
	// Rand returns a number in [0, 1) for jitter. nil uses math/rand/v2.
	Rand func() float64
	// OnRetry, if set, is called before each retry with the number of
	// the attempt that failed (1 for the first), its error and the delay
	// before the next attempt: the hook for metrics and logs. It runs on
	// the caller's goroutine and must not block.
	OnRetry func(attempt int, err error, delay time.Duration)
}

var defaultPolicy Policy

// Do calls fn until it succeeds, returns an error that is not retryable,
// runs out of attempts, budget or time, or ctx is done.
//
// Each attempt runs with a context derived from ctx that carries the
// attempt number and the layer (see Attempt): one small allocation per
// attempt. An attempt that fails with context.DeadlineExceeded while ctx
// is alive ran out of a deadline of its own (a per-attempt timeout) and
// is retried like any transient failure.
func Do(ctx context.Context, p *Policy, fn func(context.Context) error) error {
	_, err := DoValue(ctx, p, func(ctx context.Context) (struct{}, error) { return struct{}{}, fn(ctx) })
	return err
}

// DoValue is Do for a function that returns a value.
func DoValue[T any](ctx context.Context, p *Policy, fn func(context.Context) (T, error)) (T, error) {
	if p == nil {
		p = &defaultPolicy
	}
	var zero T
	if err := ctx.Err(); err != nil {
		return zero, err
	}
	// With a budget, the layer marks its attempts (see layer.Deposit): the
	// outermost layer sharing a budget deposits once for the request, and
	// each attempt's outcome is reported once, by the innermost layer
	// sharing the budget that the attempt went through.
	var deposit *layer.Deposit
	var first *markedAttempt // the first attempt's context, allocated with the mark
	if p.Budget != nil {
		if !layer.Deposited(ctx, p.Budget) {
			p.Budget.Deposit()
		}
		first = &markedAttempt{}
		deposit = &first.deposit
		deposit.Set(ctx, p.Budget)
	}
	var outer *attemptCtx // the live layer this one runs inside, if any
	if !p.AllowNested {
		outer = enclosing(ctx)
	}
	maxAttempts := p.MaxAttempts
	if maxAttempts <= 0 {
		maxAttempts = 3
	}
	// Attempt durations matter only against a deadline; without one, the
	// clock is not read at all.
	deadline, hasDeadline := ctx.Deadline()
	for n := 1; ; n++ {
		var start clock.Stamp
		if hasDeadline {
			start = clock.Start(p.Clock)
		}
		var attempt *attemptCtx
		if n == 1 && first != nil {
			attempt = &first.attemptCtx
		} else {
			attempt = new(attemptCtx)
		}
		attempt.Context, attempt.n, attempt.policy, attempt.retries, attempt.deposit = ctx, n, p, maxAttempts > 1, deposit
		var heard uint64
		if deposit != nil {
			heard = deposit.Heard()
		}
		v, err := fn(attempt)
		attempt.over.Store(true)
		// report is whether this layer tells the budget the attempt's
		// outcome: no layer further in sharing the budget did.
		report := deposit != nil && deposit.Heard() == heard
		if err == nil {
			if report {
				p.report(ctx, true)
			}
			return v, nil
		}
		if !p.AllowNested && retriedBelow(err) {
			return zero, err // a layer inside already retried this failure
		}
		if ctx.Err() != nil {
			if n == 1 {
				return zero, err
			}
			return zero, p.gaveUp(err, ctx.Err(), n)
		}
		if CircuitOpen(err) {
			return zero, err // never retried, whatever the classifier
		}
		if outer != nil && outer.retriesAbove(err) {
			return zero, err // a layer further out retries this; one attempt here
		}
		if !p.classify(err) {
			return zero, err
		}
		if report {
			p.report(ctx, false)
		}
		if n >= maxAttempts {
			if n == 1 {
				return zero, err
			}
			return zero, p.gaveUp(err, ErrAttemptsExhausted, n)
		}
		delay := p.backoff(n)
		if ra, ok := RetryAfter(err); ok && ra > delay {
			delay = ra
		}
		// Never sleep past the deadline, and do not start an attempt that
		// cannot finish: assume it takes as long as the last one.
		if hasDeadline && clock.Until(p.Clock, deadline) < delay+start.Elapsed(p.Clock) {
			return zero, p.gaveUp(err, ErrNoTimeLeft, n)
		}
		if p.Budget != nil && !p.Budget.Withdraw() {
			return zero, p.gaveUp(err, ErrBudgetExhausted, n)
		}
		if p.OnRetry != nil {
			p.OnRetry(n, err, delay)
		}
		if serr := p.sleep(ctx, delay); serr != nil {
			return zero, p.gaveUp(err, serr, n)
		}
	}
}

// retriedBelow reports whether err comes from a retry layer that gave up
// and did not allow nesting: retrying it again would multiply attempts.
// Inner layers retry only what no layer outside them retries, so this
// matters where an inner layer could not see the outer one (a context
// detached on the way).
func retriedBelow(err error) bool {
	var g *gaveUp
	return errors.As(err, &g) && !g.nestedOK
}

func (p *Policy) gaveUp(last, reason error, attempts int) error {
	return &gaveUp{last: last, reason: reason, attempts: attempts, nestedOK: p.AllowNested}
}

// report tells a budget that learns from outcomes how an attempt went,
// and the layers further out than ctx that share it that it heard.
func (p *Policy) report(ctx context.Context, success bool) {
	o, ok := p.Budget.(budget.Outcome)
	if !ok {
		return
	}
	if success {
		o.Success()
	} else {
		o.Failure()
	}
	layer.Reported(ctx, p.Budget)
}

// classify reports whether the policy retries err, which an attempt
// returned while the caller's context was alive.
func (p *Policy) classify(err error) bool {
	if p.Retryable != nil {
		return p.Retryable(err)
	}
	return transientAttempt(err)
}

// transientAttempt is the default classifier inside Do: Transient, and an
// attempt's own deadline expiring (the caller's context being alive, the
// deadline was the attempt's: a per-attempt timeout).
func transientAttempt(err error) bool {
	var m *marked
	if errors.As(err, &m) {
		return m.retry
	}
	if errors.Is(err, context.DeadlineExceeded) && !CircuitOpen(err) {
		return true
	}
	return Transient(err)
}

// backoff returns the full-jitter delay before retry n (n ≥ 1): uniform in
// [0, min(MaxDelay, BaseDelay·2ⁿ⁻¹)).
func (p *Policy) backoff(n int) time.Duration {
	base, ceiling := p.BaseDelay, p.MaxDelay
	if base <= 0 {
		base = 100 * time.Millisecond
	}
	if ceiling <= 0 {
		ceiling = 10 * time.Second
	}
	d := ceiling
	if shift := n - 1; shift < 62 && base <= ceiling>>shift {
		d = base << shift
	}
	r := rand.Float64
	if p.Rand != nil {
		r = p.Rand
	}
	return time.Duration(r() * float64(d))
}

func (p *Policy) sleep(ctx context.Context, d time.Duration) error {
	if p.Sleep != nil {
		return p.Sleep(ctx, d)
	}
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

type gaveUp struct {
	last, reason error
	attempts     int
	nestedOK     bool // the layer allowed nesting: outer layers may retry
}

func (g *gaveUp) Error() string {
	return fmt.Sprintf("%v (%v after %d attempts)", g.last, g.reason, g.attempts)
}

func (g *gaveUp) Unwrap() []error { return []error{g.last, g.reason} }

// Attempts returns how many attempts Do made before giving up on a
// retryable failure (out of attempts, budget, time, or cancelled); 0 when
// err did not come from such a give-up.
func Attempts(err error) int {
	var g *gaveUp
	if errors.As(err, &g) {
		return g.attempts
	}
	return 0
}

// Permanent marks err as not retryable, whatever its kind.
func Permanent(err error) error {
	if err == nil {
		return nil
	}
	return &marked{err: err, retry: false}
}

// Retry marks err as retryable, whatever its kind.
func Retry(err error) error {
	if err == nil {
		return nil
	}
	return &marked{err: err, retry: true}
}

type marked struct {
	err   error
	retry bool
}

func (m *marked) Error() string { return m.err.Error() }
func (m *marked) Unwrap() error { return m.err }

// StatusError is an HTTP response status as an error, for Do around an
// HTTP call: 429, 502, 503 and 504 are transient, other statuses are not.
type StatusError struct {
	Code int
	// After is the server's Retry-After pushback; 0 when absent.
	After time.Duration
}

// ResponseError returns a *StatusError for a response that is not 2xx or
// 3xx, reading its Retry-After header (seconds), or nil.
func ResponseError(resp *http.Response) error {
	if resp.StatusCode < 400 {
		return nil
	}
	e := &StatusError{Code: resp.StatusCode}
	if s, err := strconv.Atoi(resp.Header.Get("Retry-After")); err == nil && s > 0 {
		e.After = time.Duration(s) * time.Second
	}
	return e
}

func (e *StatusError) Error() string {
	return fmt.Sprintf("http status %d %s", e.Code, http.StatusText(e.Code))
}

// RetryAfter returns the server's pushback.
func (e *StatusError) RetryAfter() time.Duration { return e.After }

// Transient is the default Retryable: it retries only failures that are
// likely to pass on their own — timeouts and refused or reset
// connections, unexpected EOF, HTTP 429/502/503/504, and errors marked with
// Retry. It never retries errors marked Permanent, an open circuit (an
// error with a CircuitOpen() method returning true) or context errors:
// on its own it cannot tell whose deadline expired. Do can, and its
// default classifier also retries an attempt's own timeout.
func Transient(err error) bool {
	if err == nil {
		return false
	}
	if CircuitOpen(err) {
		return false
	}
	var m *marked
	if errors.As(err, &m) {
		return m.retry
	}
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return false
	}
	var se *StatusError
	if errors.As(err, &se) {
		switch se.Code {
		case http.StatusTooManyRequests, http.StatusBadGateway, http.StatusServiceUnavailable, http.StatusGatewayTimeout:
			return true
		}
		return false
	}
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() {
		return true
	}
	return errors.Is(err, syscall.ECONNREFUSED) || errors.Is(err, syscall.ECONNRESET) ||
		errors.Is(err, syscall.EPIPE) || errors.Is(err, io.ErrUnexpectedEOF)
}

// CircuitOpen reports whether err is, or wraps, a circuit breaker's
// rejection: an error with a CircuitOpen() bool method that returns true
// (breaker.OpenError has one; so can any breaker's). Do never retries it,
// whatever the policy's classifier says, and returns it at once: retrying
// would either be refused again or wait out the cooldown (an OpenError's
// RetryAfter) instead of failing fast, which is what the breaker is for.
// Layers further out see the same error and do the same.
func CircuitOpen(err error) bool {
	var open interface{ CircuitOpen() bool }
	return errors.As(err, &open) && open.CircuitOpen()
}

// RetryAfter returns how long err asks its caller to wait before trying
// again (a server's pushback or Retry-After: a RetryAfter() method, as
// StatusError, the gRPC adapter's errors and breaker.OpenError have), and
// whether it asks at all. Do waits at least that long before the next
// attempt; a hedge stops its race on such a failure and leaves the wait
// to the retry layer around it.
func RetryAfter(err error) (time.Duration, bool) {
	var ra interface{ RetryAfter() time.Duration }
	if errors.As(err, &ra) && ra.RetryAfter() > 0 {
		return ra.RetryAfter(), true
	}
	return 0, false
}
