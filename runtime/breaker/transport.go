package breaker

import (
	"context"
	"errors"
	"fmt"
	"net/http"
)

// Transport is an http.RoundTripper guarded by breakers, one per host by
// default. Transport errors, 5xx and 429 responses count as failures;
// other responses, 4xx included, as successes (the dependency answered).
// When the circuit is open the request is not sent and RoundTrip returns
// an error wrapping the *OpenError, which tells when to retry.
type Transport struct {
	// Base sends requests; nil means http.DefaultTransport.
	Base http.RoundTripper
	// Breakers holds the breakers; Key picks one per request (nil means
	// req.URL.Host).
	Breakers *Group
	Key      func(*http.Request) string
}

var errStatus = errors.New("breaker: failure status")

// RoundTrip implements http.RoundTripper.
func (t *Transport) RoundTrip(req *http.Request) (*http.Response, error) {
	base := t.Base
	if base == nil {
		base = http.DefaultTransport
	}
	key := req.URL.Host
	if t.Key != nil {
		key = t.Key(req)
	}
	b := t.Breakers.Get(key)
	done, err := b.Allow()
	if err != nil {
		if req.Body != nil {
			req.Body.Close()
		}
		return nil, fmt.Errorf("%s %s not sent: %w", req.Method, req.URL.Redacted(), err)
	}
	resp, err := base.RoundTrip(req)
	switch {
	case err != nil:
		done.Report(req.Context(), err)
	case resp.StatusCode >= 500 || resp.StatusCode == http.StatusTooManyRequests:
		done.Report(context.Background(), errStatus)
	default:
		done.Record(Success)
	}
	return resp, err
}
