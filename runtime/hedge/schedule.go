package hedge

import (
	"sync"
	"sync/atomic"
	"time"

	"github.com/resilvet/resilvet/runtime/internal/clock"
)

// scheduler arms the extra copies of every call made with one Policy on a
// few runtime timers, one per shard. A runtime timer per call
// (time.AfterFunc, then Stop when the first copy answers in time, as it
// almost always does) costs more than the rest of Do together; here
// registering a call is a clock read and an append under an uncontended
// mutex, a call that ends before its hedge is due is dropped lazily, and a
// shard's timer is re-armed only when its earliest due time moves earlier.
//
// Times and timers are the policy's clock's, so tests drive hedges with a
// clock.Fake.
type scheduler struct {
	clock clock.TimerClock
	base  time.Time // due times are offsets from base (monotonic if real)
	// Read on every call: keep the shards' writes off this cache line.
	_      [64]byte
	shards [schedShards]schedShard
	// local hands out shards with affinity to the caller's processor
	// (sync.Pool keeps a cache per P), so the shard's lock and queue stay
	// in that core's cache; when the pool forgets, a new caller gets the
	// next shard round-robin.
	local     sync.Pool
	nextShard atomic.Uint32
}

// schedShards spreads concurrent calls over independent queues, each with
// its own lock and timer.
const schedShards = 8

// init readies the scheduler to arm calls on c. Once, before any arm.
func (s *scheduler) init(c clock.TimerClock) {
	s.clock = c
	s.base = c.Now()
	for i := range s.shards {
		s.shards[i].clock = c
		s.shards[i].base = s.base
	}
	s.local.New = func() any { return &s.shards[s.nextShard.Add(1)%schedShards] }
}

// arming says what arm is to count of the call it queues. New calls are
// counted in the shard: a shared counter would be the one cache line every
// core writes on every call.
type arming uint8

const (
	nextCopy       arming = iota // a call counted already: its next copy
	newCall                      // a new call, counted for Metrics
	newCallDeposit               // and a deposit in the default budget
)

// arm schedules r's next copy delay from now.
func (s *scheduler) arm(r racer, delay time.Duration, call arming) {
	sh := s.local.Get().(*schedShard)
	sh.arm(r, delay, call)
	s.local.Put(sh)
}

// now returns the time on the scheduler's clock, as an offset from base.
func (s *scheduler) now() time.Duration { return s.clock.Now().Sub(s.base) }

// deposits returns the default budget's deposits counted in the shards
// over the window ending with slot epoch.
func (s *scheduler) deposits(epoch int64) int64 {
	var n int64
	for i := range s.shards {
		sh := &s.shards[i]
		sh.mu.Lock()
		n += sh.deposits.sum(epoch)
		sh.mu.Unlock()
	}
	return n
}

// calls returns the calls counted in the shards.
func (s *scheduler) calls() uint64 {
	var n uint64
	for i := range s.shards {
		sh := &s.shards[i]
		sh.mu.Lock()
		n += sh.calls
		sh.mu.Unlock()
	}
	return n
}

type schedShard struct {
	mu       sync.Mutex
	queue    []armed // ordered by due, from head
	head     int
	sweepAt  int // sweep finished calls out when this many are queued
	timer    clock.Timer
	timerDue time.Duration    // 0: not armed
	calls    uint64           // new calls armed here, for Metrics
	deposits window           // the default budget's, armed here
	clock    clock.TimerClock // the scheduler's, set once
	base     time.Time        // the scheduler's, set once
	_        [64]byte         // keep neighbouring shards off this cache line
}

type armed struct {
	due time.Duration
	r   racer
}

// racer is a call waiting for its next extra copy.
type racer interface {
	// fire sends the next copy; again says whether another is to follow,
	// after next.
	fire() (next time.Duration, again bool)
	// ended reports whether the call has returned.
	ended() bool
}

// arm queues r's next copy, due delay after now.
func (s *schedShard) arm(r racer, delay time.Duration, call arming) {
	now := s.clock.Now().Sub(s.base)
	due := now + delay
	s.mu.Lock()
	if call != nextCopy {
		s.calls++
		if call == newCallDeposit {
			s.deposits.add(epochOf(now))
		}
	}
	s.dropEnded()
	i := len(s.queue)
	s.queue = append(s.queue, armed{})
	for i > s.head && s.queue[i-1].due > due { // adaptive delays may shrink
		s.queue[i] = s.queue[i-1]
		i--
	}
	s.queue[i] = armed{due: due, r: r}
	if s.timerDue == 0 || due < s.timerDue {
		s.timerDue = due
		if s.timer == nil {
			s.timer = s.clock.AfterFunc(delay, s.fire)
		} else {
			s.timer.Reset(delay)
		}
	}
	s.mu.Unlock()
}

// dropEnded forgets calls that ended before their hedge was due: those at
// the head at once, the others in a sweep whenever the queue has doubled,
// so a call hanging at the head cannot make the queue grow without bound.
// s.mu held.
func (s *schedShard) dropEnded() {
	for s.head < len(s.queue) && s.queue[s.head].r.ended() {
		s.queue[s.head] = armed{}
		s.head++
	}
	if s.head == len(s.queue) {
		s.queue, s.head = s.queue[:0], 0
		return
	}
	if n := len(s.queue) - s.head; n >= s.sweepAt {
		kept := s.queue[:0]
		for _, a := range s.queue[s.head:] {
			if !a.r.ended() {
				kept = append(kept, a)
			}
		}
		clear(s.queue[len(kept):])
		s.queue, s.head = kept, 0
		s.sweepAt = max(64, 2*len(kept))
	}
}

// fire is the timer's callback: it sends the copies that are due, then
// re-arms the timer for the next due time, if any.
func (s *schedShard) fire() {
	s.mu.Lock()
	now := s.clock.Now().Sub(s.base)
	var firing []racer
	for s.head < len(s.queue) {
		a := s.queue[s.head]
		if !a.r.ended() && a.due > now {
			break
		}
		s.queue[s.head] = armed{}
		s.head++
		if !a.r.ended() {
			firing = append(firing, a.r)
		}
	}
	s.timerDue = 0
	if s.head < len(s.queue) {
		s.timerDue = s.queue[s.head].due
		s.timer.Reset(s.timerDue - now)
	}
	s.mu.Unlock()
	for _, r := range firing {
		if next, again := r.fire(); again {
			s.arm(r, next, nextCopy)
		}
	}
}
