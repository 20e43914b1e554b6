package breaker_test

import (
	"bytes"
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/resilvet/resilvet/runtime/breaker"
	"github.com/resilvet/resilvet/runtime/internal/clock"
	"github.com/resilvet/resilvet/runtime/internal/leaktest"
)

// model is a deliberately naive reference of the state machine, for a
// count window: it recomputes everything from a plain slice.
type model struct {
	size, minCalls, probes int
	rate                   float64
	cooldown               time.Duration
	state                  breaker.State
	outcomes               []bool // true = failed
	openUntil              time.Time
	probeOK, inFlight      int
}

func (m *model) admit(now time.Time) bool {
	if m.state == breaker.Open && !now.Before(m.openUntil) {
		m.state, m.probeOK, m.inFlight = breaker.HalfOpen, 0, 0
	}
	switch m.state {
	case breaker.Open:
		return false
	case breaker.HalfOpen:
		if m.inFlight >= m.probes {
			return false
		}
		m.inFlight++
	}
	return true
}

func (m *model) finish(now time.Time, failed bool) {
	switch m.state {
	case breaker.Closed:
		m.outcomes = append(m.outcomes, failed)
		if len(m.outcomes) > m.size {
			m.outcomes = m.outcomes[1:]
		}
		f := 0
		for _, o := range m.outcomes {
			if o {
				f++
			}
		}
		if len(m.outcomes) >= m.minCalls && float64(f)/float64(len(m.outcomes)) >= m.rate {
			m.state, m.openUntil = breaker.Open, now.Add(m.cooldown)
		}
	case breaker.HalfOpen:
		m.inFlight--
		if failed {
			m.state, m.openUntil = breaker.Open, now.Add(m.cooldown)
			return
		}
		m.probeOK++
		if m.probeOK >= m.probes {
			m.state, m.outcomes = breaker.Closed, nil
		}
	}
}

// FuzzAgainstModel drives the breaker and the model with the same
// sequence of sequential calls (each byte: fail or succeed, and how far
// the clock moves) and requires the same admissions and states.
func FuzzAgainstModel(f *testing.F) {
	f.Add([]byte{1, 1, 1, 1, 1, 0xff, 0, 0, 0})
	f.Add([]byte{0, 1, 0, 1, 1, 1, 1, 0x80, 1, 0x80, 0, 0, 0, 0})
	f.Fuzz(func(t *testing.T, ops []byte) {
		leaktest.Check(t)
		fake := clock.NewFake(time.Now())
		s := breaker.Settings{WindowSize: 5, MinCalls: 3, FailureRate: 0.6, Cooldown: time.Second, CooldownJitter: -1, Probes: 2, Clock: fake}
		b := breaker.New(s)
		m := &model{size: 5, minCalls: 3, probes: 2, rate: 0.6, cooldown: time.Second}
		for i, op := range ops {
			fake.Advance(time.Duration(op>>1) * 10 * time.Millisecond)
			failed := op&1 == 1
			now := fake.Now()
			admitted := m.admit(now)
			var err error
			if failed {
				err = errDown
			}
			got := b.Do(context.Background(), func(context.Context) error { return err })
			if gotAdmitted := !errors.Is(got, breaker.ErrOpen); gotAdmitted != admitted {
				t.Fatalf("op %d: breaker admitted=%v, model admitted=%v", i, gotAdmitted, admitted)
			}
			if admitted {
				m.finish(now, failed)
			}
			if b.State() != m.currentState(fake.Now()) {
				t.Fatalf("op %d: breaker %v, model %v", i, b.State(), m.state)
			}
		}
	})
}

func (m *model) currentState(now time.Time) breaker.State {
	if m.state == breaker.Open && !now.Before(m.openUntil) {
		return breaker.HalfOpen
	}
	return m.state
}

// FuzzConcurrentInvariants drives one breaker from several goroutines at
// once through Do, Allow with Report or Record, calls held open across
// transitions, panics, forced transitions and a fake clock they advance.
// shape picks the settings (count or time window and its size, MinCalls,
// slow-call tracking, which takes calls off the lock-free path, and the
// probes); ops, dealt round-robin to the goroutines, are their calls. No
// model can say which interleaving happened, so the target checks what
// holds for all of them: between phases of calls, with none in flight,
// the window's totals equal its slots and the metrics are in range; at
// the end, with the clock standing still, a run of failures opens the
// circuit. The ops decide everything but the interleaving, so a failing
// input fails again, if not on every run.
//
// The interleaving also makes coverage vary from run to run, and the
// fuzzer minimises every input that looks new, for 60 s by default, with
// no other fuzzing meanwhile. Bound that:
//
//	go test -run '^$' -fuzz FuzzConcurrentInvariants -fuzzminimizetime 100x ./breaker/
func FuzzConcurrentInvariants(f *testing.F) {
	f.Add(uint16(0x0035), bytes.Repeat([]byte{0x01, 0x09, 0x00, 0x0e, 0x01, 0x0f, 0x0b, 0x03, 0x1e}, 60))
	f.Add(uint16(0x0013), bytes.Repeat([]byte{0x01, 0x01, 0x0c, 0x06, 0x00, 0x17, 0x2c, 0x04, 0x01, 0x05}, 60))
	f.Add(uint16(0x00ff), bytes.Repeat([]byte{0x09, 0x03, 0x0b, 0x0e, 0x24, 0x01, 0x00, 0x0f, 0x27}, 60))
	// Five callers on the lock-free path filling a window of eight that
	// one in six of their ops forces closed, that is, swaps under them.
	f.Add(uint16(0x0c1f), bytes.Repeat([]byte{0x07, 0x00, 0x01, 0x02, 0x00, 0x01}, 85))
	f.Add(uint16(0x0108), bytes.Repeat([]byte{0x01, 0x08, 0x0e, 0x19, 0x01, 0x06, 0x04, 0x02}, 60))
	f.Fuzz(func(t *testing.T, shape uint16, ops []byte) {
		leaktest.Check(t)
		concurrentInvariants(t, shape, ops)
	})
}

// concurrentInvariants is the body of FuzzConcurrentInvariants.
func concurrentInvariants(t *testing.T, shape uint16, ops []byte) {
	const maxOps, phase = 512, 8 // calls per goroutine per phase
	ops = ops[:min(len(ops), maxOps)]
	callers := 2 + int(shape>>10)%4
	fake := clock.NewFake(time.Unix(1e9, 0))
	s := breaker.Settings{
		WindowSize:      1 + int(shape&7),
		MinCalls:        1 + int(shape>>3&7),
		Probes:          1 + int(shape>>6&1),
		Cooldown:        2 * time.Millisecond,
		CooldownJitter:  -1,
		HalfOpenTimeout: 10 * time.Millisecond,
		Clock:           fake,
	}
	if shape>>7&1 == 1 {
		s.SlowCall = 5 * time.Millisecond
	}
	if shape>>8&1 == 1 {
		s.Window, s.WindowDuration = breaker.TimeWindow, 50*time.Millisecond
	}
	b := breaker.New(s)
	for start := 0; start < len(ops); start += callers * phase {
		chunk := ops[start:min(start+callers*phase, len(ops))]
		var wg sync.WaitGroup
		gate := make(chan struct{}) // all at once: calls overlap
		for g := range callers {
			wg.Go(func() {
				<-gate
				c := &caller{b: b, fake: fake}
				for i := g; i < len(chunk); i += callers {
					c.do(chunk[i])
				}
				c.release()
			})
		}
		close(gate)
		wg.Wait()
		checkQuiet(t, b, s)
	}
	for range len(ops) + 10 {
		if b.State() == breaker.Open {
			break
		}
		call(b, errDown)
	}
	if st := b.State(); st != breaker.Open {
		t.Fatalf("%v after a run of failures; want open (%+v)", st, b.Metrics())
	}
}

// caller is one goroutine of FuzzConcurrentInvariants, holding at most
// one call admitted by Allow and not yet reported.
type caller struct {
	b    *breaker.Breaker
	fake *clock.Fake
	held *breaker.Done
}

// do makes the call op says: its low three bits the kind, bit 3 failure,
// the high bits how long it takes on the fake clock (in milliseconds).
func (c *caller) do(op byte) {
	ctx := context.Background()
	var err error
	if op&8 != 0 {
		err = errDown
	}
	took := time.Duration(op>>4) * time.Millisecond
	fn := func(context.Context) error { c.fake.Advance(took); return err }
	switch op & 7 {
	case 0, 1, 2:
		c.b.Do(ctx, fn)
	case 3:
		if done, aerr := c.b.Allow(); aerr == nil {
			fn(ctx)
			done.Report(ctx, err)
		}
	case 4: // hold a call across the next ones: a slow or hung probe
		c.release()
		c.held, _ = c.b.Allow()
	case 5:
		func() {
			defer func() { recover() }()
			c.b.Do(ctx, func(context.Context) error { panic("fuzz") })
		}()
	case 6:
		c.fake.Advance(took + time.Millisecond)
	case 7:
		breaker.Force(c.b, breaker.State(op>>4%3))
	}
}

// release reports the held call, if any, as a success.
func (c *caller) release() {
	if c.held != nil {
		c.held.Record(breaker.Success)
		c.held = nil
	}
}

// checkQuiet checks, with no call in flight, what must hold whatever the
// interleaving was.
func checkQuiet(t *testing.T, b *breaker.Breaker, s breaker.Settings) {
	t.Helper()
	if err := breaker.CheckWindow(b); err != nil {
		t.Fatalf("%v: %v", b.State(), err)
	}
	m := b.Metrics()
	if m.State != breaker.Closed && m.State != breaker.HalfOpen && m.State != breaker.Open {
		t.Fatalf("invalid state %v", m.State)
	}
	if m.Calls < 0 || s.Window == breaker.CountWindow && m.Calls > s.WindowSize ||
		m.FailureRate < 0 || m.FailureRate > 1 || m.SlowRate < 0 || m.SlowRate > 1 {
		t.Fatalf("metrics out of range: %+v", m)
	}
}
