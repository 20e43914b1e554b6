// Package kv is a stand-in for a third-party client with context twins.
package kv

import (
	"context"
	"net/http"
)

type Client struct{ hc *http.Client }

// send is the client's I/O: the context bounds the request.
func (c *Client) send(ctx context.Context, key string) error {
	req, err := http.NewRequestWithContext(ctx, "GET", "http://kv/"+key, nil)
	if err != nil {
		return err
	}
	_, err = c.hc.Do(req)
	return err
}

func (c *Client) Get(key string) (string, error) { return c.GetContext(context.Background(), key) }
func (c *Client) GetContext(ctx context.Context, key string) (string, error) {
	return "", c.send(ctx, key)
}

func (c *Client) Put(key, val string) error { return c.PutWithContext(context.Background(), key, val) }
func (c *Client) PutWithContext(ctx context.Context, key, val string) error {
	return c.send(ctx, key)
}

// Scan's twin has a different signature: not a twin.
func (c *Client) Scan(prefix string) []string                                    { return nil }
func (c *Client) ScanContext(ctx context.Context, prefix string, n int) []string { return nil }

func Ping() error { return PingContext(context.Background()) }
func PingContext(ctx context.Context) error {
	return (&Client{}).send(ctx, "ping")
}

// Load takes no context and makes its own: callers drop theirs.
func Load(key string) string {
	return load(key)
}

func load(key string) string {
	v, _ := (&Client{}).GetContext(context.Background(), key)
	return v
}

// Close makes a fresh context on purpose.
func (c *Client) Close() error {
	_, err := c.GetContext(context.Background(), "x")
	return err
}

// Start runs a background refresher with its own lifetime: not a drop.
func Start() {
	go (&Client{}).GetContext(context.Background(), "refresh")
}
