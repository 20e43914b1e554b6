// Command resilsim prints the runtime's simulations of the design notes'
// worked examples, with and without the runtime's protections, side by
// side.
//
//	go run ./cmd/resilsim      (from runtime/)
package main

import (
	"fmt"
	"time"

	"github.com/resilvet/resilvet/runtime/budget"
	"github.com/resilvet/resilvet/runtime/internal/clock"
	"github.com/resilvet/resilvet/runtime/internal/sim"
)

func main() {
	printOutage()
	fmt.Println()
	printFanout()
	fmt.Println()
	printStorm()
}

func printStorm() {
	fmt.Println("Retry storm: capacity 100 req/s, 70 req/s offered, 1 s timeout, 30 s outage")
	fmt.Printf("%-28s %14s %14s %14s\n", "", "no retries", "27 attempts", "27 + 10% budget")
	none := sim.Storm(1, nil, clock.NewFake(time.Now()))
	stacked := sim.Storm(27, nil, clock.NewFake(time.Now()))
	fake := clock.NewFake(time.Now())
	budgeted := sim.Storm(27, &budget.Ratio{Ratio: 0.1, MinPerSecond: -1, Clock: fake}, fake)
	rec := func(r sim.StormResult) string {
		if r.Recovered < 0 {
			return "never"
		}
		return r.Recovered.Round(100 * time.Millisecond).String()
	}
	fmt.Printf("%-28s %14s %14s %14s\n", "recovered after the outage", rec(none), rec(stacked), rec(budgeted))
	fmt.Printf("%-28s %13.2fx %13.2fx %13.2fx\n", "load in the minute after", none.LoadAfter, stacked.LoadAfter, budgeted.LoadAfter)
	fmt.Printf("%-28s %13.0f%% %13.0f%% %13.0f%%\n", "work wasted after", 100*none.Wasted, 100*stacked.Wasted, 100*budgeted.Wasted)
}

func printOutage() {
	without, with := sim.Outage(false), sim.Outage(true)
	fmt.Println("Breaker: 1 req/50 ms for 60 s; dependency fails 2%, hangs to a 1 s timeout from 10 s to 30 s")
	fmt.Printf("%-28s %14s %14s\n", "", "no breaker", "breaker")
	fmt.Printf("%-28s %14d %14d\n", "requests", without.Requests, with.Requests)
	fmt.Printf("%-28s %14d %14d\n", "dependency calls", without.DependencyCalls, with.DependencyCalls)
	fmt.Printf("%-28s %13.1fs %13.1fs\n", "caller time waiting", without.Waiting.Seconds(), with.Waiting.Seconds())
	fmt.Printf("%-28s %14s %13.2fs\n", "opened after outage start", "-", with.OpenedAfter.Seconds())
	fmt.Printf("%-28s %14s %13.2fs\n", "closed after recovery", "-", with.ClosedAfter.Seconds())
	fmt.Printf("%-28s %14s %13.0f%%\n", "waiting saved", "-", 100*(1-with.Waiting.Seconds()/without.Waiting.Seconds()))
}

func printFanout() {
	r := sim.Fanout()
	fmt.Println("Hedging: 100-way fan-out; backends 5-15 ms, 1% at 1.0-1.2 s; hedge after the single-backend p95")
	fmt.Printf("%-28s %14s %14s\n", "", "no hedging", "hedging")
	fmt.Printf("%-28s %14s %14s\n", "hedge delay (backend p95)", "-", r.SingleP95.Round(100*time.Microsecond))
	fmt.Printf("%-28s %14s %14s\n", "100-way p99", r.P99.Round(time.Millisecond), r.HedgedP99.Round(100*time.Microsecond))
	fmt.Printf("%-28s %14s %13.1f%%\n", "extra backend load", "-", 100*r.ExtraLoad)
}
