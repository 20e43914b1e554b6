// Package categories holds the retry loops retrystack reports for what
// they do between attempts: retrying a context's error for ever, and
// sending a consumed body again.
package categories

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"strings"
	"time"
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
		return err
	}
	return resp.Body.Close()
}

// Forever sleeps between attempts but never looks at ctx: once ctx is
// done, get fails at once, for ever.
func (c *Client) Forever(ctx context.Context) {
	for {
		if err := c.get(ctx); err == nil { // want `retry loop around categories.Client.get never leaves while the call fails, not even once ctx is done, so after cancellation it retries the context's error for ever; leave the loop when ctx.Err\(\) is not nil`
			return
		}
		time.Sleep(time.Second) // want `retry loop around categories.Client.get sleeps without its context`
	}
}

// ForeverChecked leaves when ctx is done.
func (c *Client) ForeverChecked(ctx context.Context) error {
	for {
		err := c.get(ctx)
		if err == nil {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(time.Second):
		}
	}
}

// ForeverGivesUp leaves on errors it cannot retry, which a context's
// error may be: not reported.
func (c *Client) ForeverGivesUp(ctx context.Context, retryable func(error) bool) error {
	for {
		err := c.get(ctx)
		if err == nil {
			return nil
		}
		if !retryable(err) {
			return err
		}
		pause(ctx)
	}
}

// ForeverCanceled compares with the context's errors.
func (c *Client) ForeverCanceled(ctx context.Context) error {
	for {
		err := c.get(ctx)
		if err == nil || errors.Is(err, context.Canceled) {
			return err
		}
		pause(ctx)
	}
}

// Resend sends the same request again: the reader is consumed by the
// first attempt.
func (c *Client) Resend(ctx context.Context, body io.Reader) (*http.Response, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPut, c.url, body)
	if err != nil {
		return nil, err
	}
	for i := 0; i < 3; i++ {
		resp, err := c.hc.Do(req) // want `retry loop sends a request built before it again, but the first attempt consumed its body \(an io.Reader http.NewRequest cannot rewind, and no GetBody\), so the retry sends an empty body; build the request inside the loop or set GetBody`
		if err == nil && resp.StatusCode != http.StatusTooManyRequests {
			return resp, nil
		}
		pause(ctx)
	}
	return nil, errors.New("gave up")
}

// ResendBytes: http.NewRequest sets GetBody for a *bytes.Reader, and the
// client rewinds it.
func (c *Client) ResendBytes(ctx context.Context, payload []byte) (*http.Response, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPut, c.url, bytes.NewReader(payload))
	if err != nil {
		return nil, err
	}
	for i := 0; i < 3; i++ {
		resp, err := c.hc.Do(req)
		if err == nil {
			return resp, nil
		}
		pause(ctx)
	}
	return nil, errors.New("gave up")
}

// ResendRewound sets the body again before each attempt.
func (c *Client) ResendRewound(ctx context.Context, payload string) (*http.Response, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPut, c.url, io.NopCloser(strings.NewReader(payload)))
	if err != nil {
		return nil, err
	}
	for i := 0; i < 3; i++ {
		req.Body = io.NopCloser(strings.NewReader(payload))
		resp, err := c.hc.Do(req)
		if err == nil {
			return resp, nil
		}
		pause(ctx)
	}
	return nil, errors.New("gave up")
}

// ResendBuiltInside builds the request in the loop.
func (c *Client) ResendBuiltInside(ctx context.Context, payload func() io.Reader) (*http.Response, error) {
	for i := 0; i < 3; i++ {
		req, err := http.NewRequestWithContext(ctx, http.MethodPut, c.url, payload())
		if err != nil {
			return nil, err
		}
		resp, err := c.hc.Do(req)
		if err == nil {
			return resp, nil
		}
		pause(ctx)
	}
	return nil, errors.New("gave up")
}

func pause(ctx context.Context) {
	select {
	case <-ctx.Done():
	case <-time.After(time.Second):
	}
}
