// Package hedge is a stub of the resilvet runtime's hedge package: the
// API the summaries recognise.
package hedge

import (
	"context"
	"net/http"
)

// Transport sends hedged copies of idempotent requests.
type Transport struct {
	Base http.RoundTripper
}

func (t *Transport) RoundTrip(req *http.Request) (*http.Response, error) {
	return t.Base.RoundTrip(req)
}

const IdempotencyKeyHeader = "Idempotency-Key"

func NewIdempotencyKey() string { return "" }

type Op[T any] struct {
	fn func(context.Context) (T, error)
}

func Idempotent[T any](fn func(context.Context) (T, error)) Op[T] { return Op[T]{fn: fn} }

type Policy struct{ MaxAttempts int }

func Do[T any](ctx context.Context, p *Policy, op Op[T]) (T, error) { return op.fn(ctx) }
