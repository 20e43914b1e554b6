// Package hedgedhttp is a stub of github.com/cristalhq/hedgedhttp for
// tests.
package hedgedhttp

import (
	"net/http"
	"time"
)

type Config struct {
	Transport http.RoundTripper
	Upto      int
	Delay     time.Duration
}

type Client struct{ rt http.RoundTripper }

type Stats struct{}

func New(cfg Config) (*Client, error) { return &Client{rt: cfg.Transport}, nil }

func (c *Client) Do(req *http.Request) (*http.Response, error) { return c.rt.RoundTrip(req) }

func (c *Client) RoundTrip(req *http.Request) (*http.Response, error) { return c.rt.RoundTrip(req) }

func NewClient(timeout time.Duration, upto int, client *http.Client) (*http.Client, error) {
	return client, nil
}

func NewClientAndStats(timeout time.Duration, upto int, client *http.Client) (*http.Client, *Stats, error) {
	return client, nil, nil
}

func NewRoundTripper(timeout time.Duration, upto int, rt http.RoundTripper) (http.RoundTripper, error) {
	return rt, nil
}

func NewRoundTripperAndStats(timeout time.Duration, upto int, rt http.RoundTripper) (http.RoundTripper, *Stats, error) {
	return rt, nil, nil
}
