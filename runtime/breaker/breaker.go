// Package breaker is a circuit breaker: when a dependency fails or slows
// down, it stops sending it calls for a cooldown (failing fast instead of
// holding workers), then lets a few probes through and closes again only
// if they succeed.
//
// States: Closed (calls pass, outcomes recorded in a sliding window) →
// Open (calls rejected with an *OpenError that says when to retry) →
// HalfOpen (at most Settings.Probes calls at once; all of them succeeding
// closes the circuit, any failure opens it again).
//
// A timeout bounds one call; a breaker removes the demand. Use one breaker
// per failure domain (a dependency, sometimes a host: see Group), inside
// the retry layer, which must treat an open circuit as not retryable (the
// runtime's retry package does):
//
//	deadline → retry (budget, remaining deadline) → breaker → per-attempt timeout
//
// A Breaker is safe for concurrent use.
package breaker

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"time"

	"github.com/resilvet/resilvet/runtime/internal/clock"
)

// State is the circuit's state; its numeric value is the conventional
// gauge (0 closed, 1 half-open, 2 open).
type State int32

const (
	Closed State = iota
	HalfOpen
	Open
)

func (s State) String() string {
	switch s {
	case Closed:
		return "closed"
	case HalfOpen:
		return "half-open"
	case Open:
		return "open"
	}
	return fmt.Sprintf("State(%d)", int32(s))
}

// ErrOpen is the breaker's rejection; the error returned is an *OpenError
// for which errors.Is(err, ErrOpen) holds.
var ErrOpen = errors.New("breaker: circuit open")

// OpenError is returned instead of calling the dependency.
type OpenError struct {
	Name  string
	State State         // Open, or HalfOpen with all probe slots taken
	After time.Duration // when a call may be admitted again
}

func (e *OpenError) Error() string {
	name := ""
	if e.Name != "" {
		name = " " + e.Name
	}
	return fmt.Sprintf("breaker%s: circuit %s; retry after %v", name, e.State, e.After.Round(time.Millisecond))
}

// Is makes errors.Is(err, ErrOpen) true.
func (e *OpenError) Is(target error) bool { return target == ErrOpen }

// RetryAfter tells callers (and HTTP handlers answering 503) when to try
// again.
func (e *OpenError) RetryAfter() time.Duration { return e.After }

// CircuitOpen marks the error as a breaker rejection, which retry layers
// never retry.
func (e *OpenError) CircuitOpen() bool { return true }

// Outcome classifies a call's result.
type Outcome int

const (
	// Success counts toward closing.
	Success Outcome = iota
	// Failure counts toward opening.
	Failure
	// Ignore counts as neither: the caller cancelled, or the result says
	// nothing about the dependency's health.
	Ignore
)

// String returns "success", "failure" or "ignore": a metric label.
func (o Outcome) String() string {
	switch o {
	case Success:
		return "success"
	case Failure:
		return "failure"
	case Ignore:
		return "ignore"
	}
	return fmt.Sprintf("Outcome(%d)", int(o))
}

// ClientError marks err as the caller's fault (a validation error, an
// HTTP 4xx): the dependency answered, so the call counts as a success.
func ClientError(err error) error {
	if err == nil {
		return nil
	}
	return &clientError{err}
}

type clientError struct{ err error }

func (c *clientError) Error() string { return c.err.Error() }
func (c *clientError) Unwrap() error { return c.err }

// Classify is the default classifier: nil is a success; an error marked
// with ClientError is a success; a context error while the caller's
// context is done is ignored (the caller gave up, the dependency may be
// fine); every other error is a failure (a per-call timeout the caller
// did not ask for included).
func Classify(ctx context.Context, err error) Outcome {
	if err == nil {
		return Success
	}
	// AsType, not As: As makes its target escape, and every failure on
	// the closed path would allocate.
	if _, ok := errors.AsType[*clientError](err); ok {
		return Success
	}
	if ctx.Err() != nil && (errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded)) {
		return Ignore
	}
	return Failure
}

// WindowKind selects how outcomes are kept.
type WindowKind int

const (
	// CountWindow keeps the last WindowSize outcomes: exact rates.
	CountWindow WindowKind = iota
	// TimeWindow keeps the outcomes of the last WindowDuration, in ten
	// buckets.
	TimeWindow
)

// Settings configure a Breaker. Every field's zero value means the default
// given in its comment.
type Settings struct {
	// Name labels errors and hooks.
	Name string
	// Window is CountWindow (default) or TimeWindow.
	Window WindowKind
	// WindowSize is the number of outcomes a CountWindow keeps. 0 means 100.
	WindowSize int
	// WindowDuration is the span of a TimeWindow. 0 means 60 s.
	WindowDuration time.Duration
	// MinCalls is how many outcomes the window must hold before the
	// breaker judges: two failures of three at 3 a.m. must not open it.
	// 0 means 10. A CountWindow never holds more than WindowSize
	// outcomes, so a larger MinCalls (the default, with WindowSize under
	// 10) is lowered to WindowSize rather than leave a breaker that can
	// never open.
	MinCalls int
	// FailureRate opens the circuit when failures/calls reaches it.
	// 0 means 0.5; above 1, a rate no window reaches, means 1 (every call
	// in the window failed).
	FailureRate float64
	// SlowCall is the duration above which a call counts as slow (set it
	// above the normal p99 and below the per-call timeout). 0 disables
	// slow-call tracking.
	SlowCall time.Duration
	// SlowCallRate opens the circuit when slow/calls reaches it. 0 means
	// 1.0 (every call in the window slow), and so does anything above 1.
	SlowCallRate float64
	// Cooldown is how long the circuit stays open. 0 means 5 s.
	Cooldown time.Duration
	// CooldownJitter spreads cooldowns of a fleet by ± this fraction so
	// instances do not probe in sync. 0 means 0.1; negative disables.
	CooldownJitter float64
	// CooldownGrowth multiplies the cooldown each time probes fail and the
	// circuit opens again, up to MaxCooldown. 0 or 1 means no growth.
	CooldownGrowth float64
	// MaxCooldown caps a growing cooldown. 0 means 60 s.
	MaxCooldown time.Duration
	// Probes is how many calls the half-open circuit admits at once; the
	// circuit closes when that many succeed. 0 means 3.
	Probes int
	// HalfOpenTimeout bounds how long probes may hang: when the circuit
	// has been half-open this long with probes still in flight, they
	// count as failed and the circuit opens again (instead of refusing
	// every call until a hung probe returns). 0 means 30 s; negative
	// disables.
	HalfOpenTimeout time.Duration
	// Classify decides each call's Outcome. nil means Classify.
	Classify func(ctx context.Context, err error) Outcome
	// OnStateChange is called after every transition, never with the
	// breaker's lock held; calls are serialised per breaker.
	OnStateChange func(name string, from, to State)
	// OnReject, if set, is called for every call the breaker refuses
	// (the calls Metrics.Rejections counts) with the *OpenError that call
	// returns, which the hook must not modify. It runs on the refused
	// caller's goroutine before Do, Execute, Allow or Transport.RoundTrip
	// returns, never with the breaker's lock held, possibly concurrently
	// with other calls of it: it must be safe for concurrent use, and
	// quick. Unset, it costs nothing; set, a function call per rejection,
	// which takes the lock anyway.
	OnReject func(name string, err *OpenError)
	// OnOutcome, if set, is called once for every admitted call whose
	// outcome is reported: by Do and Execute when fn returns (a panic is
	// a Failure), by the first Done.Report or Done.Record, and so by
	// Transport for every request it sends. It gets the outcome as
	// classified, Ignore included, and took, the call's duration on the
	// breaker's clock from its admission to its outcome (for Transport,
	// until the response's headers). Outcomes the breaker does not count
	// (Ignore, or a call admitted before a state change) are reported
	// too, so admitted calls are OnOutcome's calls and refused calls
	// OnReject's. It runs on the caller's goroutine before Do (or Report,
	// or Record) returns, before any transition the outcome causes and
	// never with the breaker's lock held, possibly concurrently with
	// other calls of it: it must be safe for concurrent use, and quick.
	//
	// Unset, it costs nothing: the closed circuit's lock-free path (a
	// count window without SlowCall) neither allocates nor reads the
	// clock. Set, that path reads the clock twice per call to time it
	// (two time.Now calls on the wall clock); every other path reads the
	// clock already. Neither allocates.
	OnOutcome func(name string, o Outcome, took time.Duration)
	// Clock defaults to the wall clock.
	Clock clock.Clock
	// Rand returns a number in [0, 1) for cooldown jitter. nil uses
	// math/rand/v2.
	Rand func() float64
}

// Metrics is a snapshot of a breaker.
type Metrics struct {
	State          State
	Transitions    uint64 // state changes so far
	Rejections     uint64 // calls refused while open or with probe slots taken
	ProbeSuccesses uint64
	ProbeFailures  uint64
	Calls          int     // outcomes in the window
	FailureRate    float64 // failures / calls in the window
	SlowRate       float64 // slow calls / calls in the window
}

// Breaker is a circuit breaker. Create it with New.
type Breaker struct {
	// closed is the window of the current closed period while the closed
	// state runs lock-free (fast), nil in any other state: the one word
	// the lock-free path reads, first in the struct so that its cache line
	// holds read-only settings and not the mutex. A transition replaces
	// it in one store under mu, so a caller sees a closed period together
	// with that period's window, or no closed period; and as closing
	// installs a fresh window rather than clearing the old one, callers
	// still finishing calls of an ended period write into a window that
	// decides nothing any more.
	closed atomic.Pointer[countWindow]

	s        Settings
	now      func() time.Time
	rand     func() float64
	classify func(context.Context, error) Outcome

	// fast is set for a count window without slow-call tracking: the
	// closed state then admits and records calls without the mutex or a
	// clock read, through closed.
	fast bool

	mu         sync.Mutex
	state      State
	generation uint64
	win        window // the current period's; closed's, when that is set
	openUntil  time.Time
	halfOpenAt time.Time
	opens      int // consecutive opens without closing, for growth
	probes     int // probes in flight
	probeOK    int // successful probes in this half-open period
	m          Metrics

	hookMu sync.Mutex // orders hook calls without holding mu
}

// New returns a closed Breaker with s's settings.
func New(s Settings) *Breaker {
	if s.WindowSize <= 0 {
		s.WindowSize = 100
	}
	if s.WindowDuration <= 0 {
		s.WindowDuration = 60 * time.Second
	}
	if s.MinCalls <= 0 {
		s.MinCalls = 10
	}
	if s.Window != TimeWindow && s.MinCalls > s.WindowSize {
		s.MinCalls = s.WindowSize
	}
	s.FailureRate = rateOr(s.FailureRate, 0.5)
	s.SlowCallRate = rateOr(s.SlowCallRate, 1)
	if s.Cooldown <= 0 {
		s.Cooldown = 5 * time.Second
	}
	if s.CooldownJitter == 0 {
		s.CooldownJitter = 0.1
	}
	if s.MaxCooldown <= 0 {
		s.MaxCooldown = 60 * time.Second
	}
	if s.Probes <= 0 {
		s.Probes = 3
	}
	if s.HalfOpenTimeout == 0 {
		s.HalfOpenTimeout = 30 * time.Second
	}
	b := &Breaker{s: s, now: clock.Or(s.Clock).Now, rand: s.Rand, classify: s.Classify}
	if b.rand == nil {
		b.rand = rand.Float64
	}
	if b.classify == nil {
		b.classify = Classify
	}
	b.fast = s.Window != TimeWindow && s.SlowCall == 0
	b.startClosed(b.now()) // no lock: b is not shared yet
	return b
}

// rateOr is a rate setting r: def when unset (or not a number), 1 when
// above 1, which failures or slow calls over calls never exceed: a rate
// that can never be reached would disable the breaker without a word.
func rateOr(r, def float64) float64 {
	switch {
	case !(r > 0):
		return def
	case r > 1:
		return 1
	}
	return r
}

// Name returns the breaker's name.
func (b *Breaker) Name() string { return b.s.Name }

// State returns the current state, moving Open to HalfOpen when the
// cooldown has passed.
func (b *Breaker) State() State {
	b.mu.Lock()
	st := b.stateAt(b.now())
	b.mu.Unlock()
	return st
}

// stateAt is the state a call at now finds: an open circuit whose
// cooldown has ended admits probes, so it is half-open, though no call
// has moved it yet. b.mu held.
func (b *Breaker) stateAt(now time.Time) State {
	if b.state == Open && !now.Before(b.openUntil) {
		return HalfOpen
	}
	return b.state
}

// Metrics returns a snapshot. Its State is State's.
func (b *Breaker) Metrics() Metrics {
	b.mu.Lock()
	defer b.mu.Unlock()
	now := b.now()
	m := b.m
	m.State = b.stateAt(now)
	m.Calls, m.FailureRate, m.SlowRate = b.win.rates(now)
	return m
}

// Do calls fn if the circuit admits the call, records its outcome, and
// returns its error, or an *OpenError without calling fn. A panic in fn
// counts as a failure and goes on unchanged (it is not recovered).
func (b *Breaker) Do(ctx context.Context, fn func(context.Context) error) error {
	if w := b.closed.Load(); w != nil {
		return b.doClosed(ctx, w, fn)
	}
	start := b.now()
	gen, probe, err := b.admit(start)
	if err != nil {
		return err
	}
	returned := false
	defer func() {
		if !returned { // fn panicked: a failure; the panic goes on
			end := b.now()
			b.observe(Failure, end.Sub(start))
			b.finish(gen, probe, Failure, end.Sub(start), end)
		}
	}()
	err = fn(ctx)
	returned = true
	end := b.now()
	o := b.classify(ctx, err)
	b.observe(o, end.Sub(start))
	b.finish(gen, probe, o, end.Sub(start), end)
	return err
}

// doClosed is Do's lock-free path for a closed circuit; w is the window
// of the closed period the call starts in.
func (b *Breaker) doClosed(ctx context.Context, w *countWindow, fn func(context.Context) error) error {
	if b.s.OnOutcome != nil {
		return b.doClosedTimed(ctx, w, fn)
	}
	returned := false
	defer func() {
		if !returned { // fn panicked: a failure; the panic goes on
			b.recordClosed(w, Failure)
		}
	}()
	err := fn(ctx)
	returned = true
	b.recordClosed(w, b.classify(ctx, err))
	return err
}

// recordClosed records an outcome of a call admitted lock-free in the
// closed period whose window is w, taking the mutex only to open the
// circuit.
func (b *Breaker) recordClosed(w *countWindow, o Outcome) {
	// The outcome of a period that has ended is stale, as on the locked
	// path. This check saves the write; it is not what keeps the current
	// window right: a caller past it when the period ends writes into w,
	// which the next closed period does not use.
	if o == Ignore || b.closed.Load() != w {
		return
	}
	calls, failures, judge := w.record(o == Failure, false)
	// The same comparison as the locked path, so both agree exactly.
	if !judge || calls < int64(b.s.MinCalls) || float64(failures)/float64(calls) < b.s.FailureRate {
		return
	}
	now := b.now()
	b.mu.Lock()
	var t transition
	moved := false
	if b.closed.Load() == w { // still the period that judged
		t, moved = b.open(now), true
	}
	b.mu.Unlock()
	if moved {
		b.notify(t)
	}
}

// Execute is Do for a function that returns a value.
func Execute[T any](ctx context.Context, b *Breaker, fn func(context.Context) (T, error)) (T, error) {
	var v T
	err := b.Do(ctx, func(ctx context.Context) error {
		var err error
		v, err = fn(ctx)
		return err
	})
	return v, err
}

// Done reports the outcome of a call admitted by Allow. Call it exactly
// once; further calls are ignored.
type Done struct {
	b          *Breaker
	generation uint64
	probe      bool
	start      time.Time
	used       bool
}

// Allow is the two-step form of Do, for calls that cannot be wrapped in a
// function: it admits a call or returns an *OpenError, and the returned
// Done must receive the call's outcome.
func (b *Breaker) Allow() (*Done, error) {
	now := b.now()
	gen, probe, err := b.admit(now)
	if err != nil {
		return nil, err
	}
	return &Done{b: b, generation: gen, probe: probe, start: now}, nil
}

// admit decides whether a call starting now may proceed.
func (b *Breaker) admit(now time.Time) (generation uint64, probe bool, err error) {
	b.mu.Lock()
	var changed transition
	moved := false
	if b.state == Open && !now.Before(b.openUntil) {
		changed, moved = b.setState(HalfOpen, now), true
	} else if b.state == HalfOpen && b.probes > 0 && b.s.HalfOpenTimeout > 0 && now.Sub(b.halfOpenAt) >= b.s.HalfOpenTimeout {
		// The probes hang: count them failed and open again; their
		// outcomes, if they ever come, belong to an old generation.
		b.m.ProbeFailures += uint64(b.probes)
		changed, moved = b.open(now), true
	}
	var refused *OpenError
	switch b.state {
	case Open:
		b.m.Rejections++
		refused = &OpenError{Name: b.s.Name, State: Open, After: b.openUntil.Sub(now)}
	case HalfOpen:
		if b.probes >= b.s.Probes {
			b.m.Rejections++
			refused = &OpenError{Name: b.s.Name, State: HalfOpen}
		} else {
			b.probes++
			probe = true
		}
	}
	generation = b.generation
	b.mu.Unlock()
	if moved {
		b.notify(changed)
	}
	if refused != nil {
		b.reject(refused)
		return generation, false, refused
	}
	return generation, probe, nil
}

// Report records the outcome of the call, classifying err with the
// breaker's classifier against ctx.
func (d *Done) Report(ctx context.Context, err error) {
	d.record(d.b.classify(ctx, err), d.b.now().Sub(d.start))
}

// Record records an outcome classified by the caller.
func (d *Done) Record(o Outcome) { d.record(o, d.b.now().Sub(d.start)) }

func (d *Done) record(o Outcome, took time.Duration) {
	if d == nil || d.used {
		return
	}
	d.used = true
	d.b.observe(o, took)
	d.b.finish(d.generation, d.probe, o, took, d.b.now())
}

// finish records the outcome of a call admitted in generation.
func (b *Breaker) finish(generation uint64, probe bool, o Outcome, took time.Duration, now time.Time) {
	slow := b.s.SlowCall > 0 && took > b.s.SlowCall
	b.mu.Lock()
	if generation != b.generation {
		// Admitted in an earlier state: its outcome is stale.
		b.mu.Unlock()
		return
	}
	var changed transition
	moved := false
	switch b.state {
	case Closed:
		if o == Ignore {
			break
		}
		b.win.add(now, o == Failure, slow)
		calls, fr, sr := b.win.rates(now)
		if calls >= b.s.MinCalls && (fr >= b.s.FailureRate || b.s.SlowCall > 0 && sr >= b.s.SlowCallRate) {
			changed, moved = b.open(now), true
		}
	case HalfOpen:
		if !probe {
			break
		}
		b.probes--
		switch {
		case o == Failure || o == Success && slow:
			b.m.ProbeFailures++
			changed, moved = b.open(now), true
		case o == Success:
			b.m.ProbeSuccesses++
			b.probeOK++
			if b.probeOK >= b.s.Probes {
				b.opens = 0
				changed, moved = b.setState(Closed, now), true
			}
		}
	}
	b.mu.Unlock()
	if moved {
		b.notify(changed)
	}
}

type transition struct{ from, to State }

// open moves to Open with a jittered, possibly grown cooldown. mu held.
func (b *Breaker) open(now time.Time) transition {
	cool := float64(b.s.Cooldown)
	if g := b.s.CooldownGrowth; g > 1 {
		for range b.opens {
			cool *= g
			if cool >= float64(b.s.MaxCooldown) {
				cool = float64(b.s.MaxCooldown)
				break
			}
		}
	}
	if j := b.s.CooldownJitter; j > 0 {
		cool *= 1 + j*(2*b.rand()-1)
	}
	b.opens++
	b.openUntil = now.Add(time.Duration(cool))
	return b.setState(Open, now)
}

// setState changes state, starting a new generation. mu held.
func (b *Breaker) setState(to State, now time.Time) transition {
	from := b.state
	b.state = to
	b.generation++
	b.m.Transitions++
	b.probes, b.probeOK = 0, 0
	if to == HalfOpen {
		b.halfOpenAt = now
	}
	if to == Closed {
		b.startClosed(now)
	} else {
		b.closed.Store(nil)
	}
	return transition{from, to}
}

// startClosed gives a closed period its window, a fresh one: clearing the
// old one would race with lock-free callers still recording into it, and
// leave slots filled that its totals do not count (the totals only grow
// when an empty slot fills, so once they fall below MinCalls with every
// slot filled, the circuit never opens again). Then one store tells the
// lock-free path about the period and its window together. mu held.
func (b *Breaker) startClosed(now time.Time) {
	switch {
	case b.s.Window == TimeWindow:
		b.win = newTimeWindow(b.s.WindowDuration, now)
	case !b.fast:
		b.win = newCountWindow(b.s.WindowSize)
	default:
		w := newCountWindow(b.s.WindowSize)
		b.win = w
		b.closed.Store(w)
	}
}
