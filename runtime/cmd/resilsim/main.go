// Command resilsim prints the runtime's simulations of the design notes'
// worked examples, with and without the runtime's protections, side by
// side.
//
//	go run ./cmd/resilsim      (from runtime/)
package main

import (
	"fmt"
	"time"

	"github.com/resilvet/resilvet/runtime/internal/sim"
)

func main() {
	printOutage()
	fmt.Println()
	printFanout()
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
