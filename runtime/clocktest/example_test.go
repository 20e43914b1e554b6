package clocktest_test

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/resilvet/resilvet/runtime/breaker"
	"github.com/resilvet/resilvet/runtime/clocktest"
	"github.com/resilvet/resilvet/runtime/hedge"
	"github.com/resilvet/resilvet/runtime/retry"
)

// Example drives a retry's backoffs, a breaker's cooldown and a hedge's
// delay on one fake clock: no real time passes and every run prints the
// same.
func Example() {
	start := time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)
	clk := clocktest.New(start)
	ctx := context.Background()

	// Retry: Sleep advances the clock by each backoff (Rand 1: the full
	// 100, 200, 400 ms).
	calls := 0
	p := &retry.Policy{MaxAttempts: 4, BaseDelay: 100 * time.Millisecond, Clock: clk, Sleep: clk.Sleep, Rand: func() float64 { return 1 }}
	err := retry.Do(ctx, p, func(context.Context) error {
		if calls++; calls < 4 {
			return retry.Retry(errors.New("unavailable"))
		}
		return nil
	})
	fmt.Println("retry:", calls, "attempts, err", err, "at", clk.Now().Sub(start))

	// Breaker: two failures open it for the 5 s cooldown (no jitter); once
	// the clock has moved past it, a probe's success closes it.
	br := breaker.New(breaker.Settings{MinCalls: 2, WindowSize: 2, Probes: 1, Cooldown: 5 * time.Second, CooldownJitter: -1, Clock: clk})
	fail := func(context.Context) error { return errors.New("unavailable") }
	br.Do(ctx, fail)
	br.Do(ctx, fail)
	fmt.Println("breaker:", br.State(), br.Do(ctx, func(context.Context) error { return nil }))
	clk.Advance(5 * time.Second)
	fmt.Println("breaker:", br.State(), br.Do(ctx, func(context.Context) error { return nil }), br.State())

	// Hedge: the first copy lets 50 ms pass while it is in flight; the
	// extra copy, sent inside that Advance, answers first.
	h := &hedge.Policy{Delay: 50 * time.Millisecond, Clock: clk}
	var copies atomic.Int32
	v, err := hedge.Do(ctx, h, hedge.Idempotent(func(ctx context.Context) (string, error) {
		if copies.Add(1) > 1 {
			return "from the extra copy", nil
		}
		clk.Advance(50 * time.Millisecond)
		<-ctx.Done() // cancelled: the extra copy won
		return "", ctx.Err()
	}))
	fmt.Printf("hedge: %s, err %v, %+v\n", v, err, h.Metrics())
	// Output:
	// retry: 4 attempts, err <nil> at 700ms
	// breaker: open breaker: circuit open; retry after 5s
	// breaker: half-open <nil> closed
	// hedge: from the extra copy, err <nil>, {Calls:1 Hedges:1 HedgeWins:1 BudgetDenials:0 LosersCancelled:1}
}
