package retry

import (
	"context"
	"net/http"
	"strconv"
	"sync/atomic"

	"github.com/resilvet/resilvet/runtime/internal/layer"
)

// AttemptHeader tells a server that its caller retries this request and
// which attempt it is (1 for the first). Middleware puts it back into the
// request context for callers the server trusts, where Do finds it and
// leaves the failures the caller retries to the caller.
const AttemptHeader = "Retry-Attempt"

type attemptKey struct{}

// attemptCtx is the context an attempt runs with: the caller's, marked
// with the attempt number and the layer that runs it, in one allocation.
// Contexts derived from it find the marks through Value; cancellation is
// the caller's context's own (Done, Err and Deadline are the embedded
// context's, so the context package registers children directly with the
// caller's cancellable ancestor). Under a caller that can never be
// cancelled, Done is a channel of the attempt's own that is never closed
// (layer.Cancel): what tells a job detached with context.WithoutCancel.
type attemptCtx struct {
	context.Context
	n       int
	policy  *Policy          // nil for a caller's attempt that arrived over a protocol
	caller  func(error) bool // what that caller retries; nil: Transient
	retries bool             // the layer may retry (MaxAttempts > 1)
	over    atomic.Bool      // the attempt has returned
	deposit *layer.Deposit   // when this layer deposited in its budget
	cancel  layer.Cancel
}

// markedAttempt is a layer's first attempt and its budget mark, in one
// allocation: the mark outlives the attempt, and every attempt of the
// layer points to it.
type markedAttempt struct {
	attemptCtx
	deposit layer.Deposit
}

func (c *attemptCtx) Done() <-chan struct{} { return c.cancel.Done(c.Context) }

func (c *attemptCtx) Value(key any) any {
	switch key {
	case attemptKey{}:
		return c
	case layer.Key:
		if c.deposit != nil && !c.over.Load() {
			return c.deposit
		}
	}
	return c.cancel.Value(c.Context, key)
}

func (c *attemptCtx) String() string { return "retry.attemptContext" }

// Attempt returns the attempt number that ctx carries and true when ctx is
// inside an attempt of a retry layer that is still running it: one of
// this process's layers, or a trusted caller that sent AttemptHeader.
func Attempt(ctx context.Context) (int, bool) {
	if a := live(ctx); a != nil {
		return a.n, true
	}
	return 0, false
}

// Retrying returns the attempt number of the innermost live retry layer
// ctx runs in that retries (MaxAttempts above 1), and true; this is what
// Transport sends in AttemptHeader and what the gRPC adapter sends in
// metadata, so that a server can leave the retrying to its caller.
func Retrying(ctx context.Context) (int, bool) {
	if a := enclosing(ctx); a != nil {
		return a.n, true
	}
	return 0, false
}

// WithCaller returns ctx marked as attempt n of a caller that retries,
// as Middleware marks a request from a trusted caller that sent
// AttemptHeader: retry layers under it leave to the caller the failures
// that Transient retries. Protocol adapters (gRPC metadata, a queue
// message's attribute) call it for callers they trust. The mark ends when
// done is called: work the request leaves running is its own.
func WithCaller(ctx context.Context, n int) (marked context.Context, done func()) {
	return WithCallerRetrying(ctx, n, nil)
}

// WithCallerRetrying is WithCaller for a caller known to retry what
// retries retries (nil: Transient). A protocol adapter knows what its
// clients retry: a gRPC client retries status codes (Unavailable), which
// Transient does not know, so a handler's layer classifying a backend's
// Unavailable as retryable would otherwise retry it under a caller that
// retries it too, multiplying across the hop.
func WithCallerRetrying(ctx context.Context, n int, retries func(error) bool) (marked context.Context, done func()) {
	if n < 1 {
		return ctx, func() {}
	}
	a := &attemptCtx{Context: ctx, n: n, retries: true, caller: retries}
	return a, func() { a.over.Store(true) }
}

// live returns the innermost attempt ctx belongs to, unless that attempt
// has returned or ctx was detached from it (context.WithoutCancel): then
// ctx serves a new logical operation.
func live(ctx context.Context) *attemptCtx {
	a, _ := ctx.Value(attemptKey{}).(*attemptCtx)
	if a == nil || a.over.Load() || layer.OriginOf(a.Context).Detached(ctx) {
		return nil
	}
	return a
}

// enclosing returns the innermost live attempt ctx runs in whose layer
// retries (a layer with MaxAttempts 1 in between retries nothing).
func enclosing(ctx context.Context) *attemptCtx {
	for a := live(ctx); a != nil; a = live(a.Context) {
		if a.retries {
			return a
		}
	}
	return nil
}

// retriesAbove reports whether a's layer, or one enclosing it, would
// retry err: the rule that keeps nested layers from multiplying. A caller
// across a protocol is taken to retry what its adapter said it retries,
// or what Transient retries.
func (a *attemptCtx) retriesAbove(err error) bool {
	for ; a != nil; a = enclosing(a.Context) {
		if a.callerRetries(err) {
			return true
		}
	}
	return false
}

func (a *attemptCtx) callerRetries(err error) bool {
	switch {
	case a.policy != nil:
		return a.policy.classify(err)
	case a.caller != nil:
		return a.caller(err)
	}
	return Transient(err)
}

// Transport is an http.RoundTripper that sends AttemptHeader on requests
// made inside a layer that retries (MaxAttempts above 1), so the server
// can leave the retrying to its caller. The zero value uses
// http.DefaultTransport.
type Transport struct {
	Base http.RoundTripper
}

// RoundTrip implements http.RoundTripper.
func (t *Transport) RoundTrip(req *http.Request) (*http.Response, error) {
	base := t.Base
	if base == nil {
		base = http.DefaultTransport
	}
	n, ok := Retrying(req.Context())
	if !ok {
		return base.RoundTrip(req)
	}
	out := req.Clone(req.Context())
	out.Header.Set(AttemptHeader, strconv.Itoa(n))
	return base.RoundTrip(out)
}

// Middleware puts the attempt number a caller sent in AttemptHeader into
// the request context, so the handler's retry layers leave to the caller
// the failures it retries. It does so only for requests trusted accepts:
// any client can send the header, and one that could would switch the
// server's retries off. A nil trusted trusts no one (the header is
// ignored). TrustAll suits servers reachable only through a proxy or mesh
// that strips the header from outside traffic; otherwise trust callers by
// what authenticates them (a client certificate, an internal network).
func Middleware(next http.Handler, trusted func(*http.Request) bool) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := r.Header.Get(AttemptHeader)
		if h == "" || trusted == nil || !trusted(r) {
			next.ServeHTTP(w, r)
			return
		}
		n, err := strconv.Atoi(h)
		if err != nil || n < 1 {
			next.ServeHTTP(w, r)
			return
		}
		ctx, done := WithCaller(r.Context(), n)
		defer done()
		next.ServeHTTP(w, r.WithContext(ctx))
	})
}

// TrustAll is a Middleware trust function that trusts every caller.
func TrustAll(*http.Request) bool { return true }
