package breaker_test

import (
	"testing"
	"time"

	"github.com/resilvet/resilvet/runtime/breaker"
	"github.com/resilvet/resilvet/runtime/internal/clock"
	"github.com/resilvet/resilvet/runtime/internal/leaktest"
)

// TestSettingsThatCouldNeverOpenStillOpen: a setting the window can never
// reach must not disable the breaker without a word. A count window
// smaller than MinCalls (WindowSize 5 with the default 10) lowers MinCalls
// to the window's size; a rate above 1 (50 meant as a percentage) is
// lowered to 1, every call in the window.
func TestSettingsThatCouldNeverOpenStillOpen(t *testing.T) {
	leaktest.Check(t)
	for _, tc := range []struct {
		name  string
		s     breaker.Settings
		opens int // after this many failures
	}{
		{"window 5, default MinCalls", breaker.Settings{WindowSize: 5}, 5},
		{"window 5, MinCalls 10", breaker.Settings{WindowSize: 5, MinCalls: 10}, 5},
		{"window 1", breaker.Settings{WindowSize: 1}, 1},
		{"FailureRate 50", breaker.Settings{WindowSize: 10, FailureRate: 50}, 10},
		{"time window, FailureRate 2", breaker.Settings{Window: breaker.TimeWindow, MinCalls: 3, FailureRate: 2}, 3},
	} {
		b, _ := newBreaker(tc.s)
		for i := range tc.opens - 1 {
			call(b, errDown)
			if b.State() != breaker.Closed {
				t.Fatalf("%s: opened after %d failures; want %d", tc.name, i+1, tc.opens)
			}
		}
		call(b, errDown)
		if s := b.State(); s != breaker.Open {
			for range 1000 {
				call(b, errDown)
			}
			t.Errorf("%s: %v after %d failures, %v after 1,000 more; want open", tc.name, s, tc.opens, b.State())
		}
	}
}

// TestSlowCallRateAboveOneStillOpens: SlowCallRate 100 is lowered to 1.
func TestSlowCallRateAboveOneStillOpens(t *testing.T) {
	leaktest.Check(t)
	b, fake := newBreaker(breaker.Settings{WindowSize: 2, MinCalls: 2, SlowCall: time.Second, SlowCallRate: 100})
	for range 2 {
		done, err := b.Allow()
		if err != nil {
			t.Fatal(err)
		}
		fake.Advance(2 * time.Second)
		done.Record(breaker.Success)
	}
	if b.State() != breaker.Open {
		t.Fatalf("state %v with every call slow; want open", b.State())
	}
}

// TestTimeWindowBeforeUnixEpoch: a clock reading before 1970 (the zero
// value of clock.Fake reads year 1) must not break the time window, whose
// bucket index once came from a negative UnixNano.
func TestTimeWindowBeforeUnixEpoch(t *testing.T) {
	leaktest.Check(t)
	for _, start := range []time.Time{{}, time.Date(1960, 1, 1, 0, 0, 0, 0, time.UTC)} {
		fake := clock.NewFake(start)
		b := breaker.New(breaker.Settings{Window: breaker.TimeWindow, WindowDuration: 10 * time.Second, MinCalls: 4, CooldownJitter: -1, Clock: fake})
		for range 3 {
			call(b, errDown)
			fake.Advance(time.Second)
		}
		fake.Advance(10 * time.Second) // the failures age out
		for range 3 {
			call(b, nil)
		}
		call(b, errDown)
		if m := b.Metrics(); m.State != breaker.Closed || m.Calls != 4 {
			t.Fatalf("start %v: %+v; want closed with 4 calls in the window", start, m)
		}
		for range 3 {
			call(b, errDown)
		}
		if b.State() != breaker.Open {
			t.Fatalf("start %v: state %v with half the window failed; want open", start, b.State())
		}
	}
}
