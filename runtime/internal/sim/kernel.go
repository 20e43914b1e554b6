package sim

import (
	"sync"
	"time"

	"github.com/resilvet/resilvet/runtime/internal/clock"
)

// kernel runs goroutines that drive the runtime's real packages in
// simulated time, deterministically: one goroutine runs at a time, and
// time moves to the next event only when every goroutine it tracks is
// blocked on it. It is also the clock the runtime's packages read.
type kernel struct {
	mu      sync.Mutex
	idle    *sync.Cond // signalled when running drops to 0
	origin  time.Time
	now     time.Duration
	seq     int
	events  queue[kevent]
	running int // tracked goroutines not blocked on the kernel
}

type kevent struct {
	at  time.Duration
	seq int // ties run in the order they were scheduled
	fn  func()
	t   *kernelTimer // the timer this event fires, if any
}

func newKernel() *kernel {
	k := &kernel{origin: time.Unix(1_000_000, 0)}
	k.idle = sync.NewCond(&k.mu)
	k.events.before = func(a, b kevent) bool {
		if a.at != b.at {
			return a.at < b.at
		}
		return a.seq < b.seq
	}
	return k
}

// Now implements the runtime's Clock.
func (k *kernel) Now() time.Time {
	k.mu.Lock()
	defer k.mu.Unlock()
	return k.origin.Add(k.now)
}

// elapsed returns the simulated time since the start.
func (k *kernel) elapsed() time.Duration {
	k.mu.Lock()
	defer k.mu.Unlock()
	return k.now
}

// at schedules fn to run on the driving goroutine d from now.
func (k *kernel) at(d time.Duration, fn func()) {
	k.mu.Lock()
	k.atLocked(d, fn)
	k.mu.Unlock()
}

func (k *kernel) atLocked(d time.Duration, fn func()) {
	k.seq++
	k.events.push(kevent{at: k.now + max(0, d), seq: k.seq, fn: fn})
}

// spawnLocked starts f as a tracked goroutine. k.mu held.
func (k *kernel) spawnLocked(f func()) {
	k.running++
	go func() {
		defer k.exit()
		f()
	}()
}

func (k *kernel) exit() {
	k.mu.Lock()
	k.running--
	if k.running == 0 {
		k.idle.Signal()
	}
	k.mu.Unlock()
}

// waiter is a tracked goroutine blocked until an event wakes it.
type waiter struct {
	k     *kernel
	ch    chan int
	woken bool
}

// block parks the calling tracked goroutine until w is woken and returns
// the value it was woken with.
func (k *kernel) block(w *waiter) int {
	k.mu.Lock()
	k.running--
	if k.running == 0 {
		k.idle.Signal()
	}
	k.mu.Unlock()
	return <-w.ch
}

func (k *kernel) newWaiter() *waiter { return &waiter{k: k, ch: make(chan int, 1)} }

// wake resumes w with v, once; later wakes are ignored. It runs in an
// event, on the driving goroutine.
func (w *waiter) wake(v int) bool {
	w.k.mu.Lock()
	defer w.k.mu.Unlock()
	return w.wakeLocked(v)
}

// wakeLocked is wake with k.mu held.
func (w *waiter) wakeLocked(v int) bool {
	if w.woken {
		return false
	}
	w.woken = true
	w.k.running++
	w.ch <- v
	return true
}

// sleep blocks the calling tracked goroutine for d of simulated time.
func (k *kernel) sleep(d time.Duration) {
	w := k.newWaiter()
	k.at(d, func() { w.wake(0) })
	k.block(w)
}

// AfterFunc implements the runtime's TimerClock: f runs on the driving
// goroutine when simulated time reaches d from now.
func (k *kernel) AfterFunc(d time.Duration, f func()) clock.Timer {
	t := &kernelTimer{k: k, fn: f}
	t.Reset(d)
	return t
}

type kernelTimer struct {
	k   *kernel
	fn  func()
	seq int // the event that fires it; 0 when not pending
}

func (t *kernelTimer) Stop() bool {
	t.k.mu.Lock()
	defer t.k.mu.Unlock()
	was := t.seq != 0
	t.seq = 0 // the queued event finds itself stale
	return was
}

func (t *kernelTimer) Reset(d time.Duration) bool {
	k := t.k
	k.mu.Lock()
	defer k.mu.Unlock()
	was := t.seq != 0
	k.seq++
	t.seq = k.seq
	k.events.push(kevent{at: k.now + max(0, d), seq: k.seq, fn: t.fn, t: t})
	return was
}

// step runs the next event, skipping stopped timers, and reports whether
// there was one.
func (k *kernel) step() bool {
	k.mu.Lock()
	for k.events.Len() > 0 {
		e := k.events.pop()
		if e.t != nil {
			if e.t.seq != e.seq {
				continue // stopped or reset since
			}
			e.t.seq = 0
		}
		k.now = e.at
		k.mu.Unlock()
		e.fn()
		return true
	}
	k.mu.Unlock()
	return false
}

// run drives the simulation until no events are left or the next is past
// horizon.
func (k *kernel) run(horizon time.Duration) {
	k.mu.Lock()
	defer k.mu.Unlock()
	for {
		for k.running > 0 {
			k.idle.Wait()
		}
		if k.events.Len() == 0 || k.events.items[0].at > horizon {
			return
		}
		k.mu.Unlock()
		k.step()
		k.mu.Lock()
	}
}
