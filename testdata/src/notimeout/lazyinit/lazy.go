// Package lazyinit calls constructors that keep a context and use it for
// outbound work only on a branch a parameter chooses: a caller passing a
// constant that skips the branch reaches nothing.
package lazyinit

import (
	"context"
	"net/http"
	"time"
)

var client = &http.Client{}

// NewCache fetches its first copy now unless told to wait for the first
// use; the context it is given serves that fetch only.
func NewCache(ctx context.Context, url string, lazy bool) *Cache {
	c := &Cache{url: url}
	if !lazy {
		c.fill(ctx)
	}
	return c
}

// NewPool opens conns connections at once; zero opens none.
func NewPool(ctx context.Context, url string, conns int) *Cache {
	c := &Cache{url: url}
	if conns > 0 {
		c.fill(ctx)
	}
	return c
}

// Warm forwards its own choice to NewCache: the condition travels up.
func Warm(ctx context.Context, url string, lazy bool) *Cache {
	return NewCache(ctx, url, lazy)
}

type Cache struct{ url string }

func (c *Cache) fill(ctx context.Context) {
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, c.url, nil)
	if resp, err := client.Do(req); err == nil {
		resp.Body.Close()
	}
}

func Start() {
	NewCache(context.Background(), "http://config/", true)
	NewPool(context.Background(), "http://config/", 0)
	Warm(context.Background(), "http://config/", true)
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	NewCache(ctx, "http://config/", false)
}

func StartEager() {
	NewCache(context.Background(), "http://config/", false) // want `context.Background\(\) reaches http.Client.Do`
	NewPool(context.Background(), "http://config/", 4)      // want `context.Background\(\) reaches http.Client.Do`
	Warm(context.Background(), "http://config/", false)     // want `context.Background\(\) reaches http.Client.Do`
}

// A value not known here: the call may take the branch, and is reported.
func StartWith(lazy bool) {
	NewCache(context.Background(), "http://config/", lazy) // want `context.Background\(\) reaches http.Client.Do`
}
