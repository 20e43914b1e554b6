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
	"github.com/resilvet/resilvet/runtime/internal/sim"
	"github.com/resilvet/resilvet/runtime/retry"
)

func main() {
	printOutage()
	fmt.Println()
	printFanout()
	fmt.Println()
	printStorm()
}

func printStorm() {
	fmt.Println("Retry storm (real retry package): capacity 100 req/s, 70 req/s offered, 1 s per-attempt timeout, 30 s outage")
	three := func(allowNested bool) []retry.Policy {
		p := retry.Policy{MaxAttempts: 3, AllowNested: allowNested}
		return []retry.Policy{p, p, p}
	}
	rows := []struct {
		name  string
		setup sim.StormSetup
	}{
		{"no retries", sim.StormSetup{Layers: []retry.Policy{{MaxAttempts: 1}}}},
		{"3x3x3, AllowNested", sim.StormSetup{Layers: three(true)}},
		{"3 layers of 3, nesting rule", sim.StormSetup{Layers: three(false)}},
		{"3x3x3 + Ratio{} (zero value)", sim.StormSetup{Layers: three(true), Budget: &budget.Ratio{}}},
		{"3x3x3 + 10%, no floor", sim.StormSetup{Layers: three(true), Budget: &budget.Ratio{Ratio: 0.1, MinPerSecond: -1}}},
	}
	fmt.Printf("%-30s %12s %10s %10s %8s %9s\n", "", "recovered", "peak", "min after", "wasted", "attempts")
	for _, row := range rows {
		r := sim.Storm(row.setup)
		rec := "never"
		if r.Recovered >= 0 {
			rec = r.Recovered.Round(100 * time.Millisecond).String()
		}
		fmt.Printf("%-30s %12s %9.2fx %9.2fx %7.0f%% %9.2f\n", row.name, rec, r.PeakLoad, r.LoadAfter, 100*r.Wasted, r.Attempts)
	}
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
	fmt.Println("Hedging (real hedge package): 100-way fan-out; adaptive delay (p95), up to 3 copies, default budget;")
	fmt.Println("backends 5-15 ms, and slow copies at 1.0-1.2 s drawn three ways: independently (1% of copies),")
	fmt.Println("by a slow replica (3 per backend, picked per copy; one turns slow for 2 s on 0.4% of its calls),")
	fmt.Println("or by a 300 ms pause every 2 s that stops every backend")
	fmt.Printf("%-28s %14s %14s %14s\n", "", "independent", "slow replica", "pause")
	var rs []sim.FanoutResult
	for _, m := range []sim.Latency{sim.Independent, sim.SlowReplica, sim.Pause} {
		rs = append(rs, sim.FanoutWith(2000, m))
	}
	row := func(name string, f func(sim.FanoutResult) string) {
		fmt.Printf("%-28s %14s %14s %14s\n", name, f(rs[0]), f(rs[1]), f(rs[2]))
	}
	row("requests, backend calls", func(r sim.FanoutResult) string { return fmt.Sprintf("%d, %d", r.Requests, r.Calls) })
	row("hedge delay (learnt p95)", func(r sim.FanoutResult) string { return r.Delay.Round(100 * time.Microsecond).String() })
	row("100-way p99, no hedging", func(r sim.FanoutResult) string { return r.P99.Round(time.Millisecond).String() })
	row("100-way p99, hedging", func(r sim.FanoutResult) string { return r.HedgedP99.Round(100 * time.Microsecond).String() })
	row("extra backend load", func(r sim.FanoutResult) string { return fmt.Sprintf("%.1f%%", 100*r.ExtraLoad) })
	row("copies the budget refused", func(r sim.FanoutResult) string { return fmt.Sprint(r.Denied) })
}
