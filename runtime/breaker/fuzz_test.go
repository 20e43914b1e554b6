package breaker_test

import (
	"context"
	"errors"
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
