// Package transport bounds clients with transport timeouts, which count
// as a bound by default (-resilvet.transport-timeouts=false: package
// transportoff), and sends through clients whose bound is another
// client's.
package transport

import (
	"context"
	"net"
	"net/http"
	"time"

	"notimeout/transportlib"
)

func newClient() *http.Client {
	dialer := &net.Dialer{Timeout: 5 * time.Second}
	return &http.Client{Transport: &http.Transport{
		DialContext:           dialer.DialContext,
		ResponseHeaderTimeout: 10 * time.Second,
	}}
}

func get(u string) {
	c := &http.Client{Transport: &http.Transport{
		DialContext:           (&net.Dialer{Timeout: 5 * time.Second}).DialContext,
		ResponseHeaderTimeout: 10 * time.Second,
	}}
	c.Get(u)
	newClient().Get(u)
}

// A transport made by a helper in another package is judged by the
// helper's result claim.
func viaHelper(u string) {
	tr := transportlib.NewDeadline(time.Second, 5*time.Second)
	tr.MaxIdleConns = 4
	bounded := &http.Client{Transport: tr}
	bounded.Post(u, "application/json", nil)

	plain := &http.Client{Transport: transportlib.NewPlain()}
	plain.Get(u) // want `http.Client.Get has no timeout`
}

// A header timeout without a bounded dialer is no bound: connecting can
// wait forever.
func headerOnly(u string) {
	c := &http.Client{Transport: &http.Transport{ResponseHeaderTimeout: 10 * time.Second}}
	c.Get(u) // want `http.Client.Get has no timeout`
}

// retrier holds the client it sends through.
type retrier struct {
	inner *http.Client
}

func (r *retrier) RoundTrip(req *http.Request) (*http.Response, error) {
	return r.inner.Do(req)
}

// logger wraps a round tripper, not a client: it bounds nothing.
type logger struct {
	next http.RoundTripper
}

func (l *logger) RoundTrip(req *http.Request) (*http.Response, error) {
	return l.next.RoundTrip(req)
}

// A client that sends through another client is as bounded as that one,
// which is configured elsewhere: not known to be unbounded.
func delegating(u string, inner *http.Client, r *transportlib.Retrying) {
	c := &http.Client{Transport: &retrier{inner: inner}}
	c.Get(u)
	r.Standard().Get(u)

	w := &http.Client{Transport: &logger{next: http.DefaultTransport}}
	w.Get(u) // want `http.Client.Get has no timeout`
}

// A transport that dials only a Unix socket talks to a local process
// (a proxy's admin endpoint): nothing remote to wait for.
func adminPost(socket string) {
	c := http.Client{Transport: &http.Transport{
		DialContext: func(_ context.Context, _, _ string) (net.Conn, error) {
			return net.Dial("unix", socket)
		},
	}}
	c.Post("http://admin/healthcheck/fail", "", nil)
}

// One that dials TCP does not.
func tcpPost(addr string) {
	c := http.Client{Transport: &http.Transport{
		DialContext: func(_ context.Context, _, _ string) (net.Conn, error) {
			return net.Dial("tcp", addr) // want `net.Dial has no dial timeout`
		},
	}}
	c.Post("http://admin/healthcheck/fail", "", nil) // want `http.Client.Post has no timeout`
}
