// Package client retries as many times as its options say.
package client

import (
	"context"
	"errors"
	"net/http"
	"time"
)

type Client struct {
	hc      *http.Client // want hc:`^client:bounded$`
	url     string
	retries int
	// Tries is set by callers that build the client themselves.
	Tries int
}

type Option func(*Client)

// WithRetries sets how many times Get tries.
func WithRetries(n int) Option { // want WithRetries:`^sets\(f2=p0\)$`
	return func(c *Client) { c.retries = n }
}

// WithURL sets the URL: no count.
func WithURL(u string) Option {
	return func(c *Client) { c.url = u }
}

func New(opts ...Option) *Client {
	c := &Client{hc: &http.Client{Timeout: time.Second}}
	for _, o := range opts {
		o(c)
	}
	return c
}

func (c *Client) do(ctx context.Context) error { // want do:`^ctxIO\(0\) outbound$`
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.url, nil)
	if err != nil {
		return err
	}
	resp, err := c.hc.Do(req)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

// Get tries as many times as the client's retries field says.
func (c *Client) Get(ctx context.Context) error { // want Get:`^ctxIO\(0\) retries\(x\?: loop x\? count p-1.f2\+0\) outbound$`
	var err error
	for i := 0; i < c.retries; i++ {
		if err = c.do(ctx); err == nil {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(time.Second):
		}
	}
	if err == nil {
		err = errors.New("no attempt")
	}
	return err
}

// Fetch tries once more than Tries says.
func (c *Client) Fetch(ctx context.Context) error { // want Fetch:`^ctxIO\(0\) retries\(x\?: loop x\? count p-1.f3\+1\) outbound$`
	var err error
	for i := 0; i <= c.Tries; i++ {
		if err = c.do(ctx); err == nil {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(time.Second):
		}
	}
	return err
}
