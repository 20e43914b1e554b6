// Package transport builds HTTP clients whose sends retry: a Transport of
// its own that retries, and retryablehttp clients handed out by
// constructors.
package transport

import (
	"context"
	"net/http"
	"time"

	"github.com/hashicorp/go-retryablehttp"
)

// retrying retries a round trip its retries field's count of times more.
type retrying struct {
	next    http.RoundTripper
	retries int
}

func (t *retrying) RoundTrip(req *http.Request) (*http.Response, error) { // want RoundTrip:`^effects\(sends\(0\), sends\(0\) through retry loop \(attempts set at run time\)\) retries\(x\?: loop x\? count p-1.f1\+1\) outbound$`
	var resp *http.Response
	var err error
	for i := 0; i <= t.retries; i++ {
		resp, err = t.next.RoundTrip(req)
		if err == nil && resp.StatusCode < 500 {
			return resp, nil
		}
		select {
		case <-req.Context().Done():
			return nil, req.Context().Err()
		case <-time.After(time.Second):
		}
	}
	return resp, err
}

// NewClient returns a client whose transport tries 3 times.
func NewClient() *http.Client { // want NewClient:`^returns\(client0:bounded\) client\(loop x3\)$`
	return &http.Client{Timeout: 10 * time.Second, Transport: &retrying{next: http.DefaultTransport, retries: 2}}
}

// NewRetryable returns a retrying client that tries 3 times.
func NewRetryable() *retryablehttp.Client { // want NewRetryable:`^client\(retryablehttp.Client x3\)$`
	c := retryablehttp.NewClient()
	c.RetryMax = 2
	return c
}

// NewQuiet returns a retrying client with its retries off.
func NewQuiet() *retryablehttp.Client { // want NewQuiet:`^client\(retryablehttp.Client x1\)$`
	c := retryablehttp.NewClient()
	c.RetryMax = 0
	return c
}

// Shared is a retrying client for the whole program.
var Shared = NewRetryable() // want Shared:`^client\(retryablehttp.Client x3\)$`

// Deps holds the clients the service uses, built here.
type Deps struct {
	HTTP  *http.Client // want HTTP:`^client\(loop x3\)$`
	Plain *http.Client
}

// NewDeps builds them.
func NewDeps() *Deps {
	return &Deps{HTTP: NewClient(), Plain: &http.Client{}}
}

// API sends through its own retrying transport.
type API struct {
	hc *http.Client // want hc:`^client:bounded$`
}

func NewAPI() *API {
	return &API{hc: &http.Client{Timeout: 5 * time.Second, Transport: &retrying{next: http.DefaultTransport, retries: 3}}}
}

// Get sends once; its transport retries 4 times.
func (a *API) Get(ctx context.Context, url string) (*http.Response, error) { // want Get:`^ctxIO\(0\) retries\(x4: loop x4\) outbound$`
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return nil, err
	}
	return a.hc.Do(req)
}

func wait(ctx context.Context) { // want wait:`^ctxIO\(0\)$`
	select {
	case <-ctx.Done():
	case <-time.After(time.Second):
	}
}
