package deadline_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/resilvet/resilvet/runtime/deadline"
	"github.com/resilvet/resilvet/runtime/internal/clock"
	"github.com/resilvet/resilvet/runtime/internal/leaktest"
)

// withDeadline returns a context whose deadline is d after the fake now.
// The real timer behind it is far in the future, so only the fake clock
// decides what remains.
func withDeadline(t *testing.T, parent context.Context, fake *clock.Fake, d time.Duration) context.Context {
	t.Helper()
	ctx, cancel := context.WithDeadline(parent, fake.Now().Add(d))
	t.Cleanup(cancel)
	return ctx
}

func farFake() *clock.Fake { return clock.NewFake(time.Now().Add(24 * time.Hour)) }

func TestRemaining(t *testing.T) {
	leaktest.Check(t)
	fake := farFake()
	b := deadline.Budget{Clock: fake}
	if _, ok := b.Remaining(context.Background()); ok {
		t.Fatal("Remaining reported a deadline on context.Background()")
	}
	ctx := withDeadline(t, context.Background(), fake, 3*time.Second)
	fake.Advance(time.Second)
	if left, ok := b.Remaining(ctx); !ok || left != 2*time.Second {
		t.Fatalf("Remaining = %v, %v; want 2s, true", left, ok)
	}
}

func TestEnsure(t *testing.T) {
	leaktest.Check(t)
	fake := farFake()
	b := deadline.Budget{Clock: fake}
	for _, tc := range []struct {
		name   string
		parent time.Duration // 0: no deadline
		ensure time.Duration
		want   time.Duration
	}{
		{"adds a deadline where none exists", 0, 5 * time.Second, 5 * time.Second},
		{"keeps an earlier deadline", 2 * time.Second, 5 * time.Second, 2 * time.Second},
		{"shortens a later deadline", 10 * time.Second, 5 * time.Second, 5 * time.Second},
	} {
		t.Run(tc.name, func(t *testing.T) {
			parent := context.Background()
			if tc.parent > 0 {
				parent = withDeadline(t, parent, fake, tc.parent)
			}
			ctx, cancel := b.Ensure(parent, tc.ensure)
			defer cancel()
			if left, ok := b.Remaining(ctx); !ok || left != tc.want {
				t.Fatalf("remaining = %v, %v; want %v", left, ok, tc.want)
			}
		})
	}
	// The cancel function really cancels, also when the deadline was kept.
	parent := withDeadline(t, context.Background(), fake, time.Second)
	ctx, cancel := b.Ensure(parent, time.Hour)
	cancel()
	if !errors.Is(ctx.Err(), context.Canceled) {
		t.Fatalf("after cancel, Err = %v", ctx.Err())
	}
}

func TestReserve(t *testing.T) {
	leaktest.Check(t)
	fake := farFake()
	b := deadline.Budget{Clock: fake}

	ctx, cancel, err := b.Reserve(withDeadline(t, context.Background(), fake, time.Second), 200*time.Millisecond)
	defer cancel()
	if err != nil {
		t.Fatal(err)
	}
	if left, _ := b.Remaining(ctx); left != 800*time.Millisecond {
		t.Fatalf("reserved child has %v; want 800ms", left)
	}

	for _, tc := range []struct {
		left time.Duration
		want error
	}{
		{100 * time.Millisecond, deadline.ErrInsufficient},
		{200 * time.Millisecond, deadline.ErrInsufficient},
		{0, deadline.ErrExpired},
		{-time.Second, deadline.ErrExpired},
	} {
		parent := withDeadline(t, context.Background(), fake, tc.left)
		ctx, cancel, err := b.Reserve(parent, 200*time.Millisecond)
		if !errors.Is(err, tc.want) {
			t.Errorf("left %v: err = %v; want %v", tc.left, err, tc.want)
		}
		if ctx.Err() == nil {
			t.Errorf("left %v: the returned context must already be cancelled", tc.left)
		}
		cancel()
	}

	ctx, cancel, err = b.Reserve(context.Background(), time.Second)
	defer cancel()
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := ctx.Deadline(); ok {
		t.Fatal("Reserve invented a deadline")
	}
}

func TestCheck(t *testing.T) {
	leaktest.Check(t)
	fake := farFake()
	b := deadline.Budget{Clock: fake}
	done, cancel := context.WithCancel(context.Background())
	cancel()
	for _, tc := range []struct {
		name string
		ctx  context.Context
		need time.Duration
		want error
	}{
		{"no deadline", context.Background(), time.Hour, nil},
		{"enough", withDeadline(t, context.Background(), fake, time.Second), 500 * time.Millisecond, nil},
		{"not enough", withDeadline(t, context.Background(), fake, time.Second), 2 * time.Second, deadline.ErrInsufficient},
		{"expired", withDeadline(t, context.Background(), fake, -time.Millisecond), 0, deadline.ErrExpired},
		{"cancelled", done, 0, context.Canceled},
	} {
		if err := b.Check(tc.ctx, tc.need); !errors.Is(err, tc.want) {
			t.Errorf("%s: Check = %v; want %v", tc.name, err, tc.want)
		}
	}
}

func TestLive(t *testing.T) {
	leaktest.Check(t)
	fake := farFake()
	b := deadline.Budget{Clock: fake}
	type job struct {
		id  int
		ctx context.Context
	}
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	jobs := []*job{
		{1, context.Background()},
		{2, withDeadline(t, context.Background(), fake, -time.Second)},
		{3, withDeadline(t, context.Background(), fake, time.Second)},
		{4, cancelled},
	}
	all := jobs
	live := deadline.LiveAt(b, jobs, func(j *job) context.Context { return j.ctx })
	if len(live) != 2 || live[0].id != 1 || live[1].id != 3 {
		t.Fatalf("live = %v", live)
	}
	if all[2] != nil || all[3] != nil {
		t.Fatal("dropped items must be cleared so they can be collected")
	}
}
