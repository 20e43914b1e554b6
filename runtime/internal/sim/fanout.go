package sim

import (
	"math/rand/v2"
	"slices"
	"time"
)

// FanoutResult summarises the fan-out scenario.
type FanoutResult struct {
	SingleP95   time.Duration // one backend's p95 latency: the hedge delay
	P99         time.Duration // 100-way request p99 without hedging
	HedgedP99   time.Duration // 100-way request p99 with hedging
	ExtraLoad   float64       // extra backend calls with hedging, as a fraction
	Requests    int
	BackendCall int
}

// Fanout models the design notes' tail-at-scale example: each request
// fans out to 100 backends answering in 5–15 ms, except 1% of calls that
// take 1.0–1.2 s; the request waits for the slowest. Hedging sends a second
// copy of any backend call not answered by the single-backend p95, and a
// third at twice that, and takes the first answer — the hedge package's
// policy with MaxAttempts 3 and the
// percentile delay, computed here directly over sampled latencies so 20,000
// requests (4 million calls) run in milliseconds.
func Fanout() FanoutResult {
	const fanout, requests = 100, 20000
	rng := rand.New(rand.NewPCG(3, 4))
	sample := func() time.Duration {
		if rng.Float64() < 0.01 {
			return time.Second + time.Duration(rng.Float64()*float64(200*time.Millisecond))
		}
		return 5*time.Millisecond + time.Duration(rng.Float64()*float64(10*time.Millisecond))
	}
	// The hedge delay: the p95 of one backend, as the adaptive policy
	// would learn it.
	single := make([]time.Duration, 100000)
	for i := range single {
		single[i] = sample()
	}
	slices.Sort(single)
	delay := single[len(single)*95/100]

	plain := make([]time.Duration, requests)
	hedged := make([]time.Duration, requests)
	extra := 0
	for r := range requests {
		var worst, worstHedged time.Duration
		for range fanout {
			first := sample()
			worst = max(worst, first)
			got := first
			// A copy goes out at each delay until one has answered, up to
			// three attempts in all.
			for attempt := 1; attempt < 3 && got > time.Duration(attempt)*delay; attempt++ {
				extra++
				got = min(got, time.Duration(attempt)*delay+sample())
			}
			worstHedged = max(worstHedged, got)
		}
		plain[r], hedged[r] = worst, worstHedged
	}
	slices.Sort(plain)
	slices.Sort(hedged)
	return FanoutResult{
		SingleP95:   delay,
		P99:         plain[requests*99/100],
		HedgedP99:   hedged[requests*99/100],
		ExtraLoad:   float64(extra) / float64(requests*fanout),
		Requests:    requests,
		BackendCall: requests * fanout,
	}
}
