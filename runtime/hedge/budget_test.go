package hedge_test

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"
	"testing"
	"time"

	"github.com/resilvet/resilvet/runtime/budget"
	"github.com/resilvet/resilvet/runtime/hedge"
	"github.com/resilvet/resilvet/runtime/internal/layer"
	"github.com/resilvet/resilvet/runtime/internal/leaktest"
	"github.com/resilvet/resilvet/runtime/retry"
)

// cristalhq/hedgedhttp#18: with no budget, latency above the delay hedges
// every call and doubles the load of a dependency that is already slow.
// The zero Policy has a budget of its own: 10% of the calls of the last
// 10 s plus 1 per second.
func TestZeroPolicyBudgetsHedges(t *testing.T) {
	leaktest.Check(t)
	fake := newFake()
	p := &hedge.Policy{Clock: fake} // zero but for the clock
	const calls = 400
	release := make(chan struct{})
	var started atomic.Int64
	errs := make(chan error, calls)
	for range calls {
		go func() {
			var n atomic.Int64
			_, err := hedge.Do(context.Background(), p, hedge.Idempotent(func(ctx context.Context) (int, error) {
				if n.Add(1) > 1 {
					return 2, nil
				}
				started.Add(1)
				select { // slow: answers when released, unless a hedge won
				case <-release:
					return 1, nil
				case <-ctx.Done():
					return 0, ctx.Err()
				}
			}))
			errs <- err
		}()
	}
	waitFor(t, "every first copy to start", func() bool { return started.Load() == calls })
	fake.Advance(p.CurrentDelay()) // every call's hedge is due
	waitFor(t, "every extra copy to be sent or refused", func() bool {
		m := p.Metrics()
		return m.Hedges+m.BudgetDenials == calls
	})
	close(release)
	for range calls {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
	const allowed = calls/10 + 10 // within one 10 s window
	if m := p.Metrics(); m.Calls != calls || m.Hedges != allowed || m.BudgetDenials != calls-allowed {
		t.Fatalf("metrics %+v; want %d extra copies for %d slow calls, %d refused", m, allowed, calls, calls-allowed)
	}
}

// TestTokenBucketLearnsFromHedgedCopies: a budget that learns from
// outcomes hears of every copy's failure, so a failing dependency drains
// it and it stops granting extra copies.
func TestTokenBucketLearnsFromHedgedCopies(t *testing.T) {
	leaktest.Check(t)
	tb := &budget.TokenBucket{} // 10 tokens; grants while above 5
	p := &hedge.Policy{Delay: time.Hour, Budget: tb, Clock: newFake()}
	failing := hedge.Idempotent(func(context.Context) (int, error) { return 0, &retry.StatusError{Code: 503} })
	for range 10 {
		if _, err := hedge.Do(context.Background(), p, failing); err == nil {
			t.Fatal("a failing call succeeded")
		}
	}
	// Each copy fails fast, and the next goes out at once if granted: the
	// first copies' failures leave 9 and 7 tokens, extra copies granted,
	// whose failures leave 8 and 6; the third call's leaves 5, and no
	// extra copy goes out again.
	if m := p.Metrics(); m.Hedges != 2 || m.BudgetDenials != 8 || tb.Tokens() != 0 {
		t.Fatalf("metrics %+v, %v tokens; want 2 extra copies, 8 refused, the bucket drained", m, tb.Tokens())
	}
}

// TestCancelledCopiesAreNotFailures: a loser the race cancelled, and a
// copy the caller cancelled, say nothing about the dependency.
func TestCancelledCopiesAreNotFailures(t *testing.T) {
	leaktest.Check(t)
	fake := newFake()
	tb := &budget.TokenBucket{}
	p := &hedge.Policy{Delay: time.Millisecond, Budget: tb, Clock: fake}
	for range 5 { // the hedge wins; the first copy is cancelled and fails
		var attempts, cancelled atomic.Int64
		if _, err := hedge.Do(context.Background(), p, slowThenFast(fake, time.Millisecond, &attempts, &cancelled)); err != nil {
			t.Fatal(err)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	_, err := hedge.Do(ctx, p, hedge.Idempotent(func(ctx context.Context) (int, error) {
		cancel()
		<-ctx.Done()
		return 0, ctx.Err()
	}))
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err %v", err)
	}
	if got := tb.Tokens(); got != 10 {
		t.Fatalf("%v tokens; cancelled copies must not count as failures (want the full 10)", got)
	}
}

// countingBudget counts deposits and grants every extra copy.
type countingBudget struct{ deposits, withdrawals atomic.Int64 }

func (b *countingBudget) Deposit()       { b.deposits.Add(1) }
func (b *countingBudget) Withdraw() bool { b.withdrawals.Add(1); return true }

// TestNestedDoDepositsOncePerBudget: one logical request deposits once in
// a budget however many hedge layers sharing it it crosses, through the
// first copy's context and the extra copies' alike; a layer with a budget
// of its own deposits in it.
func TestNestedDoDepositsOncePerBudget(t *testing.T) {
	leaktest.Check(t)
	answer := hedge.Idempotent(func(context.Context) (int, error) { return 1, nil })
	const calls = 5

	t.Run("shared budget", func(t *testing.T) {
		fake := newFake()
		shared := &countingBudget{}
		outer := &hedge.Policy{Delay: time.Millisecond, Budget: shared, Clock: fake}
		inner := &hedge.Policy{Delay: time.Hour, Budget: shared}
		for range calls {
			var n atomic.Int64
			_, err := hedge.Do(context.Background(), outer, hedge.Idempotent(func(ctx context.Context) (int, error) {
				if d := layer.From(ctx); d == nil || d.Budget != any(shared) {
					return 0, fmt.Errorf("a copy's context carries the mark %+v; want one naming the budget", d)
				}
				v, err := hedge.Do(ctx, inner, answer) // from the first copy and the hedge
				if n.Add(1) == 1 {
					fake.Advance(time.Millisecond) // the hedge goes out
					<-ctx.Done()
					return 0, ctx.Err()
				}
				return v, err
			}))
			if err != nil {
				t.Fatal(err)
			}
		}
		if got := shared.deposits.Load(); got != calls {
			t.Fatalf("%d deposits for %d logical requests through two layers sharing a budget", got, calls)
		}
		if got := outer.Metrics().Hedges; got != calls {
			t.Fatalf("%d hedges; want one a call", got)
		}
	})

	t.Run("own budgets", func(t *testing.T) {
		outerBudget, innerBudget := &countingBudget{}, &countingBudget{}
		outer := &hedge.Policy{Delay: time.Hour, Budget: outerBudget}
		inner := &hedge.Policy{Delay: time.Hour, Budget: innerBudget}
		for range calls {
			hedge.Do(context.Background(), outer, hedge.Idempotent(func(ctx context.Context) (int, error) {
				return hedge.Do(ctx, inner, answer)
			}))
		}
		if o, i := outerBudget.deposits.Load(), innerBudget.deposits.Load(); o != calls || i != calls {
			t.Fatalf("deposits: outer %d, inner %d; want %d in each", o, i, calls)
		}
	})
}

// TestAnswersOnTheMeritsAreNotFailures: a copy that fails with a fatal
// error (a 404: the dependency answered) says nothing about its health;
// a budget that learns from outcomes hears it neither as a failure nor,
// as retry does, at all.
func TestAnswersOnTheMeritsAreNotFailures(t *testing.T) {
	leaktest.Check(t)
	tb := &budget.TokenBucket{}
	p := &hedge.Policy{Delay: time.Hour, Budget: tb, Clock: newFake()}
	notFound := hedge.Idempotent(func(context.Context) (int, error) { return 0, &retry.StatusError{Code: 404} })
	for range 10 {
		if _, err := hedge.Do(context.Background(), p, notFound); err == nil {
			t.Fatal("a 404 succeeded")
		}
	}
	if got := tb.Tokens(); got != 10 {
		t.Fatalf("10 answers of 404 left %v tokens; want 10 (none taken)", got)
	}
	rp := &retry.Policy{Budget: &budget.TokenBucket{}, Sleep: func(ctx context.Context, _ time.Duration) error { return ctx.Err() }}
	for range 10 {
		_ = retry.Do(context.Background(), rp, func(context.Context) error { return &retry.StatusError{Code: 404} })
	}
	if got := rp.Budget.(*budget.TokenBucket).Tokens(); got != 10 {
		t.Fatalf("retry: 10 answers of 404 left %v tokens; want 10, as for the hedge", got)
	}
}
