// Package fix holds retry loops whose sleeps the suggested fix rewrites
// to wait on the context too.
package fix

import (
	"context"
	"errors"
	"net/http"
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

// Sleep waits a growing delay with time.Sleep.
func (c *Client) Sleep(ctx context.Context) error {
	for i := 0; i < 3; i++ {
		if err := c.get(ctx); err == nil {
			return nil
		}
		time.Sleep(time.Duration(i+1) * 100 * time.Millisecond) // want `sleeps without its context`
	}
	return errors.New("gave up")
}

// After waits by receiving from time.After, in a closure that captures
// the context.
func (c *Client) After(ctx context.Context) error {
	try := func() error {
		var err error
		for attempt := range 4 {
			if err = c.get(ctx); err == nil {
				return nil
			}
			if attempt < 3 {
				<-time.After(time.Second) // want `sleeps without its context`
			}
		}
		return err
	}
	return try()
}

// Forever would spin once ctx is done if its sleep stopped early: no fix.
func (c *Client) Forever(ctx context.Context) {
	for {
		if err := c.get(ctx); err == nil { // want `never leaves while the call fails`
			return
		}
		time.Sleep(time.Second) // want `sleeps without its context`
	}
}
