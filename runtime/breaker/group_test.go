package breaker_test

import (
	"testing"
	"time"

	"github.com/resilvet/resilvet/runtime/breaker"
	"github.com/resilvet/resilvet/runtime/internal/clock"
	"github.com/resilvet/resilvet/runtime/internal/leaktest"
)

// newGroup returns a Group of max breakers that open on one failure for a
// cooldown of one second of the fake clock.
func newGroup(max int) (*breaker.Group, *clock.Fake) {
	fake := clock.NewFake(time.Unix(1e9, 0))
	return breaker.NewGroup(max, func(string) breaker.Settings {
		return breaker.Settings{MinCalls: 1, WindowSize: 1, Probes: 1, Cooldown: time.Second, CooldownJitter: -1, Clock: fake}
	}), fake
}

func TestGroupIsolatesKeysAndIsBounded(t *testing.T) {
	leaktest.Check(t)
	g, _ := newGroup(2)
	a, b := g.Get("a"), g.Get("b")
	call(a, errDown)
	if a.State() != breaker.Open || b.State() != breaker.Closed {
		t.Fatal("one key's failures opened another key's circuit")
	}
	if g.Get("a") != a || a.Name() != "a" {
		t.Fatal("Get must return the same breaker, named after its key")
	}
	g.Get("c") // evicts b, the least recently used
	if g.Len() != 2 {
		t.Fatalf("group holds %d breakers; want at most 2", g.Len())
	}
	if g.Get("a") != a {
		t.Fatal("the recently used breaker was evicted")
	}
	if g.Get("b") == b {
		t.Fatal("the least recently used breaker was kept")
	}
}

// TestGroupKeepsCircuitsThatAreNotClosed: evicting an open circuit would
// hand its key a fresh closed breaker and the failing dependency its full
// load again. The group evicts the least recently used closed breaker
// instead, holds more than its maximum while every other breaker is
// cooling down or probing, and lets a circuit go once its cooldown is
// over and no probe is out.
func TestGroupKeepsCircuitsThatAreNotClosed(t *testing.T) {
	leaktest.Check(t)
	g, fake := newGroup(2)
	a := g.Get("a")
	call(a, errDown)
	b := g.Get("b")
	g.Get("c") // a is the least recently used, but open: b goes instead
	if g.Get("a") != a || a.State() != breaker.Open {
		t.Fatal("an open breaker was evicted before its cooldown ended")
	}
	if g.Len() != 2 || g.Get("b") == b { // the new b evicts c, closed
		t.Fatalf("%d breakers, b kept: want the closed b evicted instead of the open a", g.Len())
	}
	// Open b too, then add d: every breaker but the newest is cooling
	// down, so the group grows past its maximum.
	b = g.Get("b")
	call(b, errDown)
	g.Get("d")
	if g.Len() != 3 || g.Get("a") != a || g.Get("b") != b {
		t.Fatalf("%d breakers; want a and b kept open and the group over its maximum", g.Len())
	}
	// The cooldowns end and a probe goes out on a. With e added (most
	// recently used first: e, a, d, b) the group evicts d, closed, then
	// b, its cooldown over and no probe out, but not a, probing.
	fake.Advance(time.Second)
	probe, err := a.Allow()
	if err != nil {
		t.Fatal(err)
	}
	g.Get("d")
	g.Get("a")
	g.Get("e")
	if g.Len() != 2 {
		t.Fatalf("group holds %d breakers after the cooldowns; want back at its maximum of 2", g.Len())
	}
	if g.Get("a") != a {
		t.Fatal("a half-open breaker was evicted with its probe out")
	}
	probe.Record(breaker.Success)
	if a.State() != breaker.Closed {
		t.Fatalf("state %v after the probe succeeded", a.State())
	}
}

// TestZeroGroupIsUsable: the zero Group and a nil settings function mean
// default Settings named after the key, at most 1,024 breakers.
func TestZeroGroupIsUsable(t *testing.T) {
	leaktest.Check(t)
	for name, g := range map[string]*breaker.Group{"zero": {}, "NewGroup(0, nil)": breaker.NewGroup(0, nil)} {
		a := g.Get("a")
		if a == nil || a.Name() != "a" || g.Get("a") != a || g.Len() != 1 {
			t.Fatalf("%s: Get(a) = %v, Len %d", name, a, g.Len())
		}
		if err := call(a, nil); err != nil || a.State() != breaker.Closed {
			t.Fatalf("%s: call: %v, state %v", name, err, a.State())
		}
		for i := range 1100 {
			g.Get(string(rune('b' + i)))
		}
		if g.Len() != 1024 {
			t.Fatalf("%s: holds %d breakers; want the default maximum 1,024", name, g.Len())
		}
	}
}
