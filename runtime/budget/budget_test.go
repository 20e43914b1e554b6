package budget_test

import (
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/resilvet/resilvet/runtime/budget"
	"github.com/resilvet/resilvet/runtime/internal/clock"
	"github.com/resilvet/resilvet/runtime/internal/leaktest"
)

func TestRatioZeroValueFloor(t *testing.T) {
	var r budget.Ratio
	r.Clock = clock.NewFake(time.Unix(1_000_000, 0))
	// Defaults: 10 per second over 10 s = 100 extra attempts with no traffic.
	granted := 0
	for r.Withdraw() {
		granted++
	}
	if granted != 100 {
		t.Fatalf("zero-value floor granted %d; want 100", granted)
	}
}

func TestRatio(t *testing.T) {
	fake := clock.NewFake(time.Unix(1_000_000, 0))
	r := &budget.Ratio{Ratio: 0.1, MinPerSecond: -1, Window: 10 * time.Second, Clock: fake}
	for range 30 {
		r.Deposit()
	}
	if got := r.Available(); got != 3 {
		t.Fatalf("Available = %d; want 3", got)
	}
	for i := range 3 {
		if !r.Withdraw() {
			t.Fatalf("withdrawal %d refused", i+1)
		}
	}
	if r.Withdraw() {
		t.Fatal("a 4th extra attempt was granted against 10% of 30 requests")
	}
	// More traffic earns more budget.
	for range 10 {
		r.Deposit()
	}
	if !r.Withdraw() || r.Withdraw() {
		t.Fatal("10 more requests must earn exactly one more attempt")
	}
}

func TestRatioWindowSlides(t *testing.T) {
	fake := clock.NewFake(time.Unix(1_000_000, 0))
	r := &budget.Ratio{Ratio: 0.5, MinPerSecond: -1, Window: 10 * time.Second, Clock: fake}
	for range 10 {
		r.Deposit()
	}
	fake.Advance(5 * time.Second)
	if got := r.Available(); got != 5 {
		t.Fatalf("half a window later Available = %d; want 5", got)
	}
	fake.Advance(6 * time.Second)
	if got := r.Available(); got != 0 {
		t.Fatalf("after the window Available = %d; want 0 (the requests aged out)", got)
	}
}

// TestRatioExactUnderConcurrency: 1,000 goroutines race for a budget of
// 3 extra attempts; exactly 3 are granted, never more.
func TestRatioExactUnderConcurrency(t *testing.T) {
	leaktest.Check(t)
	for round := range 20 {
		r := &budget.Ratio{Ratio: 0.1, MinPerSecond: -1, Clock: clock.NewFake(time.Unix(1_000_000, 0))}
		for range 30 {
			r.Deposit()
		}
		var granted atomic.Int64
		var start, done sync.WaitGroup
		start.Add(1)
		for range 1000 {
			done.Add(1)
			go func() {
				defer done.Done()
				start.Wait()
				if r.Withdraw() {
					granted.Add(1)
				}
			}()
		}
		start.Done()
		done.Wait()
		if got := granted.Load(); got != 3 {
			t.Fatalf("round %d: %d grants against a bound of 3", round, got)
		}
	}
}

func TestTokenBucket(t *testing.T) {
	var b budget.TokenBucket // defaults: 10 tokens, 0.1 per success
	if b.Tokens() != 10 || !b.Withdraw() {
		t.Fatal("a new bucket starts full and allows retries")
	}
	for range 5 {
		b.Failure()
	}
	if b.Withdraw() {
		t.Fatalf("at %v tokens (half of 10) retries must stop", b.Tokens())
	}
	b.Success()
	if !b.Withdraw() {
		t.Fatalf("at %v tokens retries must resume", b.Tokens())
	}
	for range 100 {
		b.Failure()
	}
	if b.Tokens() != 0 {
		t.Fatalf("tokens = %v; never below 0", b.Tokens())
	}
	for range 1000 {
		b.Success()
	}
	if b.Tokens() != 10 {
		t.Fatalf("tokens = %v; never above MaxTokens", b.Tokens())
	}
}

func TestTokenBucketConcurrent(t *testing.T) {
	leaktest.Check(t)
	b := &budget.TokenBucket{MaxTokens: 100}
	var wg sync.WaitGroup
	for i := range 100 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if i%2 == 0 {
				b.Failure()
			} else {
				b.Success()
			}
			b.Withdraw()
		}()
	}
	wg.Wait()
	// 50 failures and 50 successes of 0.1 from a full bucket of 100; the
	// cap applies to each success, so the end state depends on the order
	// only within [50, 55].
	if got := b.Tokens(); got < 50 || got > 55 {
		t.Fatalf("tokens = %v; want between 50 and 55", got)
	}
}

func BenchmarkRatioWithdraw(b *testing.B) {
	r := &budget.Ratio{}
	for range 1000 {
		r.Deposit()
	}
	b.ReportAllocs()
	for b.Loop() {
		r.Deposit()
		r.Withdraw()
	}
}

// steppedClock has a wall clock that can be stepped (as NTP or a resumed
// VM steps it) and a monotonic clock that only moves forward; like the
// real clock's, its readings remember their monotonic time.
type steppedClock struct {
	mu       sync.Mutex
	mono     time.Duration
	step     time.Duration
	readings map[time.Time]time.Duration // wall reading → monotonic time
}

func (c *steppedClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	now := time.Unix(1_000_000, 0).Add(c.mono + c.step)
	if c.readings == nil {
		c.readings = map[time.Time]time.Duration{}
	}
	c.readings[now] = c.mono
	return now
}

// Since measures by the monotonic clock, as time.Since does for readings
// of the real clock.
func (c *steppedClock) Since(t time.Time) time.Duration {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.mono - c.readings[t]
}

func (c *steppedClock) advance(d time.Duration)  { c.mu.Lock(); c.mono += d; c.mu.Unlock() }
func (c *steppedClock) stepWall(d time.Duration) { c.mu.Lock(); c.step += d; c.mu.Unlock() }

// TestRatioIgnoresWallClockSteps: a step of the wall clock neither grants
// a fresh allowance nor keeps an old one alive.
func TestRatioIgnoresWallClockSteps(t *testing.T) {
	for _, step := range []time.Duration{-time.Hour, time.Hour, 3 * time.Second} {
		c := &steppedClock{}
		// 10% of 30 requests plus a floor of 1 per second of the window.
		r := &budget.Ratio{Ratio: 0.1, MinPerSecond: 1, Window: 10 * time.Second, Clock: c}
		for range 30 {
			r.Deposit()
		}
		granted := 0
		for r.Withdraw() {
			granted++
		}
		if granted != 13 {
			t.Fatalf("granted %d; want 13", granted)
		}
		c.stepWall(step)
		c.advance(time.Second)
		if r.Withdraw() {
			t.Fatalf("wall clock stepped by %v: the spent budget was granted again", step)
		}
		// The window still slides by real elapsed time.
		c.advance(10 * time.Second)
		if got := r.Available(); got != 10 {
			t.Fatalf("wall clock stepped by %v: %d available once the window slid past every request; want the floor, 10", step, got)
		}
	}
}
