// Package basic holds the shapes of hand-written retry layers.
package basic

import (
	"context"
	"errors"
	"net/http"
	"time"

	"retrystack/api"
	"retrystack/retryutil"
)

type Client struct {
	hc  *http.Client
	api *api.API
	url string
}

// fetch retries its request three times: a layer of its own.
func (c *Client) fetch(ctx context.Context) (*http.Response, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.url, nil)
	if err != nil {
		return nil, err
	}
	for i := 0; i < 3; i++ {
		resp, err := c.hc.Do(req)
		if err == nil {
			return resp, nil
		}
		retryutil.Pause(ctx, i)
	}
	return nil, errors.New("fetch failed")
}

// Twice wraps fetch in a loop of two with a labelled continue.
func (c *Client) Twice(ctx context.Context) (*http.Response, error) {
outer:
	for i := 0; i < 2; i++ {
		resp, err := c.fetch(ctx) // want `retry loop \(2 attempts\) wraps basic.Client.fetch, which retries 3×: up to 6 attempts per call; keep retries at one layer`
		if err != nil {
			retryutil.Pause(ctx, i)
			continue outer
		}
		return resp, nil
	}
	return nil, errors.New("gave up")
}

// Forever retries until it succeeds.
func (c *Client) Forever(ctx context.Context) *http.Response {
	for {
		resp, err := c.fetch(ctx) // want `retry loop \(unbounded\) wraps basic.Client.fetch, which retries 3×: attempts without bound per call; keep retries at one layer` `retry loop around .* never leaves while the call fails`
		if err == nil {
			return resp
		}
		retryutil.Pause(ctx, 1)
	}
}

// Goto retries with a label and a counter.
func (c *Client) Goto(ctx context.Context) (*http.Response, error) {
	n := 0
again:
	resp, err := c.fetch(ctx) // want `retry loop \(3 attempts\) wraps basic.Client.fetch, which retries 3×: up to 9 attempts per call`
	if err != nil && n < 2 {
		n++
		retryutil.Pause(ctx, n)
		goto again
	}
	return resp, err
}

// Countdown counts its attempts down.
func (c *Client) Countdown(ctx context.Context) (*http.Response, error) {
	var lastErr error
	for left := 4; left > 0; left-- {
		resp, err := c.fetch(ctx) // want `retry loop \(4 attempts\) wraps basic.Client.fetch, which retries 3×: up to 12 attempts per call`
		if err == nil {
			return resp, nil
		}
		lastErr = err
		retryutil.Pause(ctx, left)
	}
	return nil, lastErr
}

// Helper hands a closure to a helper of another package that retries it
// five times.
func (c *Client) Helper(ctx context.Context) error {
	return retryutil.Do(ctx, 5, func() error {
		_, err := c.api.GetAccount(ctx, "42") // want `retry loop in retryutil.Do \(5 attempts\) wraps api.API.GetAccount, which retries 3× \(api.go:\d+\) around store.Store.LoadAccount, which retries 3× \(store.go:\d+\): up to 45 attempts per call`
		return err
	})
}

// HelperOnce gives the helper one attempt: no layer.
func (c *Client) HelperOnce(ctx context.Context) error {
	return retryutil.Do(ctx, 1, func() error {
		_, err := c.api.GetAccount(ctx, "42")
		return err
	})
}

// Generic hands a function to a generic helper that retries it four
// times.
func (c *Client) Generic(ctx context.Context) (string, error) {
	return retryutil.Value(ctx, func(ctx context.Context) (string, error) {
		return c.api.GetAccount(ctx, "7") // want `retry loop in retryutil.Value \(4 attempts\) wraps api.API.GetAccount, which retries 3× \(api.go:\d+\) around store.Store.LoadAccount, which retries 3× \(store.go:\d+\): up to 36 attempts per call`
	})
}

// MethodValue hands a method value to the helper.
func (c *Client) MethodValue(ctx context.Context) error {
	return retryutil.Do(ctx, 2, c.fetchErr) // want `retry loop in retryutil.Do \(2 attempts\) wraps basic.Client.fetch, which retries 3×: up to 6 attempts per call`
}

func (c *Client) fetchErr() error {
	_, err := c.fetch(context.Background())
	return err
}

// Hot retries a GET at once, with nothing between attempts.
func Hot(url string) (*http.Response, error) {
	var err error
	for i := 0; i < 3; i++ {
		var resp *http.Response
		resp, err = http.Get(url) // want `retry loop around http.Get tries again at once, with no wait, so a failing dependency gets every attempt in a burst; wait between attempts with jittered backoff`
		if err == nil {
			return resp, nil
		}
	}
	return nil, err
}

// Sleepy waits with time.Sleep although a context is in scope.
func (c *Client) Sleepy(ctx context.Context) (*http.Response, error) {
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, c.url, nil)
	for i := 0; i < 3; i++ {
		resp, err := c.hc.Do(req)
		if err == nil {
			return resp, nil
		}
		time.Sleep(time.Second) // want `retry loop around http.Client.Do sleeps without its context, so the retry waits past the deadline and after cancellation; wait in a select on ctx.Done\(\) and a timer`
	}
	return nil, errors.New("gave up")
}

// SleepyNoContext has no context to wait on: time.Sleep is all it has.
func SleepyNoContext(hc *http.Client, url string) (*http.Response, error) {
	for i := 0; i < 3; i++ {
		resp, err := hc.Get(url)
		if err == nil {
			return resp, nil
		}
		time.Sleep(time.Second)
	}
	return nil, errors.New("gave up")
}

// Closure calls a closure that retries, in a loop of its own.
func (c *Client) Closure(ctx context.Context) error {
	try := func() error {
		var err error
		for i := 0; i < 3; i++ {
			if _, err = c.api.GetAccount(ctx, "1"); err == nil { // want `retry loop \(3 attempts\) wraps api.API.GetAccount, which retries 3× \(api.go:\d+\) around store.Store.LoadAccount, which retries 3× \(store.go:\d+\): up to 27 attempts per call`
				return nil
			}
			retryutil.Pause(ctx, i)
		}
		return err
	}
	for i := 0; i < 2; i++ {
		if err := try(); err == nil { // want `retry loop \(2 attempts\) wraps basic.Client.Closure \(closure\), which retries 3× around api.API.GetAccount, which retries 3× \(api.go:\d+\) around store.Store.LoadAccount, which retries 3× \(store.go:\d+\): up to 54 attempts per call`
			return nil
		}
		retryutil.Pause(ctx, i)
	}
	return errors.New("gave up")
}
