package sim

import (
	"context"
	"math/rand/v2"
	"slices"
	"sync"
	"time"

	"github.com/resilvet/resilvet/runtime/hedge"
)

// FanoutResult summarises the fan-out scenario.
type FanoutResult struct {
	Delay     time.Duration // the adaptive hedge delay at the end of the run
	P99       time.Duration // request p99 without hedging
	HedgedP99 time.Duration // request p99 with hedging
	ExtraLoad float64       // extra backend calls with hedging, as a fraction
	Denied    uint64        // extra copies the policy's budget refused
	Requests  int
	Calls     int // backend calls per run
}

// Latency is how the simulated backends answer: independent draws (the
// best case for hedging), a slow replica that stays slow for a while, or
// a pause that hits every copy in flight.
type Latency int

const (
	// Independent: every copy draws its latency on its own: 5–15 ms, 1%
	// of copies 1.0–1.2 s.
	Independent Latency = iota
	// SlowReplica: each backend has three replicas, and a copy goes to
	// one of them at random. A replica turns slow (1.0–1.2 s per call)
	// for 2 s of simulated time, on 0.4% of the calls it gets while
	// healthy; copies it gets meanwhile are slow too, a hedged copy
	// included when it lands on the same replica.
	SlowReplica
	// Pause: every copy draws 5–15 ms, and every 2 s of simulated time a
	// 300 ms pause (a collector, a network blip) stops every backend:
	// copies in flight answer after it, hedged copies included.
	Pause
)

func (l Latency) String() string {
	return [...]string{"independent", "slow replica", "pause"}[l]
}

// Fanout is FanoutWith the independent draws.
func Fanout(requests int) FanoutResult { return FanoutWith(requests, Independent) }

// FanoutWith runs the design notes' tail-at-scale example through the
// real hedge package on simulated time: each request fans out to 100
// backends and waits for the slowest. Every backend call goes through
// hedge.Do with one shared Policy: the adaptive delay (the p95 of the
// latencies it has seen), up to three copies, and the policy's default
// budget. The same latencies, drawn in the same order, give the request
// latency without hedging: the first copy's.
func FanoutWith(requests int, model Latency) FanoutResult {
	const fanout = 100
	k := newKernel()
	rng := rand.New(rand.NewPCG(3, 4))
	normal := func() time.Duration {
		return 5*time.Millisecond + time.Duration(rng.Float64()*float64(10*time.Millisecond))
	}
	slow := func() time.Duration {
		return time.Second + time.Duration(rng.Float64()*float64(200*time.Millisecond))
	}
	var target int // the backend the current call goes to
	var slowUntil [fanout][3]time.Duration
	var sample func() time.Duration
	switch model {
	case Independent:
		sample = func() time.Duration {
			if rng.Float64() < 0.01 {
				return slow()
			}
			return normal()
		}
	case SlowReplica:
		sample = func() time.Duration {
			now := k.elapsed()
			until := &slowUntil[target][rng.IntN(3)]
			if now >= *until && rng.Float64() < 0.004 {
				*until = now + 2*time.Second
			}
			if now < *until {
				return slow()
			}
			return normal()
		}
	case Pause:
		const every, pause = 2 * time.Second, 300 * time.Millisecond
		sample = func() time.Duration {
			now, base := k.elapsed(), normal()
			// This period's pause: the next one, or the one under way.
			start := now - now%every + every - pause
			end := start + pause
			if now+base < start {
				return base
			}
			done := max(0, start-now) // the work done before the pause
			return end + base - done - now
		}
	}
	p := &hedge.Policy{MaxAttempts: 3, Clock: k}
	b := newBackend(k, sample)
	op := hedge.Idempotent(b.call)

	plain := make([]time.Duration, requests)
	hedged := make([]time.Duration, requests)
	for r := range requests {
		for i := range fanout {
			target = i
			start := k.elapsed()
			first := b.hedgedCall(p, op)
			plain[r] = max(plain[r], first)
			hedged[r] = max(hedged[r], k.elapsed()-start)
		}
	}
	slices.Sort(plain)
	slices.Sort(hedged)
	m := p.Metrics()
	calls := requests * fanout
	return FanoutResult{
		Delay:     p.CurrentDelay(),
		P99:       plain[requests*99/100],
		HedgedP99: hedged[requests*99/100],
		ExtraLoad: float64(m.Hedges) / float64(calls),
		Denied:    m.BudgetDenials,
		Requests:  requests,
		Calls:     calls,
	}
}

// backend answers each copy after a sampled latency of simulated time,
// or when the copy's context is cancelled. It counts the copies waiting,
// so the driver moves time only once every copy hedge.Do has started is
// waiting on the simulated clock.
type backend struct {
	k      *kernel
	sample func() time.Duration

	mu       sync.Mutex
	changed  *sync.Cond
	waiting  int           // copies waiting for their answer
	running  int           // copies inside call
	answered bool          // a copy's answer came due (set by the driver)
	first    time.Duration // the first copy's latency in the current call
	copies   int           // copies started in the current call
}

func newBackend(k *kernel, sample func() time.Duration) *backend {
	b := &backend{k: k, sample: sample}
	b.changed = sync.NewCond(&b.mu)
	return b
}

func (b *backend) call(ctx context.Context) (struct{}, error) {
	b.mu.Lock()
	lat := b.sample() // one copy samples at a time: the run is reproducible
	if b.copies++; b.copies == 1 {
		b.first = lat
	}
	b.running++
	b.mu.Unlock()
	due := make(chan struct{})
	t := b.k.AfterFunc(lat, func() {
		b.mu.Lock()
		b.answered = true
		b.mu.Unlock()
		close(due)
	})
	b.mu.Lock()
	b.waiting++
	b.changed.Broadcast()
	b.mu.Unlock()
	var err error
	select {
	case <-due:
	case <-ctx.Done():
		t.Stop()
		err = ctx.Err()
	}
	b.mu.Lock()
	b.waiting--
	b.running--
	b.changed.Broadcast()
	b.mu.Unlock()
	return struct{}{}, err
}

// hedgedCall runs one backend call through hedge.Do to its end in
// simulated time and returns its first copy's latency.
func (b *backend) hedgedCall(p *hedge.Policy, op hedge.Op[struct{}]) time.Duration {
	b.mu.Lock()
	b.answered, b.copies = false, 0
	b.mu.Unlock()
	done := make(chan struct{})
	go func() {
		defer close(done)
		_, _ = hedge.Do(context.Background(), p, op)
	}()
	started := 1
	b.waitFor(func() bool { return b.waiting == started })
	for {
		hedges := p.Metrics().Hedges
		b.k.step()
		b.mu.Lock()
		answered := b.answered
		b.mu.Unlock()
		if answered {
			break
		}
		if n := p.Metrics().Hedges - hedges; n > 0 {
			started += int(n)
			b.waitFor(func() bool { return b.waiting == started })
		}
	}
	<-done
	// Losers were cancelled; let them leave before the next call.
	b.waitFor(func() bool { return b.running == 0 })
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.first
}

func (b *backend) waitFor(cond func() bool) {
	b.mu.Lock()
	for !cond() {
		b.changed.Wait()
	}
	b.mu.Unlock()
}
