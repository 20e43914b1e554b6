// Package clients builds the outbound HTTP clients and gRPC connections
// the services share, and the small retry helpers they send through.
package clients

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"time"

	"github.com/cristalhq/hedgedhttp"
	"github.com/hashicorp/go-retryablehttp"
)

// HTTP holds the process's outbound HTTP clients.
type HTTP struct {
	// Hedged sends a second copy of a request that has not answered
	// within the hedge delay. Use it for latency-sensitive calls.
	Hedged *http.Client
	// Plain sends every request once.
	Plain *http.Client
}

// Default is the hedged client for calls made outside a service: start-up
// registration, cache warming and the fire-and-forget helpers below.
var Default, _ = hedgedhttp.NewClient(80*time.Millisecond, 2, &http.Client{Timeout: 5 * time.Second})

// NewHTTP returns the shared clients; hedgeAfter is how long the hedged
// client waits before it sends another copy.
//
// heldout: clean — builds clients, sends nothing
func NewHTTP(hedgeAfter time.Duration) (*HTTP, error) {
	hedged, err := hedgedhttp.NewClient(hedgeAfter, 3, &http.Client{Timeout: 10 * time.Second})
	if err != nil {
		return nil, fmt.Errorf("hedged client: %w", err)
	}
	return &HTTP{
		Hedged: hedged,
		Plain:  &http.Client{Timeout: 15 * time.Second},
	}, nil
}

// NewHedged returns a client that sends up to three copies of a request,
// hedgeAfter apart.
//
// heldout: clean — constructor returning a hedgedhttp.NewClient, sends nothing
func NewHedged(hedgeAfter time.Duration) (*http.Client, error) {
	hedged, err := hedgedhttp.NewClient(hedgeAfter, 3, &http.Client{Timeout: 10 * time.Second})
	if err != nil {
		return nil, fmt.Errorf("hedged client: %w", err)
	}
	return hedged, nil
}

// NewRetrying returns the retrying client webhooks go out through.
//
// heldout: clean — constructor of a go-retryablehttp client, no send
func NewRetrying() *retryablehttp.Client {
	c := retryablehttp.NewClient()
	c.RetryWaitMin = 200 * time.Millisecond
	c.RetryWaitMax = 5 * time.Second
	return c
}

// Send sends req with c, trying again on transport errors and 5xx
// answers, three attempts in all. The request's body is rewound with
// GetBody before each attempt.
//
// heldout: clean — retries a request it is given: its callers decide the method and key, and are reported at their call
func Send(ctx context.Context, c *http.Client, req *http.Request) (*http.Response, error) {
	var lastErr error
	for attempt := 0; attempt < 3; attempt++ {
		r := req.Clone(ctx)
		if req.GetBody != nil {
			body, err := req.GetBody()
			if err != nil {
				return nil, err
			}
			r.Body = body
		}
		resp, err := c.Do(r)
		if err == nil && resp.StatusCode < http.StatusInternalServerError {
			return resp, nil
		}
		if err == nil {
			io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			err = fmt.Errorf("%s %s: %s", req.Method, req.URL.Redacted(), resp.Status)
		}
		lastErr = err
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(time.Duration(attempt+1) * 150 * time.Millisecond):
		}
	}
	return nil, lastErr
}

// SetIdempotencyKey sets the key the receiving service deduplicates on.
//
// heldout: clean — sets a header, sends nothing
func SetIdempotencyKey(req *http.Request, key string) {
	req.Header.Set("Idempotency-Key", key)
}

// Do runs fn up to attempts times, waiting a little longer after each
// failure, until it succeeds or ctx is done.
//
// heldout: clean — a retry helper around a func it is given: the caller whose func has an effect is reported
func Do(ctx context.Context, attempts int, fn func(context.Context) error) error {
	var err error
	for i := 0; i < attempts; i++ {
		if err = fn(ctx); err == nil {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(time.Duration(i+1) * 100 * time.Millisecond):
		}
	}
	return err
}

// PostJSON posts v as JSON to url with the Default client and discards
// the answer: fulfilment and analytics hooks use it.
//
// heldout: hedgeidem — POST without an idempotency key sent through Default, a package variable holding a hedgedhttp.NewClient (2 copies)
func PostJSON(ctx context.Context, url string, v any) error {
	body, err := json.Marshal(v)
	if err != nil {
		return err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := Default.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode >= 300 {
		return fmt.Errorf("post %s: %s", url, resp.Status)
	}
	return nil
}
