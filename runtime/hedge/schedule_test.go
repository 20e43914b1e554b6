package hedge

import (
	"sync/atomic"
	"testing"
	"time"

	"github.com/resilvet/resilvet/runtime/internal/clock"
	"github.com/resilvet/resilvet/runtime/internal/leaktest"
)

// fakeRacer is a call as the scheduler sees it.
type fakeRacer struct {
	done  atomic.Bool
	fired chan struct{}
}

func newFakeRacer() *fakeRacer { return &fakeRacer{fired: make(chan struct{}, 1)} }

func (f *fakeRacer) fire() (time.Duration, bool) { f.fired <- struct{}{}; return 0, false }
func (f *fakeRacer) ended() bool                 { return f.done.Load() }

func (f *fakeRacer) hasFired() bool {
	select {
	case <-f.fired:
		return true
	default:
		return false
	}
}

// TestSchedulerQueueStaysBounded: a call hanging at the head of a shard
// must not keep every later, finished call queued behind it.
func TestSchedulerQueueStaysBounded(t *testing.T) {
	leaktest.Check(t)
	fake := clock.NewFake(time.Unix(1e9, 0))
	sh := schedShard{clock: fake, base: fake.Now()}
	hanging := newFakeRacer()
	sh.arm(hanging, time.Hour, newCall)
	for range 10_000 {
		r := newFakeRacer()
		sh.arm(r, time.Hour, newCall)
		r.done.Store(true)
	}
	sh.mu.Lock()
	queued := len(sh.queue) - sh.head
	calls := sh.calls
	sh.mu.Unlock()
	if queued > 130 {
		t.Fatalf("%d entries queued for 1 live call", queued)
	}
	if calls != 10_001 {
		t.Errorf("calls %d; want 10001", calls)
	}
}

// TestSchedulerEarlierDueRearms: with adaptive delays a later call can be
// due before an earlier one; its hedge must not wait for the earlier due.
func TestSchedulerEarlierDueRearms(t *testing.T) {
	leaktest.Check(t)
	var s scheduler
	fake := clock.NewFake(time.Unix(1e9, 0))
	s.init(fake)
	late, soon := newFakeRacer(), newFakeRacer()
	s.arm(late, time.Hour, newCall)
	s.arm(soon, time.Millisecond, newCall)
	fake.Advance(time.Millisecond)
	if !soon.hasFired() {
		t.Fatal("the call due in 1 ms was not fired after 1 ms")
	}
	if late.hasFired() {
		t.Fatal("the call due in an hour fired")
	}
	fake.Advance(time.Hour)
	if !late.hasFired() {
		t.Fatal("the call due in an hour was not fired after an hour")
	}
	if got := s.calls(); got != 2 {
		t.Errorf("calls %d; want 2", got)
	}
}
