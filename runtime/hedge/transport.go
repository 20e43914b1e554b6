package hedge

import (
	"context"
	"crypto/rand"
	"net/http"
)

// IdempotencyKeyHeader marks a request that the server deduplicates, so
// sending it twice has the effect of sending it once, whatever its method.
const IdempotencyKeyHeader = "Idempotency-Key"

// NewIdempotencyKey returns a fresh idempotency key: 128 random bits as 26
// base32 characters, safe in a header. Make one per logical operation,
// before its first attempt, and send the same key with every copy and
// retry of it:
//
//	req.Header.Set(hedge.IdempotencyKeyHeader, hedge.NewIdempotencyKey())
func NewIdempotencyKey() string { return rand.Text() }

// Transport is an http.RoundTripper that hedges the requests HTTP allows
// to be sent twice: GET, HEAD, OPTIONS, TRACE, PUT and DELETE, and any
// request carrying an Idempotency-Key header. Other requests, and requests
// whose body cannot be replayed (a body without GetBody), are sent once,
// unhedged. Each copy is a clone of the request with a fresh body from
// GetBody. The first response wins, whatever its status (a server's
// answer is an answer); losing responses are closed, and the winner's
// context lives until its body is closed.
type Transport struct {
	// Base sends each copy; nil means http.DefaultTransport.
	Base http.RoundTripper
	// Policy is shared by every request through this Transport; nil
	// means a zero Policy of the Transport's own: adaptive delay, two
	// copies, and the default budget (extra copies up to 10% of the
	// requests of the last 10 s plus 1 a second; see Policy.Budget).
	Policy *Policy

	own Policy
}

// RoundTrip implements http.RoundTripper.
func (t *Transport) RoundTrip(req *http.Request) (*http.Response, error) {
	base := t.Base
	if base == nil {
		base = http.DefaultTransport
	}
	hasBody := req.Body != nil && req.Body != http.NoBody
	if !replayable(req) || hasBody && req.GetBody == nil {
		return base.RoundTrip(req)
	}
	if hasBody {
		// Every copy reads a body of its own; the original is ours to
		// close, as a RoundTripper must.
		req.Body.Close()
	}
	p := t.Policy
	if p == nil {
		p = &t.own
	}
	return Do(req.Context(), p, Idempotent(func(ctx context.Context) (*http.Response, error) {
		attempt := req.Clone(ctx)
		if hasBody {
			body, err := req.GetBody()
			if err != nil {
				return nil, err
			}
			attempt.Body = body
		}
		return base.RoundTrip(attempt)
	}))
}

// replayable reports whether sending req twice is, by HTTP semantics or
// by the server's promise, the same as sending it once.
func replayable(req *http.Request) bool {
	switch req.Method {
	case "", http.MethodGet, http.MethodHead, http.MethodOptions, http.MethodTrace, http.MethodPut, http.MethodDelete:
		return true
	}
	return req.Header.Get(IdempotencyKeyHeader) != ""
}
