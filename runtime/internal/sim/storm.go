package sim

import (
	"context"
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/resilvet/resilvet/runtime/budget"
	"github.com/resilvet/resilvet/runtime/retry"
)

// StormResult summarises one run of the retry-storm scenario.
type StormResult struct {
	// Recovered is how long after the outage ended new requests were
	// served within their timeout again; -1 if never within the run.
	Recovered time.Duration
	// PeakLoad is the largest number of attempts sent in one second,
	// as a multiple of the offered 70 requests per second.
	PeakLoad float64
	// LoadAfter is the attempts per second in the minute after the
	// outage, as a multiple of the offered load.
	LoadAfter float64
	// Wasted is the fraction of the server's work after the outage spent
	// on attempts whose caller had already given up.
	Wasted float64
	// Attempts is the mean number of attempts per request.
	Attempts float64
}

// StormSetup is one caller configuration of the storm scenario: Layers
// nested retry layers (one retry.Policy each, the outermost first),
// calling the server through a per-attempt timeout.
type StormSetup struct {
	Layers []retry.Policy
	// Budget, when set, is shared by every layer (its clock is set to the
	// simulation's).
	Budget *budget.Ratio
	// Horizon is when requests stop arriving. 0 means 400 s; it must be
	// at least 100 s to measure the minute after the outage.
	Horizon time.Duration
}

// Storm runs the design notes' retry storm with the real retry package on
// simulated time: a server with capacity for 100 requests/s (one worker,
// 10 ms each, FIFO, never dropping work) receives 70 requests/s and stalls
// completely from 10 s to 40 s. Each request runs the setup's retry
// layers around an attempt with a 1 s timeout of its own (the timeout
// the runtime's docs recommend per attempt: an attempt that times out
// while its caller waits is retried). Requests arrive until the horizon.
func Storm(setup StormSetup) StormResult {
	const (
		service = 10 * time.Millisecond
		timeout = time.Second
		period  = time.Second / 70
	)
	horizon := setup.Horizon
	if horizon <= 0 {
		horizon = 400 * time.Second
	}
	outageFrom, outageTo := 10*time.Second, 40*time.Second
	k := newKernel()
	rng := rand.New(rand.NewPCG(5, 6))
	var b budget.Budget
	if setup.Budget != nil {
		setup.Budget.Clock = k
		b = setup.Budget
	}
	policies := make([]*retry.Policy, len(setup.Layers))
	for i := range setup.Layers {
		p := setup.Layers[i]
		p.Clock = k
		p.Rand = rng.Float64 // called by one goroutine at a time
		p.Sleep = func(ctx context.Context, d time.Duration) error { k.sleep(d); return ctx.Err() }
		if b != nil {
			p.Budget = b
		}
		policies[i] = &p
	}

	s := &stormServer{k: k, outageFrom: outageFrom, outageTo: outageTo, service: service, perSecond: map[int]int{}}
	lastFail := time.Duration(-1) // arrival of the last request whose first attempt timed out
	requests, attempts := 0, 0
	var arrive func()
	arrive = func() {
		at := k.now
		if at >= horizon {
			return
		}
		requests++
		k.atLocked(period, arrive)
		k.spawnLocked(func() {
			n := 0
			attempt := func(context.Context) error {
				n++
				attempts++
				if ok := s.call(timeout); !ok {
					if n == 1 && at > lastFail {
						lastFail = at
					}
					return fmt.Errorf("attempt: %w", context.DeadlineExceeded)
				}
				return nil
			}
			call := attempt
			for i := len(policies) - 1; i >= 0; i-- {
				p, inner := policies[i], call
				call = func(ctx context.Context) error { return retry.Do(ctx, p, inner) }
			}
			_ = call(context.Background())
		})
	}
	k.at(0, func() { k.mu.Lock(); arrive(); k.mu.Unlock() })
	k.at(outageTo, s.resume)
	k.run(time.Duration(1 << 62)) // arrivals stop at the horizon; let callers finish

	r := StormResult{Recovered: -1, Attempts: float64(attempts) / float64(requests)}
	if lastFail < horizon-10*time.Second {
		r.Recovered = max(0, lastFail-outageTo)
	}
	peak := 0
	for sec, n := range s.perSecond {
		if sec < int(horizon/time.Second) {
			peak = max(peak, n)
		}
	}
	r.PeakLoad = float64(peak) / 70
	after := 0
	for sec := int(outageTo / time.Second); sec < int(outageTo/time.Second)+60; sec++ {
		after += s.perSecond[sec]
	}
	r.LoadAfter = float64(after) / 60 / 70
	if s.work > 0 {
		r.Wasted = float64(s.wasted) / float64(s.work)
	}
	return r
}

// stormServer is the single-worker FIFO server; its state is touched only
// by the goroutine the kernel runs.
type stormServer struct {
	k                    *kernel
	outageFrom, outageTo time.Duration
	service              time.Duration
	waiting              []*stormJob
	busy                 bool
	perSecond            map[int]int
	work, wasted         int
}

type stormJob struct {
	w        *waiter
	deadline time.Duration
}

// call sends one attempt and blocks until it is served (true) or its
// timeout passes (false); a timed-out attempt stays queued, as work the
// server will do for nobody.
func (s *stormServer) call(timeout time.Duration) bool {
	k := s.k
	w := k.newWaiter()
	k.mu.Lock()
	j := &stormJob{w: w, deadline: k.now + timeout}
	s.perSecond[int(k.now/time.Second)]++
	s.waiting = append(s.waiting, j)
	k.atLocked(timeout, func() { w.wake(0) })
	s.serveLocked()
	k.mu.Unlock()
	return k.block(w) == 1
}

// serveLocked starts the next job if the worker is free and the server
// is not stalled. k.mu held.
func (s *stormServer) serveLocked() {
	k := s.k
	if s.busy || len(s.waiting) == 0 || k.now >= s.outageFrom && k.now < s.outageTo {
		return
	}
	j := s.waiting[0]
	s.waiting = s.waiting[1:]
	s.busy = true
	k.atLocked(s.service, func() {
		k.mu.Lock()
		defer k.mu.Unlock()
		s.busy = false
		if k.now >= s.outageTo {
			s.work++
			if k.now > j.deadline {
				s.wasted++
			}
		}
		if k.now <= j.deadline {
			j.w.wakeLocked(1)
		}
		s.serveLocked()
	})
}

func (s *stormServer) resume() {
	s.k.mu.Lock()
	s.serveLocked()
	s.k.mu.Unlock()
}
