package hedge

import (
	"sync/atomic"
	"testing"
	"time"

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

// TestSchedulerQueueStaysBounded: a call hanging at the head of a shard
// must not keep every later, finished call queued behind it.
func TestSchedulerQueueStaysBounded(t *testing.T) {
	leaktest.Check(t)
	sh := schedShard{base: time.Now()}
	hanging := newFakeRacer()
	sh.arm(hanging, time.Hour, true)
	for range 10_000 {
		r := newFakeRacer()
		sh.arm(r, time.Hour, true)
		r.done.Store(true)
	}
	sh.mu.Lock()
	queued := len(sh.queue) - sh.head
	sh.mu.Unlock()
	if queued > 130 {
		t.Fatalf("%d entries queued for 1 live call", queued)
	}
	hanging.done.Store(true)
	sh.mu.Lock()
	sh.timer.Stop()
	if sh.calls != 10_001 {
		t.Errorf("calls %d; want 10001", sh.calls)
	}
	sh.mu.Unlock()
}

// TestSchedulerEarlierDueRearms: with adaptive delays a later call can be
// due before an earlier one; its hedge must not wait for the earlier due.
func TestSchedulerEarlierDueRearms(t *testing.T) {
	leaktest.Check(t)
	var s scheduler
	late, soon := newFakeRacer(), newFakeRacer()
	s.arm(late, time.Hour, true)
	s.arm(soon, time.Millisecond, true)
	select {
	case <-soon.fired:
	case <-time.After(5 * time.Second):
		t.Fatal("the call due in 1 ms was not fired within 5 s")
	}
	select {
	case <-late.fired:
		t.Fatal("the call due in an hour fired")
	default:
	}
	late.done.Store(true)
	if got := s.calls(); got != 2 {
		t.Errorf("calls %d; want 2", got)
	}
}
