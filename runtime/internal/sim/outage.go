// Package sim holds deterministic simulations, on a fake clock, of the
// worked examples in resilvet's design notes; tests assert their numbers
// and cmd/resilsim prints them.
package sim

import (
	"math/rand/v2"
	"time"

	"github.com/resilvet/resilvet/runtime/breaker"
	"github.com/resilvet/resilvet/runtime/internal/clock"
)

// OutageResult summarises one run of the breaker outage scenario.
type OutageResult struct {
	Requests        int
	DependencyCalls int
	Waiting         time.Duration // caller time spent waiting on the dependency
	OpenedAfter     time.Duration // from the outage's start to the first open (0: never)
	ClosedAfter     time.Duration // from the recovery to the close (0: never)
}

// Outage simulates a dependency that fails 2% of calls normally (20 ms
// each) and hangs every call to a 1 s timeout from t=10 s to t=30 s, called
// once every 50 ms for 60 s, with and without a breaker (count window 20,
// minimum 10 calls, 50% threshold, 5 s cooldown without jitter, 3 probes).
func Outage(withBreaker bool) OutageResult {
	const (
		period  = 50 * time.Millisecond
		total   = 60 * time.Second
		normal  = 20 * time.Millisecond
		timeout = time.Second
	)
	outageFrom, outageTo := 10*time.Second, 30*time.Second
	rng := rand.New(rand.NewPCG(1, 2))
	start := time.Now()
	fake := clock.NewFake(start)
	var states []struct {
		at time.Duration
		to breaker.State
	}
	var b *breaker.Breaker
	if withBreaker {
		b = breaker.New(breaker.Settings{
			WindowSize: 20, MinCalls: 10, FailureRate: 0.5, Cooldown: 5 * time.Second,
			CooldownJitter: -1, Probes: 3, Clock: fake,
			OnStateChange: func(_ string, _, to breaker.State) {
				states = append(states, struct {
					at time.Duration
					to breaker.State
				}{fake.Now().Sub(start), to})
			},
		})
	}
	var r OutageResult
	q := &queue[event]{before: event.before}
	for t := time.Duration(0); t < total; t += period {
		q.push(event{at: t, arrival: true})
	}
	for q.Len() > 0 {
		e := q.pop()
		fake.Advance(e.at - fake.Now().Sub(start))
		if !e.arrival {
			e.done.Record(e.outcome)
			continue
		}
		r.Requests++
		latency, failed := normal, rng.Float64() < 0.02
		if e.at >= outageFrom && e.at < outageTo {
			latency, failed = timeout, true
		}
		var done *breaker.Done
		if b != nil {
			d, err := b.Allow()
			if err != nil {
				continue // rejected at once: no call, no waiting
			}
			done = d
		}
		r.DependencyCalls++
		r.Waiting += latency
		if done != nil {
			o := breaker.Success
			if failed {
				o = breaker.Failure
			}
			q.push(event{at: e.at + latency, done: done, outcome: o})
		}
	}
	for _, s := range states {
		if s.to == breaker.Open && r.OpenedAfter == 0 && s.at >= outageFrom {
			r.OpenedAfter = s.at - outageFrom
		}
		if s.to == breaker.Closed && s.at >= outageTo && r.ClosedAfter == 0 {
			r.ClosedAfter = s.at - outageTo
		}
	}
	return r
}

type event struct {
	at      time.Duration
	arrival bool
	done    *breaker.Done
	outcome breaker.Outcome
}

// before orders events by time; completions before arrivals at a tie.
func (e event) before(o event) bool {
	if e.at != o.at {
		return e.at < o.at
	}
	return !e.arrival && o.arrival
}
