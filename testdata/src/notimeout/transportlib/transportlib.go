// Package transportlib builds transports and clients for package
// transport: the claims about what it returns travel as facts.
package transportlib

import (
	"net"
	"net/http"
	"time"
)

// NewDeadline returns a transport bounded in every phase but reading the
// body.
func NewDeadline(connect, header time.Duration) *http.Transport {
	return &http.Transport{
		DialContext:           (&net.Dialer{Timeout: connect, KeepAlive: 30 * time.Second}).DialContext,
		ResponseHeaderTimeout: header,
		TLSHandshakeTimeout:   10 * time.Second,
	}
}

// NewPlain returns a transport with no timeouts.
func NewPlain() *http.Transport {
	return &http.Transport{MaxIdleConns: 10}
}

// Retrying sends each request through HTTPClient, retrying on failure.
type Retrying struct {
	HTTPClient *http.Client
	Max        int
}

// RoundTripper sends through a Retrying client.
type RoundTripper struct {
	Client *Retrying
}

func (rt *RoundTripper) RoundTrip(req *http.Request) (*http.Response, error) {
	var resp *http.Response
	var err error
	for range rt.Client.Max + 1 {
		if resp, err = rt.Client.HTTPClient.Do(req); err == nil {
			return resp, nil
		}
	}
	return nil, err
}

// Standard returns an *http.Client sending through r: its bound is
// r.HTTPClient's, configured by whoever made r.
func (r *Retrying) Standard() *http.Client {
	return &http.Client{Transport: &RoundTripper{Client: r}}
}
