package hedge

import (
	"context"
	"errors"
	"runtime"
	"testing"
	"time"

	"github.com/resilvet/resilvet/runtime/internal/leaktest"
)

// The first copy's context must behave exactly like a context.WithCancel
// child of its parent.

func TestFirstCtxCancelledByRace(t *testing.T) {
	leaktest.Check(t)
	type key struct{}
	parent := context.WithValue(context.Background(), key{}, "v")
	var c firstCtx
	c.init(parent)
	if c.Err() != nil || c.Value(key{}) != "v" {
		t.Fatalf("fresh: err %v value %v", c.Err(), c.Value(key{}))
	}
	done := c.Done()
	select {
	case <-done:
		t.Fatal("done before cancel")
	default:
	}
	c.cancel(context.Canceled)
	<-done
	if !errors.Is(c.Err(), context.Canceled) || !errors.Is(context.Cause(&c), context.Canceled) {
		t.Fatalf("err %v cause %v", c.Err(), context.Cause(&c))
	}
	c.cancel(context.DeadlineExceeded) // only the first cancel counts
	if c.Err() != context.Canceled {
		t.Fatalf("err changed to %v", c.Err())
	}
}

func TestFirstCtxCauseUnderCancellableParent(t *testing.T) {
	leaktest.Check(t)
	parent, cancel := context.WithCancel(context.Background())
	defer cancel()
	var c firstCtx
	c.init(parent)
	c.cancel(context.Canceled)
	// Without the key guard, Cause would report the live parent's nil.
	if got := context.Cause(&c); !errors.Is(got, context.Canceled) {
		t.Fatalf("Cause = %v; want context.Canceled", got)
	}
}

func TestFirstCtxFollowsParent(t *testing.T) {
	leaktest.Check(t)
	parent, cancel := context.WithTimeout(context.Background(), time.Hour)
	var c firstCtx
	c.init(parent)
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
// cancelled with it, through AfterFunc, not one goroutine each.
func TestFirstCtxChildrenWithoutGoroutines(t *testing.T) {
	leaktest.Check(t)
	parent, cancelParent := context.WithCancel(context.Background())
	defer cancelParent()
	var c firstCtx
	c.init(parent)
	before := runtime.NumGoroutine()
	var children []context.Context
	for range 50 {
		child, cancel := context.WithCancel(&c)
		defer cancel()
		children = append(children, child)
	}
	if n := runtime.NumGoroutine() - before; n > 5 {
		t.Fatalf("%d goroutines started for 50 derived contexts", n)
	}
	stopped, stop := context.WithCancel(&c)
	stop() // unregisters its hook
	c.mu.Lock()
	registered := len(c.hooks)
	c.mu.Unlock()
	if registered != 50 {
		t.Fatalf("%d hooks registered; want 50 (the stopped child's removed)", registered)
	}
	c.cancel(context.Canceled)
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
	c.mu.Lock()
	hooks := len(c.hooks)
	c.mu.Unlock()
	if hooks != 0 {
		t.Fatalf("%d hooks kept after cancel", hooks)
	}
	// Derived after cancellation: done at once.
	late, cancel := context.WithCancel(&c)
	defer cancel()
	select {
	case <-late.Done():
	case <-time.After(5 * time.Second):
		t.Fatal("a context derived after cancellation is not done")
	}
}

func TestFirstCtxDetachesFromParent(t *testing.T) {
	leaktest.Check(t)
	parent, cancel := context.WithCancel(context.Background())
	defer cancel()
	var c firstCtx
	c.init(parent)
	c.cancel(context.Canceled)
	if c.stopParent() {
		t.Fatal("the parent hook was still registered after cancel")
	}
}
