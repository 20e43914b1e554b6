package hedge

import (
	"context"
	"errors"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/resilvet/resilvet/runtime/internal/leaktest"
)

// The first copy's context must behave exactly like a context.WithCancel
// child of its parent, made lazily.

var errParentCause = errors.New("the caller's cause")

// Each test runs twice: with nothing asking for Done before it is
// cancelled (the lazy state, nothing made) and with Done asked first.
func bothStates(t *testing.T, test func(t *testing.T, askDone bool)) {
	t.Run("lazy", func(t *testing.T) { test(t, false) })
	t.Run("made", func(t *testing.T) { test(t, true) })
}

func newFirstCtx(parent context.Context, askDone bool) *firstCtx {
	c := new(firstCtx)
	c.init(parent)
	if askDone {
		c.Done()
	}
	return c
}

func TestFirstCtxCancelledByRace(t *testing.T) {
	bothStates(t, func(t *testing.T, askDone bool) {
		leaktest.Check(t)
		type key struct{}
		parent, cancelParent := context.WithCancel(context.WithValue(context.Background(), key{}, "v"))
		defer cancelParent()
		c := newFirstCtx(parent, askDone)
		if c.Err() != nil || c.Value(key{}) != "v" {
			t.Fatalf("fresh: err %v value %v", c.Err(), c.Value(key{}))
		}
		c.cancel()
		<-c.Done()
		if c.Err() != context.Canceled || context.Cause(c) != context.Canceled || c.Value(key{}) != "v" {
			t.Fatalf("err %v cause %v value %v", c.Err(), context.Cause(c), c.Value(key{}))
		}
		c.cancel() // only the first cancel counts
		cancelParent()
		if c.Err() != context.Canceled {
			t.Fatalf("err changed to %v", c.Err())
		}
	})
}

// TestFirstCtxCauseUnderCancellableParent: once the race has cancelled the
// first copy, its cause is context.Canceled for good, and so is its
// children's; the parent's cause, given later, is not the copy's.
func TestFirstCtxCauseUnderCancellableParent(t *testing.T) {
	bothStates(t, func(t *testing.T, askDone bool) {
		leaktest.Check(t)
		parent, cancelParent := context.WithCancelCause(context.Background())
		defer cancelParent(nil)
		c := newFirstCtx(parent, askDone)
		var before context.Context
		if askDone {
			var cancel context.CancelFunc
			before, cancel = context.WithCancel(c)
			defer cancel()
		}
		c.cancel()
		cancelParent(errParentCause)
		after, cancel := context.WithCancel(c)
		defer cancel()
		if err, cause := c.Err(), context.Cause(c); err != context.Canceled || cause != context.Canceled {
			t.Fatalf("Err %v, Cause %v; want context.Canceled for both, the race's cancellation", err, cause)
		}
		if before != nil {
			if got := context.Cause(before); got != context.Canceled {
				t.Fatalf("Cause of a context derived before = %v; want context.Canceled", got)
			}
		}
		if got := context.Cause(after); got != context.Canceled {
			t.Fatalf("Cause of a context derived after = %v; want context.Canceled", got)
		}
	})
}

// TestFirstCtxCauseFollowsParent: when the caller cancels first, the
// copy's Err is the parent's and its Cause the parent's cause, which a
// race cancellation afterwards does not replace.
func TestFirstCtxCauseFollowsParent(t *testing.T) {
	bothStates(t, func(t *testing.T, askDone bool) {
		leaktest.Check(t)
		parent, cancelParent := context.WithCancelCause(context.Background())
		c := newFirstCtx(parent, askDone)
		var before context.Context
		if askDone {
			var cancel context.CancelFunc
			before, cancel = context.WithCancel(c)
			defer cancel()
		}
		cancelParent(errParentCause)
		c.cancel()
		after, cancel := context.WithCancel(c)
		defer cancel()
		if err, cause := c.Err(), context.Cause(c); err != context.Canceled || cause != errParentCause {
			t.Fatalf("Err %v, Cause %v; want context.Canceled and the parent's cause", err, cause)
		}
		for _, child := range []context.Context{before, after} {
			if child == nil {
				continue
			}
			<-child.Done()
			if got := context.Cause(child); got != errParentCause {
				t.Fatalf("Cause of a derived context = %v; want the parent's cause", got)
			}
		}
	})
}

func TestFirstCtxDeadlineCause(t *testing.T) {
	leaktest.Check(t)
	parent, cancel := context.WithTimeoutCause(context.Background(), time.Millisecond, errParentCause)
	defer cancel()
	c := newFirstCtx(parent, false)
	<-parent.Done()
	if c.Err() != context.DeadlineExceeded || context.Cause(c) != errParentCause {
		t.Fatalf("Err %v Cause %v", c.Err(), context.Cause(c))
	}
	<-c.Done()
}

func TestFirstCtxFollowsParent(t *testing.T) {
	leaktest.Check(t)
	parent, cancel := context.WithTimeout(context.Background(), time.Hour)
	c := newFirstCtx(parent, false)
	if d, ok := c.Deadline(); !ok || time.Until(d) < 59*time.Minute {
		t.Fatalf("deadline %v %v", d, ok)
	}
	cancel()
	if !errors.Is(c.Err(), context.Canceled) {
		t.Fatalf("Err() = %v right after the parent was cancelled", c.Err())
	}
	select {
	case <-c.Done():
	case <-time.After(5 * time.Second):
		t.Fatal("not done after the parent was cancelled")
	}
	if !errors.Is(c.Err(), context.Canceled) {
		t.Fatalf("err %v", c.Err())
	}
}

// TestFirstCtxChildrenWithoutGoroutines: contexts derived from it are
// cancelled with it, by the context package's own children, not one
// goroutine each.
func TestFirstCtxChildrenWithoutGoroutines(t *testing.T) {
	leaktest.Check(t)
	parent, cancelParent := context.WithCancel(context.Background())
	defer cancelParent()
	c := newFirstCtx(parent, false)
	before := runtime.NumGoroutine()
	var children []context.Context
	for range 50 {
		child, cancel := context.WithCancel(c)
		defer cancel()
		children = append(children, child)
	}
	after := context.AfterFunc(c, func() {})
	defer after()
	if n := runtime.NumGoroutine() - before; n > 5 {
		t.Fatalf("%d goroutines started for 50 derived contexts", n)
	}
	stopped, stop := context.WithCancel(c)
	stop()
	c.cancel()
	for i, child := range children {
		select {
		case <-child.Done():
		case <-time.After(5 * time.Second):
			t.Fatalf("child %d not cancelled", i)
		}
	}
	if !errors.Is(stopped.Err(), context.Canceled) {
		t.Fatalf("stopped child: %v", stopped.Err())
	}
	// Derived after cancellation: done at once.
	late, cancel := context.WithCancel(c)
	defer cancel()
	select {
	case <-late.Done():
	default:
		t.Fatal("a context derived after cancellation is not done")
	}
}

// afterFuncParent is a cancellable parent outside the context package
// (its Done channel is its own) that counts the contexts registered with
// it through its AfterFunc method, and those unregistered.
type afterFuncParent struct {
	context.Context
	done                chan struct{}
	registered, stopped atomic.Int32
}

func newAfterFuncParent(t *testing.T) *afterFuncParent {
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	p := &afterFuncParent{Context: ctx, done: make(chan struct{})}
	context.AfterFunc(ctx, func() { close(p.done) })
	return p
}

func (p *afterFuncParent) Done() <-chan struct{} { return p.done }

func (p *afterFuncParent) AfterFunc(f func()) func() bool {
	p.registered.Add(1)
	stop := context.AfterFunc(p.Context, f)
	return func() bool { p.stopped.Add(1); return stop() }
}

// TestFirstCtxRegistersWithParentOnlyWhenAsked: a first copy that never
// looks at Done costs the parent nothing; one that does registers once and
// is unregistered when the race cancels it.
func TestFirstCtxRegistersWithParentOnlyWhenAsked(t *testing.T) {
	leaktest.Check(t)
	p := newAfterFuncParent(t)
	c := newFirstCtx(p, false)
	c.Err()
	c.Value("key")
	c.cancel()
	if n := p.registered.Load(); n != 0 {
		t.Fatalf("%d registrations with the parent for a copy that never asked for Done", n)
	}
	c = newFirstCtx(p, true)
	c.Done()
	if n := p.registered.Load(); n != 1 {
		t.Fatalf("%d registrations with the parent; want 1", n)
	}
	c.cancel()
	if n := p.stopped.Load(); n != 1 {
		t.Fatal("the copy stayed registered with the parent after the race cancelled it")
	}
}

// TestFirstCtxCancelRacesDone: the race's cancellation and a first call
// of Done, at once, leave the context done with context.Canceled,
// whichever comes first (run with -race).
func TestFirstCtxCancelRacesDone(t *testing.T) {
	leaktest.Check(t)
	parent, cancelParent := context.WithCancel(context.Background())
	defer cancelParent()
	for range 2000 {
		c := newFirstCtx(parent, false)
		var wg sync.WaitGroup
		wg.Go(c.cancel)
		done := c.Done()
		wg.Wait()
		select {
		case <-done:
		default:
			t.Fatal("not done after the race cancelled it")
		}
		if c.Err() != context.Canceled || context.Cause(c) != context.Canceled {
			t.Fatalf("Err %v Cause %v", c.Err(), context.Cause(c))
		}
	}
}
