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
//
// The zero Transport is ready to use: it sends through
// http.DefaultTransport with a breaker of default Settings per host, kept
// in a Group of its own. A Transport must not be copied after first use.
type Transport struct {
	// Base sends requests; nil means http.DefaultTransport.
	Base http.RoundTripper
	// Breakers holds the breakers; Key picks one per request (nil means
	// req.URL.Host). Breakers nil means the Transport's own Group, a zero
	// Group: default Settings, at most 1,024 breakers.
	Breakers *Group
	Key      func(*http.Request) string

	// own is the Group of a Transport without Breakers. A zero Group
	// starts itself under its own mutex, so concurrent first requests
	// share one group, with no sync.Once here.
	own Group
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
	g := t.Breakers
	if g == nil {
		g = &t.own
	}
	b := g.Get(key)
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
