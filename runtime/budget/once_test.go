package budget_test

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
	"time"

	"github.com/resilvet/resilvet/runtime/budget"
	"github.com/resilvet/resilvet/runtime/retry"
)

type countingBudget struct{ deposits, withdrawals atomic.Int64 }

func (c *countingBudget) Deposit()       { c.deposits.Add(1) }
func (c *countingBudget) Withdraw() bool { c.withdrawals.Add(1); return true }

// TestDepositOnce: an adapter's deposit counts the logical request once
// with the runtime's layers further in that share the budget, and a job
// detached from it is a request of its own.
func TestDepositOnce(t *testing.T) {
	b := &countingBudget{}
	ctx := budget.DepositOnce(context.Background(), b)
	_ = budget.DepositOnce(ctx, b)
	if b.deposits.Load() != 1 {
		t.Fatalf("a second DepositOnce in the same request deposited: %d deposits; want 1", b.deposits.Load())
	}
	failing := errors.New("connection reset")
	p := &retry.Policy{MaxAttempts: 3, Budget: b, Sleep: func(context.Context, time.Duration) error { return nil }, Retryable: func(error) bool { return true }}
	_ = retry.Do(ctx, p, func(context.Context) error { return failing })
	if got := b.deposits.Load(); got != 1 {
		t.Fatalf("retry.Do inside DepositOnce deposited again: %d deposits; want 1", got)
	}
	if b.withdrawals.Load() != 2 {
		t.Fatalf("retries withdrew %d times; want 2", b.withdrawals.Load())
	}
	_ = budget.DepositOnce(context.WithoutCancel(ctx), b)
	if got := b.deposits.Load(); got != 2 {
		t.Fatalf("a job detached with WithoutCancel did not deposit as its own request: %d deposits; want 2", got)
	}
	if got := budget.DepositOnce(ctx, nil); got != ctx {
		t.Fatal("a nil budget must leave the context as it is")
	}
	other := &countingBudget{}
	_ = budget.DepositOnce(ctx, other)
	if other.deposits.Load() != 1 {
		t.Fatal("a different budget must get its own deposit")
	}
}
