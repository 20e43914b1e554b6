// Package thumbs caches poster frames and thumbnails fetched from the origin.
package thumbs

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"sync"
	"time"

	"heldout3/cdn"
)

// Cache is an in-memory thumbnail cache in front of the origin.
type Cache struct {
	mu     sync.Mutex
	items  map[string][]byte
	order  []string
	max    int
	origin string
	hc     *http.Client
}

// New returns a cache whose origin client bounds dialling and response headers.
// heldout: clean — constructor; transport has a dial timeout and ResponseHeaderTimeout
func New(origin string, max int) *Cache {
	tr := &http.Transport{
		DialContext:           (&net.Dialer{Timeout: 3 * time.Second}).DialContext,
		ResponseHeaderTimeout: 5 * time.Second,
	}
	return &Cache{items: make(map[string][]byte), max: max, origin: origin, hc: &http.Client{Transport: tr}}
}

// Get returns a cached thumbnail.
// heldout: clean — in-memory only
func (c *Cache) Get(key string) ([]byte, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	b, ok := c.items[key]
	return b, ok
}

// Put stores a thumbnail, evicting the oldest when full.
// heldout: clean — in-memory only
func (c *Cache) Put(key string, b []byte) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.items[key]; !ok {
		c.order = append(c.order, key)
	}
	c.items[key] = b
	for len(c.order) > c.max {
		delete(c.items, c.order[0])
		c.order = c.order[1:]
	}
}

// Fetch returns a thumbnail, loading it from the origin on a miss.
// heldout: clean — request made with the caller's context on a transport with timeouts
func (c *Cache) Fetch(ctx context.Context, key string) ([]byte, error) {
	if b, ok := c.Get(key); ok {
		return b, nil
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.origin+"/thumbs/"+key, nil)
	if err != nil {
		return nil, err
	}
	resp, err := c.hc.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	if err != nil {
		return nil, err
	}
	c.Put(key, b)
	return b, nil
}

// Warm loads keys ahead of a release, one second each.
// heldout: clean — the per-key context is derived from ctx inside the loop
func (c *Cache) Warm(ctx context.Context, keys []string) error {
	for _, k := range keys {
		kctx, cancel := context.WithTimeout(ctx, time.Second)
		_, err := c.Fetch(kctx, k)
		cancel()
		if err != nil && ctx.Err() != nil {
			return ctx.Err()
		}
	}
	return nil
}

// Placeholder renders a grey frame of the given size.
// heldout: clean — its own context reaches only in-process rendering
func (c *Cache) Placeholder(w, h int) []byte {
	ctx := context.Background()
	b, _ := c.render(ctx, w, h)
	return b
}

// render fills a frame row by row, stopping if ctx is done.
// heldout: clean — CPU work, only checks ctx.Err
func (c *Cache) render(ctx context.Context, w, h int) ([]byte, error) {
	out := make([]byte, 0, w*h)
	for y := 0; y < h; y++ {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		for x := 0; x < w; x++ {
			out = append(out, 0x80)
		}
	}
	return out, nil
}

// Prefetch loads thumbnails through the origin client used by the purge tooling.
// heldout: notimeout — client from cdn.NewOriginClient has no Timeout and http.NewRequest's context has no deadline
func (c *Cache) Prefetch(keys []string) {
	hc := cdn.NewOriginClient()
	for _, k := range keys {
		req, err := http.NewRequest(http.MethodGet, c.origin+"/thumbs/"+k, nil)
		if err != nil {
			continue
		}
		resp, err := hc.Do(req)
		if err != nil {
			continue
		}
		b, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
		resp.Body.Close()
		c.Put(k, b)
	}
}

// probeOrigin checks that the origin accepts TCP connections.
// heldout: notimeout — net.Dial("tcp", …) with no timeout
func probeOrigin(addr string) error {
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		return fmt.Errorf("origin %s: %w", addr, err)
	}
	return conn.Close()
}

// Reachable reports whether the origin accepts TCP connections within a second.
// heldout: clean — net.DialTimeout is bounded, and no context is in scope
func Reachable(addr string) bool {
	conn, err := net.DialTimeout("tcp", addr, time.Second)
	if err != nil {
		return false
	}
	conn.Close()
	return true
}

// Refresh re-fetches a thumbnail after checking that the origin host is up.
// heldout: ctxdrop — probeOrigin takes no context and calls net.Dial, which does its work now; ctx is dropped
func (c *Cache) Refresh(ctx context.Context, key, addr string) ([]byte, error) {
	if err := probeOrigin(addr); err != nil {
		return nil, err
	}
	c.mu.Lock()
	delete(c.items, key)
	c.mu.Unlock()
	return c.Fetch(ctx, key)
}
