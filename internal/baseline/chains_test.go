package baseline_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/resilvet/resilvet/internal/baseline"
)

// stableMessages are messages of the analyzers' fixtures (testdata/src)
// and what the identity keeps of them: every shape that names a function
// on a finding's chain, and shapes that name only what the finding is
// about, which stay.
var stableMessages = []struct{ msg, stable string }{
	// notimeout: the helpers go, the call reached stays.
	{"context.TODO() reaches sql.DB.QueryContext (via lib.Client.Load -> lib.Client.load -> lib.query -> sql.DB.QueryContext) with no deadline, so the call can wait forever on a slow dependency; bound it with context.WithTimeout or deadline.Ensure",
		"context.TODO() reaches sql.DB.QueryContext (via … -> sql.DB.QueryContext) with no deadline, so the call can wait forever on a slow dependency; bound it with context.WithTimeout or deadline.Ensure"},
	{"context.Background() reaches sql.DB.QueryContext (via everyday.withConn -> everyday.closureThroughHelper (closure) -> sql.DB.QueryContext) with no deadline, so the call can wait forever on a slow dependency; bound it with context.WithTimeout or deadline.Ensure",
		"context.Background() reaches sql.DB.QueryContext (via … -> sql.DB.QueryContext) with no deadline, so the call can wait forever on a slow dependency; bound it with context.WithTimeout or deadline.Ensure"},
	{"context.Background() (from lib.Background) reaches sql.DB.QueryContext (via lib.Client.Load -> lib.Client.load -> lib.query -> sql.DB.QueryContext) with no deadline, so the call can wait forever on a slow dependency; bound it with context.WithTimeout or deadline.Ensure",
		"context.Background() (from …) reaches sql.DB.QueryContext (via … -> sql.DB.QueryContext) with no deadline, so the call can wait forever on a slow dependency; bound it with context.WithTimeout or deadline.Ensure"},
	{"lib.Send has no timeout: a client without Timeout (from lib.NewBareClient) at lib.go:32:21 is unbounded (via lib.Send -> http.Client.Get), so a slow peer holds the caller forever; set Timeout on it",
		"lib.Send has no timeout: a client without Timeout (from …) at … is unbounded (via … -> http.Client.Get), so a slow peer holds the caller forever; set Timeout on it"},
	{"handler app.Handle passes r.Context(), which has no deadline unless middleware sets one, to sql.DB.QueryContext (via lib.Good -> sql.DB.QueryContext); set a deadline at the edge with context.WithTimeout or http.TimeoutHandler",
		"handler app.Handle passes r.Context(), which has no deadline unless middleware sets one, to sql.DB.QueryContext (via … -> sql.DB.QueryContext); set a deadline at the edge with context.WithTimeout or http.TimeoutHandler"},
	{"handler edge.handle passes r.Context(), which has no deadline unless middleware sets one, to http.Client.Do (via http.Client.Do); set a deadline at the edge with context.WithTimeout or http.TimeoutHandler",
		"handler edge.handle passes r.Context(), which has no deadline unless middleware sets one, to http.Client.Do (via http.Client.Do); set a deadline at the edge with context.WithTimeout or http.TimeoutHandler"},
	{"http.Client.Get has no timeout: it sends its request without a context and a client without Timeout (from a function value) at everyday.go:244:70 has no Timeout, so a slow server holds the caller forever; set Timeout on the client",
		"http.Client.Get has no timeout: it sends its request without a context and a client without Timeout (from a function value) at … has no Timeout, so a slow server holds the caller forever; set Timeout on the client"},
	{"everyday.doer.Do has no deadline: the request's context (http.NewRequest's context.Background() at everyday.go:187:14) has none and the client (a client without Timeout at everyday.go:175:50) has no Timeout, so a slow server holds the caller forever; set Timeout on the client or give the request a context with a deadline",
		"everyday.doer.Do has no deadline: the request's context (http.NewRequest's context.Background() at …) has none and the client (a client without Timeout at …) has no Timeout, so a slow server holds the caller forever; set Timeout on the client or give the request a context with a deadline"},
	// ctxdrop: the callee stays, the helpers between it and the root go.
	{"call to lib.Health drops the caller's context: it calls net.Dial, which takes none (lib.go:103:9 via lib.Connect); add a context.Context parameter to lib.Health and call (*net.Dialer).DialContext with it",
		"call to lib.Health drops the caller's context: it calls net.Dial, which takes none (… via …); add a context.Context parameter to lib.Health and call (*net.Dialer).DialContext with it"},
	{"call to lib.Load drops the caller's context: it makes its own context.Background() for context-taking work (lib.go:18:28); add a context.Context parameter to lib.Load and pass r.Context() (1 more call in this package)",
		"call to lib.Load drops the caller's context: it makes its own context.Background() for context-taking work (…); add a context.Context parameter to lib.Load and pass r.Context()"},
	{"context.Background() passed to basic.work while ctx is available, so the call ignores the caller's deadline and cancellation; pass ctx instead",
		"context.Background() passed to basic.work while ctx is available, so the call ignores the caller's deadline and cancellation; pass ctx instead"},
	{"makers.Detached makes a fresh context from context.Background(), used for sql.DB.QueryContext while r.Context() is available, so the call ignores the caller's deadline and cancellation; derive the context from r.Context() instead",
		"makers.Detached makes a fresh context from context.Background(), used for sql.DB.QueryContext while r.Context() is available, so the call ignores the caller's deadline and cancellation; derive the context from r.Context() instead"},
	// ctxdrop's root made in a dependency, at a helper of the module on
	// the way (no fixture reaches it; the shape of its format string):
	// the helper and its alternative go unless the helper is the callee.
	{"call to api.Sync drops the caller's context: store.Load makes its own context.Background() in example.com/dep (dep.go:9:12); call store.LoadContext with ctx instead",
		"call to api.Sync drops the caller's context: … makes its own context.Background() in example.com/dep (…); call … with ctx instead"},
	{"call to store.Load drops the caller's context: store.Load makes its own context.Background() in example.com/dep (dep.go:9:12); call store.LoadContext with ctx instead",
		"call to store.Load drops the caller's context: store.Load makes its own context.Background() in example.com/dep (…); call store.LoadContext with ctx instead"},
	// retrystack: the layers' functions go; the libraries' layers, the
	// counts and the product stay.
	{"retry loop (2 attempts) wraps basic.Client.Closure (closure), which retries 3× around api.API.GetAccount, which retries 3× (api.go:20) around store.Store.LoadAccount, which retries 3× (store.go:17): up to 54 attempts per call; keep retries at one layer",
		"retry loop (2 attempts) wraps …, which retries 3× around …, which retries 3× (…) around …, which retries 3× (…): up to 54 attempts per call; keep retries at one layer"},
	{"retry loop in retryutil.Do (5 attempts) wraps api.API.GetAccount, which retries 3× (api.go:20) around store.Store.LoadAccount, which retries 3× (store.go:17): up to 45 attempts per call; keep retries at one layer",
		"retry loop in … (5 attempts) wraps …, which retries 3× (…) around …, which retries 3× (…): up to 45 attempts per call; keep retries at one layer"},
	{"retry loop (3 attempts) wraps retry.Do (4 attempts) around api.API.GetAccount, which retries 3× (api.go:20) around store.Store.LoadAccount, which retries 3× (store.go:17): up to 108 attempts per call; keep retries at one layer",
		"retry loop (3 attempts) wraps retry.Do (4 attempts) around …, which retries 3× (…) around …, which retries 3× (…): up to 108 attempts per call; keep retries at one layer"},
	{"retry.Do in libs.RuntimeNestedParam (3 attempts) wraps libs.RuntimeNestedParam (closure), which retries 2× with retry.Do (libs.go:105): up to 6 attempts per call; keep retries at one layer",
		"retry.Do in … (3 attempts) wraps …, which retries 2× with retry.Do (…): up to 6 attempts per call; keep retries at one layer"},
	{"retry loop (3 attempts) wraps client.Client.Get, which retries a number of times set at run time (client.go:55): attempts multiply; keep retries at one layer",
		"retry loop (3 attempts) wraps …, which retries a number of times set at run time (…): attempts multiply; keep retries at one layer"},
	{"retry loop (3 attempts) wraps minio.Client.StatObject (10 attempts): up to 30 attempts per call; the client already retries: make this layer a single attempt, or turn the client's retries off",
		"retry loop (3 attempts) wraps minio.Client.StatObject (10 attempts): up to 30 attempts per call; the client already retries: make this layer a single attempt, or turn the client's retries off"},
	{"retry loop around lib.Payments.Charge sleeps without its context, so the retry waits past the deadline and after cancellation; wait in a select on ctx.Done() and a timer",
		"retry loop around lib.Payments.Charge sleeps without its context, so the retry waits past the deadline and after cancellation; wait in a select on ctx.Done() and a timer"},
	// hedgeidem names the operation the flagged code runs and the
	// library call with the effect, not the chain between: all stays.
	{"retry.Do (10 attempts) retries retries.Store.save, which runs an INSERT without an upsert clause (insert into events) (retries.go:70), and an attempt that failed or timed out may already have taken effect; make the statement an upsert on an operation id, or do not retry it",
		"retry.Do (10 attempts) retries retries.Store.save, which runs an INSERT without an upsert clause (insert into events) (…), and an attempt that failed or timed out may already have taken effect; make the statement an upsert on an operation id, or do not retry it"},
}

func TestStableMessageBlanksChainNames(t *testing.T) {
	for _, c := range stableMessages {
		assert.Equal(t, c.stable, baseline.StableMessage(c.msg))
	}
}

// TestStableMessageIsIdempotent: NewMatcher passes a file's messages
// through StableMessage again, which must leave a current file's alone.
func TestStableMessageIsIdempotent(t *testing.T) {
	for _, c := range stableMessages {
		assert.Equal(t, c.stable, baseline.StableMessage(c.stable))
	}
}

func TestStableMessageKeepsUnbalancedParentheses(t *testing.T) {
	for _, msg := range []string{"a (via x -> y", "a ) (via x -> y)) b", "((via a -> b)", "(… via"} {
		assert.NotPanics(t, func() { baseline.StableMessage(msg) }, msg)
	}
	assert.Equal(t, "a (via x -> y", baseline.StableMessage("a (via x -> y"))
	assert.Equal(t, "a ) (via … -> y)) b", baseline.StableMessage("a ) (via x -> y)) b"))
}
