// Package serverdirected retries calls that go through client-go's REST
// client, whose own loop goes round again only when the server asks with
// Retry-After: no layer of the caller's stacking, so the caller's loop is
// the only one. A loop of a library's own, not gated that way, is a layer.
package serverdirected

import (
	"context"
	"net/http"
	"time"

	"k8s.io/client-go/rest"
)

func watchPods(ctx context.Context, r *rest.Request) error {
	for i := 0; i < 3; i++ {
		resp, err := r.Watch(ctx)
		if err == nil {
			return resp.Body.Close()
		}
		if err := wait(ctx); err != nil {
			return err
		}
	}
	return nil
}

// poll retries on its own, without bound, whatever the server says.
func poll(ctx context.Context, c *http.Client, url string) (*http.Response, error) {
	for {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
		if err != nil {
			return nil, err
		}
		resp, err := c.Do(req)
		if err == nil {
			return resp, nil
		}
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		if err := wait(ctx); err != nil {
			return nil, err
		}
	}
}

func pollThrice(ctx context.Context, c *http.Client) error {
	for i := 0; i < 3; i++ {
		resp, err := poll(ctx, c, "http://api/pods") // want `retry loop \(3 attempts\) wraps serverdirected.poll, which retries without bound`
		if err == nil {
			return resp.Body.Close()
		}
		if err := wait(ctx); err != nil {
			return err
		}
	}
	return nil
}

// wait waits a second, or until ctx is done.
func wait(ctx context.Context) error {
	t := time.NewTimer(time.Second)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}
