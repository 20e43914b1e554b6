package clock_test

import (
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/resilvet/resilvet/runtime/internal/clock"
)

var (
	_ clock.TimerClock = clock.Real{}
	_ clock.TimerClock = (*clock.Fake)(nil)
)

func TestFakeZeroValueAndNewFake(t *testing.T) {
	var zero clock.Fake
	zero.Advance(time.Second)
	if got := zero.Now(); got != (time.Time{}).Add(time.Second) {
		t.Fatalf("zero Fake after 1 s reads %v", got)
	}
	start := time.Unix(1e9, 0)
	f := clock.NewFake(start)
	f.Advance(time.Minute)
	if got := f.Now(); !got.Equal(start.Add(time.Minute)) {
		t.Fatalf("NewFake after a minute reads %v", got)
	}
}

// TestFakeTimersFireInDueOrderWithinAdvance: Advance runs the due timers
// before it returns, earliest first, and leaves the others.
func TestFakeTimersFireInDueOrderWithinAdvance(t *testing.T) {
	f := clock.NewFake(time.Unix(1e9, 0))
	var fired []string
	f.AfterFunc(3*time.Second, func() { fired = append(fired, "3s") })
	f.AfterFunc(time.Second, func() { fired = append(fired, "1s") })
	f.AfterFunc(time.Second, func() { fired = append(fired, "1s, armed second") })
	f.AfterFunc(time.Hour, func() { fired = append(fired, "1h") })
	f.Advance(999 * time.Millisecond)
	if len(fired) != 0 || f.PendingTimers() != 4 {
		t.Fatalf("before any is due: fired %v, %d pending", fired, f.PendingTimers())
	}
	f.Advance(5 * time.Second)
	if want := []string{"1s", "1s, armed second", "3s"}; !slices.Equal(fired, want) {
		t.Fatalf("fired %v; want %v", fired, want)
	}
	if f.PendingTimers() != 1 {
		t.Fatalf("%d pending; want the hour's", f.PendingTimers())
	}
}

func TestFakeTimerStopAndReset(t *testing.T) {
	f := clock.NewFake(time.Unix(1e9, 0))
	n := 0
	tm := f.AfterFunc(time.Second, func() { n++ })
	if !tm.Stop() || tm.Stop() {
		t.Fatal("Stop must report true once, for the pending timer")
	}
	f.Advance(time.Hour)
	if n != 0 {
		t.Fatal("a stopped timer fired")
	}
	if tm.Reset(time.Second) {
		t.Fatal("Reset of a stopped timer reported it pending")
	}
	if !tm.Reset(2 * time.Second) {
		t.Fatal("Reset of a pending timer reported it not pending")
	}
	f.Advance(time.Second)
	if n != 0 {
		t.Fatal("the timer fired at its first due time, before the reset one")
	}
	f.Advance(time.Second)
	if n != 1 || f.PendingTimers() != 0 {
		t.Fatalf("fired %d times, %d pending", n, f.PendingTimers())
	}
	tm.Reset(0) // due now: waits for the next Advance
	if n != 1 {
		t.Fatal("a timer due now fired outside Advance")
	}
	f.Advance(0)
	if n != 2 {
		t.Fatal("Advance(0) did not fire a timer due now")
	}
}

// TestFakeTimerCallbackMayUseTheClock: a callback runs without the lock,
// so it can read the time and re-arm itself; what it makes due by the new
// time runs in the same Advance.
func TestFakeTimerCallbackMayUseTheClock(t *testing.T) {
	start := time.Unix(1e9, 0)
	f := clock.NewFake(start)
	var seen []time.Duration
	var tm clock.Timer
	tm = f.AfterFunc(time.Second, func() {
		seen = append(seen, f.Now().Sub(start))
		if len(seen) < 3 {
			tm.Reset(0)
		} else {
			tm.Reset(time.Second)
		}
	})
	f.Advance(10 * time.Second)
	if want := []time.Duration{10 * time.Second, 10 * time.Second, 10 * time.Second}; !slices.Equal(seen, want) {
		t.Fatalf("callbacks saw %v; want %v", seen, want)
	}
	if f.PendingTimers() != 1 {
		t.Fatal("the re-armed timer is not pending")
	}
}

// TestFakeConcurrentUse: advancing, arming and stopping from many
// goroutines keeps every timer firing at most once (run with -race).
func TestFakeConcurrentUse(t *testing.T) {
	f := clock.NewFake(time.Unix(1e9, 0))
	var mu sync.Mutex
	fired := map[int]int{}
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			for i := range 100 {
				id := g*1000 + i
				tm := f.AfterFunc(time.Duration(i%7)*time.Millisecond, func() {
					mu.Lock()
					fired[id]++
					mu.Unlock()
				})
				if i%3 == 0 {
					tm.Stop()
				}
				f.Advance(time.Millisecond)
			}
		})
	}
	wg.Wait()
	f.Advance(time.Hour)
	mu.Lock()
	defer mu.Unlock()
	for id, n := range fired {
		if n != 1 {
			t.Fatalf("timer %d fired %d times", id, n)
		}
	}
	if f.PendingTimers() != 0 {
		t.Fatalf("%d timers still pending", f.PendingTimers())
	}
}

func TestTimerClockOr(t *testing.T) {
	f := clock.NewFake(time.Unix(1e9, 0))
	if clock.TimerClockOr(f) != clock.TimerClock(f) {
		t.Fatal("a Fake must keep its own timers")
	}
	if _, ok := clock.TimerClockOr(nil).(clock.Real); !ok {
		t.Fatal("nil must mean the wall clock")
	}
	if _, ok := clock.TimerClockOr(nowOnly{}).(clock.Real); !ok {
		t.Fatal("a clock without timers must mean the wall clock for both")
	}
	done := make(chan struct{})
	clock.Real{}.AfterFunc(time.Millisecond, func() { close(done) })
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("Real's timer never fired")
	}
}

type nowOnly struct{}

func (nowOnly) Now() time.Time { return time.Time{} }

// TestStamp: a Stamp measures on the clock it was taken on: the fake
// clock's steps exactly, the wall clock's monotonic time at least as
// long as a sleep.
func TestStamp(t *testing.T) {
	fake := clock.NewFake(time.Unix(1_000_000, 0))
	s := clock.Start(fake)
	fake.Advance(1500 * time.Millisecond)
	if got := s.Elapsed(fake); got != 1500*time.Millisecond {
		t.Errorf("fake: elapsed %v, want 1.5s", got)
	}
	if got := clock.Until(fake, time.Unix(1_000_010, 0)); got != 8500*time.Millisecond {
		t.Errorf("fake: until %v, want 8.5s", got)
	}
	w := clock.Start(nil)
	time.Sleep(20 * time.Millisecond)
	if got := w.Elapsed(nil); got < 20*time.Millisecond || got > 10*time.Second {
		t.Errorf("wall: elapsed %v after a 20 ms sleep", got)
	}
	if got := clock.Until(nil, time.Now().Add(time.Hour)); got <= 59*time.Minute || got > time.Hour {
		t.Errorf("wall: until %v for an hour from now", got)
	}
}
