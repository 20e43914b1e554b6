package runtime_test

import (
	"context"
	"errors"
	"expvar"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/resilvet/resilvet/runtime/breaker"
	"github.com/resilvet/resilvet/runtime/clocktest"
	"github.com/resilvet/resilvet/runtime/hedge"
	"github.com/resilvet/resilvet/runtime/retry"
)

// Example_hooks wires every hook of the runtime to counters in an
// expvar.Map, which a server publishes with expvar.Publish for
// /debug/vars to serve; Prometheus and OpenTelemetry take the same hooks
// (see docs/runtime.md). A fake clock runs the cooldown, the backoffs and
// the hedge delay, so every run prints the same.
//
// The inventory service is called through retry → breaker: it fails
// twice then answers, then goes down until the circuit opens, then
// recovers after the cooldown. The search service is hedged: one call
// answers at once, the next is slow and its extra copy wins.
func Example_hooks() {
	start := time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)
	clk := clocktest.New(start)
	counters := new(expvar.Map) // expvar.Publish("resilience", counters)
	count := func(key string) { counters.Add(key, 1) }

	retries := &retry.Policy{
		BaseDelay: 100 * time.Millisecond, Clock: clk, Sleep: clk.Sleep,
		Rand:    func() float64 { return 1 }, // no jitter: the same backoffs every run
		OnRetry: func(attempt int, err error, delay time.Duration) { count("retry.retries") },
	}
	inventory := breaker.New(breaker.Settings{
		Name: "inventory", MinCalls: 4, WindowSize: 4, Probes: 1,
		Cooldown: 5 * time.Second, CooldownJitter: -1, Clock: clk,
		OnStateChange: func(name string, from, to breaker.State) { count("breaker." + name + ".to_" + to.String()) },
		OnReject:      func(name string, err *breaker.OpenError) { count("breaker." + name + ".rejected") },
		OnOutcome: func(name string, o breaker.Outcome, took time.Duration) {
			count("breaker." + name + "." + o.String())
		},
	})
	search := &hedge.Policy{
		Delay: 50 * time.Millisecond, Clock: clk,
		OnHedge: func(copy int) { count("hedge.extra_copies") },
		OnWin: func(copy int) {
			if copy > 0 {
				count("hedge.won_by_extra_copy")
			}
		},
	}

	ctx := context.Background()
	failures := 0 // the inventory's coming failures
	callInventory := func() error {
		return retry.Do(ctx, retries, func(ctx context.Context) error {
			return inventory.Do(ctx, func(context.Context) error {
				if failures > 0 {
					failures--
					return retry.Retry(errors.New("inventory unavailable"))
				}
				return nil
			})
		})
	}
	failures = 2
	fmt.Println("inventory:", callInventory())
	failures = 100
	fmt.Println("inventory:", callInventory())
	clk.Advance(5 * time.Second) // the cooldown
	failures = 0
	fmt.Println("inventory:", callInventory())

	var slow atomic.Bool
	callSearch := func() (string, error) {
		var copies atomic.Int32
		return hedge.Do(ctx, search, hedge.Idempotent(func(ctx context.Context) (string, error) {
			if copies.Add(1) == 1 && slow.Load() {
				clk.Advance(50 * time.Millisecond) // the delay passes: the extra copy goes out
				<-ctx.Done()
				return "", ctx.Err()
			}
			return "results", nil
		}))
	}
	fmt.Println(callSearch())
	slow.Store(true)
	fmt.Println(callSearch())

	fmt.Println(counters)
	fmt.Printf("%+v\n", inventory.Metrics())
	fmt.Printf("%+v\n", search.Metrics())
	// Output:
	// inventory: <nil>
	// inventory: breaker inventory: circuit open; retry after 4.9s
	// inventory: <nil>
	// results <nil>
	// results <nil>
	// {"breaker.inventory.failure": 3, "breaker.inventory.rejected": 1, "breaker.inventory.success": 2, "breaker.inventory.to_closed": 1, "breaker.inventory.to_half-open": 1, "breaker.inventory.to_open": 1, "hedge.extra_copies": 1, "hedge.won_by_extra_copy": 1, "retry.retries": 3}
	// {State:closed Transitions:3 Rejections:1 ProbeSuccesses:1 ProbeFailures:0 Calls:0 FailureRate:0 SlowRate:0}
	// {Calls:2 Hedges:1 HedgeWins:1 BudgetDenials:0 LosersCancelled:1}
}
