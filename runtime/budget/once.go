package budget

import (
	"context"

	"github.com/resilvet/resilvet/runtime/internal/layer"
)

// DepositOnce records the logical request ctx belongs to in b, unless a
// layer further out that shares b already did, and returns ctx marked so
// that the runtime's layers further in that share b (retry, hedge) do not
// deposit again. It is for protocol adapters whose layer can start a
// request without going through retry.Do or hedge.Do first, such as a
// stream that counts as a request when it opens and is retried only if
// it fails: a budget is a ratio of extra attempts to requests, so the
// stream that never fails must count too.
//
// A nil b deposits nothing and returns ctx. A context made with
// context.WithoutCancel from the returned one starts a new logical
// request, as for the layers' own contexts.
func DepositOnce(ctx context.Context, b Budget) context.Context {
	if b == nil || layer.Deposited(ctx, b) {
		return ctx
	}
	b.Deposit()
	c := &depositCtx{Context: ctx}
	c.deposit.Set(ctx, b)
	return c
}

// depositCtx is a context marked, as the runtime's layers mark theirs,
// with a deposit in a budget.
type depositCtx struct {
	context.Context
	deposit layer.Deposit
	cancel  layer.Cancel
}

func (c *depositCtx) Done() <-chan struct{} { return c.cancel.Done(c.Context) }

func (c *depositCtx) Value(key any) any {
	if key == layer.Key {
		return &c.deposit
	}
	return c.cancel.Value(c.Context, key)
}

func (c *depositCtx) String() string { return "budget.depositContext" }
