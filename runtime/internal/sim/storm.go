package sim

import (
	"time"

	"github.com/resilvet/resilvet/runtime/budget"
	"github.com/resilvet/resilvet/runtime/internal/clock"
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
}

// Storm models the design notes' retry storm: a server with capacity for
// 100 requests/s (one worker, 10 ms each, FIFO, never dropping work)
// receives 70 requests/s, each with a 1 s timeout, and stalls completely
// for 30 s. Callers retry at once on timeout up to maxAttempts attempts in
// all (27 for three layers of three), each retry drawing on b when it is
// non-nil. The run lasts 400 s.
func Storm(maxAttempts int, b *budget.Ratio, fake *clock.Fake) StormResult {
	const (
		service = 10 * time.Millisecond
		timeout = time.Second
		period  = time.Second / 70
		horizon = 400 * time.Second
	)
	outageFrom, outageTo := 10*time.Second, 40*time.Second
	start := fake.Now()
	type attempt = stormAttempt
	var (
		waiting   []*attempt // the server's FIFO queue
		busy      bool
		q         = &queue[stormEvent]{before: stormEvent.before}
		perSecond = map[int]int{}
		lastFail  = time.Duration(-1) // arrival of the last request whose first attempt timed out
		work      int
		wasted    int
	)
	send := func(now time.Duration, req, n int) {
		a := &attempt{req: req, n: n, deadline: now + timeout}
		waiting = append(waiting, a)
		perSecond[int(now/time.Second)]++
		q.push(stormEvent{at: now + timeout, kind: evTimeout, a: a})
	}
	tryServe := func(now time.Duration) {
		if busy || len(waiting) == 0 || now >= outageFrom && now < outageTo {
			return
		}
		a := waiting[0]
		waiting = waiting[1:]
		busy = true
		q.push(stormEvent{at: now + service, kind: evDone, a: a})
	}
	arrivals := map[int]time.Duration{}
	req := 0
	for t := time.Duration(0); t < horizon; t += period {
		q.push(stormEvent{at: t, kind: evArrive})
	}
	q.push(stormEvent{at: outageTo, kind: evResume})
	for q.Len() > 0 {
		e := q.pop()
		fake.Advance(e.at - fake.Now().Sub(start))
		switch e.kind {
		case evArrive:
			req++
			arrivals[req] = e.at
			if b != nil {
				b.Deposit()
			}
			send(e.at, req, 1)
		case evDone:
			busy = false
			if e.at >= outageTo {
				work++
				if e.at > e.a.deadline {
					wasted++
				}
			}
			if e.at <= e.a.deadline {
				e.a.done = true
			}
		case evTimeout:
			if e.a.done {
				break
			}
			if e.a.n == 1 && arrivals[e.a.req] > lastFail {
				lastFail = arrivals[e.a.req]
			}
			if e.a.n < maxAttempts && (b == nil || b.Withdraw()) {
				send(e.at, e.a.req, e.a.n+1)
			}
		}
		tryServe(e.at)
	}
	r := StormResult{Recovered: -1}
	if lastFail < horizon-10*time.Second {
		r.Recovered = max(0, lastFail-outageTo)
	}
	peak := 0
	for _, n := range perSecond {
		peak = max(peak, n)
	}
	r.PeakLoad = float64(peak) / 70
	after := 0
	for s := int(outageTo / time.Second); s < int(outageTo/time.Second)+60; s++ {
		after += perSecond[s]
	}
	r.LoadAfter = float64(after) / 60 / 70
	if work > 0 {
		r.Wasted = float64(wasted) / float64(work)
	}
	return r
}

const (
	evArrive = iota
	evDone
	evTimeout
	evResume
)

type stormAttempt struct {
	req      int
	n        int // attempt number, 1 for the first
	deadline time.Duration
	done     bool
}

type stormEvent struct {
	at   time.Duration
	kind int
	a    *stormAttempt
}

// before orders events by time; at a tie, completions first, then
// timeouts, then arrivals, so a request finishing exactly at its deadline
// counts as served.
func (e stormEvent) before(o stormEvent) bool {
	if e.at != o.at {
		return e.at < o.at
	}
	return stormOrder[e.kind] < stormOrder[o.kind]
}

var stormOrder = [...]int{evArrive: 3, evDone: 0, evTimeout: 1, evResume: 2}
