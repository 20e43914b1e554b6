// Package nestfix holds nested retry layers whose fixes keep retries at
// one layer: an inner hand-written loop made a single attempt, and an
// outer loop around runtime layers rewritten to retry.Do.
package nestfix

import (
	"context"
	"errors"
	"log"
	"net/http"
	"time"

	"github.com/resilvet/resilvet/runtime/retry"
)

type Client struct {
	hc  *http.Client
	url string
}

func (c *Client) get(ctx context.Context) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.url, nil)
	if err != nil {
		return err
	}
	resp, err := c.hc.Do(req)
	if err != nil {
		log.Printf("get %s: %v", c.url, err)
		return err
	}
	return resp.Body.Close()
}

// getRetried is an inner layer: err = call; if err == nil { break }.
func (c *Client) getRetried(ctx context.Context) error {
	var err error
	for i := 0; i < 3; i++ {
		err = c.get(ctx)
		if err == nil {
			break
		}
		log.Printf("get: %v", err)
		time.Sleep(100 * time.Millisecond)
	}
	return err
}

// Outer wraps getRetried: the fix makes getRetried's loop one attempt.
func (c *Client) Outer(ctx context.Context) error {
	var err error
	for range 2 {
		if err = c.getRetried(ctx); err == nil { // want `retry loop \(2 attempts\) wraps nestfix.Client.getRetried, which retries 3×: up to 6 attempts per call; keep retries at one layer`
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

// fetch is an inner layer that returns on success, with a declaration
// in its attempt taking over the function's err.
func (c *Client) fetch(ctx context.Context) (*http.Response, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.url, nil)
	if err != nil {
		return nil, err
	}
	for attempt := 1; attempt <= 4; attempt++ {
		resp, err := c.hc.Do(req)
		if err == nil {
			return resp, nil
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(time.Duration(attempt) * time.Second):
		}
	}
	return nil, errors.New("fetch: gave up")
}

// Fetch wraps fetch three times.
func (c *Client) Fetch(ctx context.Context) (*http.Response, error) {
	for i := 0; i < 3; i++ {
		resp, err := c.fetch(ctx) // want `retry loop \(3 attempts\) wraps nestfix.Client.fetch, which retries 4×: up to 12 attempts per call`
		if err == nil {
			return resp, nil
		}
	}
	return nil, errors.New("gave up")
}

// viaRuntime retries with the runtime, which yields inside another
// runtime layer.
func (c *Client) viaRuntime(ctx context.Context) error {
	return retry.Do(ctx, &retry.Policy{MaxAttempts: 3}, c.get)
}

// Runtime's loop around a runtime layer becomes retry.Do: the inner
// layer then makes one attempt.
func (c *Client) Runtime(ctx context.Context) error {
	const attempts = 4
	var err error
	for i := 0; i < attempts; i++ {
		err = c.viaRuntime(ctx) // want `retry loop \(4 attempts\) wraps nestfix.Client.viaRuntime, which retries 3× with retry.Do: up to 12 attempts per call`
		if err == nil {
			break
		}
		time.Sleep(time.Second) // want `sleeps without its context`
	}
	return err
}
