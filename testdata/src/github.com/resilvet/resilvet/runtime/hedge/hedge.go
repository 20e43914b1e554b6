// Package hedge is a stub of the resilvet runtime's hedge package: the
// API the summaries recognise.
package hedge

import "net/http"

// Transport sends hedged copies of idempotent requests.
type Transport struct {
	Base http.RoundTripper
}

func (t *Transport) RoundTrip(req *http.Request) (*http.Response, error) {
	return t.Base.RoundTrip(req)
}
