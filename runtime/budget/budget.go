// Package budget bounds the extra attempts (retries and hedges) that many
// requests may make together, so that a failing dependency sees a bounded
// multiple of its normal load instead of a retry storm.
//
// Two kinds are provided. Ratio is Finagle's retry budget: extra attempts
// may be at most Ratio times the real requests of a sliding window, plus a
// floor per second so low-traffic callers can still retry. TokenBucket is
// gRPC's retry throttling: failures take a token, successes return a
// fraction of one, and extra attempts stop while the bucket is at or below
// half full.
//
// Three stacked layers each with a 10% budget amplify load by at most
// 1.1³ ≈ 1.33×, against 27× for three layers of 3 attempts.
//
// Both kinds are exact under concurrency (a mutex, not optimistic
// counters): they never grant more than their bound.
package budget

import (
	"math"
	"sync"
	"time"

	"github.com/resilvet/resilvet/runtime/internal/clock"
	"github.com/resilvet/resilvet/runtime/internal/slots"
)

// Budget is what retry and hedge layers draw on. Implementations are safe
// for concurrent use.
type Budget interface {
	// Deposit records one real request: a logical request's first
	// attempt. The runtime's layers that share a budget (a retry around a
	// hedge) deposit once per logical request between them.
	Deposit()
	// Withdraw asks for one extra attempt and reports whether it may be
	// made; a granted attempt is consumed.
	Withdraw() bool
}

// Outcome is implemented by budgets that learn from results (TokenBucket).
// Retry and hedge layers report every attempt's outcome to a Budget that
// implements it.
type Outcome interface {
	Success()
	Failure()
}

// Ratio is a sliding-window retry budget. The zero value is ready to use
// with the defaults documented on each field.
type Ratio struct {
	// Ratio is the number of extra attempts allowed per real request.
	// 0 means 0.1 (10%).
	Ratio float64
	// MinPerSecond is a floor of extra attempts per second of the window,
	// allowed whatever the traffic. 0 means 10; negative means none.
	MinPerSecond float64
	// Window is the sliding window the counts are kept over, in ten
	// slots. 0 means 10 s.
	Window time.Duration
	// Clock defaults to the wall clock.
	Clock clock.Clock

	mu      sync.Mutex
	origin  time.Time // the first reading; slots count from it
	started bool      // origin is set (a fake clock may read the zero time)
	counts  slots.Ring[counts]
}

type counts struct{ deposits, withdrawals int64 }

// Deposit records one real request.
func (r *Ratio) Deposit() {
	r.mu.Lock()
	_, cur := r.slot()
	cur.deposits++
	r.mu.Unlock()
}

// Withdraw grants one extra attempt if the window's extra attempts, this
// one included, stay within Ratio × requests + MinPerSecond × window.
func (r *Ratio) Withdraw() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	epoch, cur := r.slot()
	deposits, withdrawals := r.totals(epoch)
	if float64(withdrawals+1) > r.allowance(deposits) {
		return false
	}
	cur.withdrawals++
	return true
}

// Available returns how many extra attempts would be granted now.
func (r *Ratio) Available() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	epoch, _ := r.slot()
	deposits, withdrawals := r.totals(epoch)
	return max(0, int(math.Floor(r.allowance(deposits)))-int(withdrawals))
}

func (r *Ratio) allowance(deposits int64) float64 {
	ratio := r.Ratio
	if ratio == 0 {
		ratio = 0.1
	}
	floor := r.MinPerSecond
	if floor == 0 {
		floor = 10
	}
	if floor < 0 {
		floor = 0
	}
	// A small epsilon keeps 0.1 × 30 from landing just below 3.
	return ratio*float64(deposits) + floor*r.window().Seconds() + 1e-9
}

func (r *Ratio) window() time.Duration {
	if r.Window <= 0 {
		return 10 * time.Second
	}
	return r.Window
}

// slot returns the epoch of the current time and its counts. Slots count
// the time elapsed since the first reading, which for the wall clock is
// monotonic: a clock step neither resets the window (granting a fresh
// allowance) nor freezes it. r.mu held.
func (r *Ratio) slot() (int64, *counts) {
	c := clock.Or(r.Clock)
	if !r.started {
		r.origin, r.started = c.Now(), true
	}
	epoch := slots.Epoch(max(0, clock.Since(c, r.origin)), r.window()/slots.N)
	return epoch, r.counts.At(epoch)
}

// totals sums the counts of the window ending in slot epoch.
func (r *Ratio) totals(epoch int64) (deposits, withdrawals int64) {
	r.counts.Sum(epoch, func(c *counts) {
		deposits += c.deposits
		withdrawals += c.withdrawals
	})
	return deposits, withdrawals
}

// TokenBucket is gRPC-style retry throttling. The zero value is ready to
// use with the defaults documented on each field; the bucket starts full.
type TokenBucket struct {
	// MaxTokens is the bucket's size. 0 means 10.
	MaxTokens float64
	// TokenRatio is what a success returns. 0 means 0.1.
	TokenRatio float64

	mu     sync.Mutex
	tokens float64
	init   bool
}

func (t *TokenBucket) defaults() (maxTokens, ratio float64) {
	maxTokens, ratio = t.MaxTokens, t.TokenRatio
	if maxTokens <= 0 {
		maxTokens = 10
	}
	if ratio <= 0 {
		ratio = 0.1
	}
	if !t.init {
		t.tokens, t.init = maxTokens, true
	}
	return maxTokens, ratio
}

// Deposit does nothing: the bucket learns from outcomes, not requests.
func (t *TokenBucket) Deposit() {}

// Withdraw grants an extra attempt while the bucket is more than half
// full. Unlike Ratio it consumes nothing: failures drain the bucket.
func (t *TokenBucket) Withdraw() bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	maxTokens, _ := t.defaults()
	return t.tokens > maxTokens/2
}

// Success returns TokenRatio tokens, up to MaxTokens.
func (t *TokenBucket) Success() {
	t.mu.Lock()
	maxTokens, ratio := t.defaults()
	t.tokens = min(maxTokens, t.tokens+ratio)
	t.mu.Unlock()
}

// Failure takes one token, down to zero.
func (t *TokenBucket) Failure() {
	t.mu.Lock()
	t.defaults()
	t.tokens = max(0, t.tokens-1)
	t.mu.Unlock()
}

// Tokens returns the current number of tokens.
func (t *TokenBucket) Tokens() float64 {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.defaults()
	return t.tokens
}

var (
	_ Budget  = (*Ratio)(nil)
	_ Budget  = (*TokenBucket)(nil)
	_ Outcome = (*TokenBucket)(nil)
)
