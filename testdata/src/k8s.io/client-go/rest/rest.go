// Package rest stands in for client-go's REST client: a request that
// retries only when the server answers with Retry-After, gated by a
// retrier made from the request's maxRetries.
package rest

import (
	"context"
	"errors"
	"net/http"
)

// WithRetry decides whether a request goes round again.
type WithRetry interface {
	Before(ctx context.Context, r *Request) error
	After(ctx context.Context, r *Request, resp *http.Response, err error)
}

type retrier struct{ left int }

func (r *retrier) Before(ctx context.Context, _ *Request) error {
	if r.left <= 0 {
		return errors.New("too many retries")
	}
	r.left--
	return ctx.Err()
}

func (r *retrier) After(context.Context, *Request, *http.Response, error) {}

// Request is one call to the API server.
type Request struct {
	client     *http.Client
	url        string
	maxRetries int
}

// Watch opens a watch, going round again only at the server's request.
func (r *Request) Watch(ctx context.Context) (*http.Response, error) {
	var retry WithRetry = &retrier{left: r.maxRetries}
	for {
		if err := retry.Before(ctx, r); err != nil {
			return nil, err
		}
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, r.url, nil)
		if err != nil {
			return nil, err
		}
		resp, err := r.client.Do(req)
		retry.After(ctx, r, resp, err)
		if err == nil && resp.StatusCode == http.StatusOK {
			return resp, nil
		}
	}
}
