package hedge

import (
	"context"
	"sync"
	"sync/atomic"
	"time"
)

// firstCtx is the first copy's context, embedded in the race so that the
// common call, whose first copy answers before any hedge, allocates one
// object instead of three (context.WithCancel makes a context and a
// closure, on top of the race). It behaves as a context.WithCancel child
// of parent: it is done when parent is, or when the race cancels it, and
// contexts derived from it are cancelled with it without a goroutine (it
// implements the AfterFunc method the context package looks for).
type firstCtx struct {
	parent     context.Context
	err        atomic.Pointer[error] // set once, when cancelled
	hasDone    atomic.Bool           // done is set and final
	mu         sync.Mutex
	done       chan struct{} // made on demand
	hooks      []*afterHook
	stopParent func() bool // detaches from a cancellable parent
}

// The errors a context can end with, boxed once.
var (
	errCanceled         error = context.Canceled
	errDeadlineExceeded error = context.DeadlineExceeded
)

type afterHook struct{ f func() }

// closedChan is the Done channel of a context cancelled before anyone
// asked for one.
var closedChan = func() chan struct{} { c := make(chan struct{}); close(c); return c }()

// init ties c to parent. A parent that can never be cancelled needs no
// registration at all.
func (c *firstCtx) init(parent context.Context) {
	c.parent = parent
	if parent.Done() != nil {
		c.stopParent = context.AfterFunc(parent, func() { c.cancel(parent.Err()) })
	}
}

func (c *firstCtx) Deadline() (time.Time, bool) { return c.parent.Deadline() }

// Value answers from parent, except for the context package's own key
// for the nearest cancellable ancestor: that ancestor is not this
// context's canceller, so context.Cause must fall back to Err.
func (c *firstCtx) Value(key any) any {
	if key == cancelCtxKey {
		return nil
	}
	return c.parent.Value(key)
}

func (c *firstCtx) Done() <-chan struct{} {
	if c.hasDone.Load() {
		return c.done
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.done == nil {
		c.done = make(chan struct{})
		c.hasDone.Store(true)
	}
	return c.done
}

func (c *firstCtx) Err() error {
	if err := c.err.Load(); err != nil {
		return *err
	}
	// The parent's hook runs on a goroutine of its own; until it has, ask
	// the parent, so that Err is never nil once the parent is done, as
	// for a context.WithCancel child.
	if err := c.parent.Err(); err != nil {
		c.cancel(err)
		return err
	}
	return nil
}

func (c *firstCtx) String() string { return "hedge.firstCopyContext" }

// cancel makes c done with err (context.Canceled when the race cancels
// it, the parent's error when the parent is done), once.
func (c *firstCtx) cancel(err error) {
	c.mu.Lock()
	if c.err.Load() != nil {
		c.mu.Unlock()
		return
	}
	switch err {
	case context.Canceled:
		c.err.Store(&errCanceled)
	case context.DeadlineExceeded:
		c.err.Store(&errDeadlineExceeded)
	default:
		c.err.Store(boxed(err))
	}
	if c.done == nil {
		c.done = closedChan
		c.hasDone.Store(true)
	} else {
		close(c.done)
	}
	hooks := c.hooks
	c.hooks = nil
	stop := c.stopParent
	c.mu.Unlock()
	if stop != nil {
		stop()
	}
	for _, h := range hooks {
		h.f()
	}
}

// boxed returns a pointer to a copy of err, allocated only on this rare
// path (an Err that is neither of the context package's).
func boxed(err error) *error { return &err }

// AfterFunc is the method the context package uses to propagate
// cancellation to contexts derived from c without a goroutine: f runs
// once c is done (at once, on its own goroutine, if it already is), and
// stop unregisters it.
func (c *firstCtx) AfterFunc(f func()) (stop func() bool) {
	c.mu.Lock()
	if c.err.Load() != nil {
		c.mu.Unlock()
		go f()
		return func() bool { return false }
	}
	h := &afterHook{f: f}
	c.hooks = append(c.hooks, h)
	c.mu.Unlock()
	return func() bool {
		c.mu.Lock()
		defer c.mu.Unlock()
		for i, x := range c.hooks {
			if x == h {
				c.hooks = append(c.hooks[:i], c.hooks[i+1:]...)
				return true
			}
		}
		return false
	}
}

// cancelCtxKey is the context package's key for the nearest cancellable
// ancestor, learnt once by watching which key context.Cause asks for.
var cancelCtxKey = func() any {
	p := &keyProbe{Context: context.Background()}
	_ = context.Cause(p)
	return p.key
}()

type keyProbe struct {
	context.Context
	key any
}

func (p *keyProbe) Value(key any) any { p.key = key; return nil }
