// Package eta caches pickup ETAs computed by the routing provider.
package eta

import (
	"context"
	"errors"
	"log/slog"
	"math"
	"sort"
	"sync"
	"time"

	"heldout2/routing"
)

// Router is what the cache needs from the routing provider.
type Router interface {
	Route(ctx context.Context, from, to routing.Point) (*routing.Route, error)
}

type key struct{ from, to cell }

// cell is a ~150 m grid cell, so nearby requests share an entry.
type cell struct{ lat, lng int32 }

// heldout: clean — pure arithmetic
func toCell(p routing.Point) cell {
	return cell{int32(math.Round(p.Lat * 700)), int32(math.Round(p.Lng * 700))}
}

type entry struct {
	eta     time.Duration
	expires time.Time
	hits    int
	from    routing.Point
	to      routing.Point
}

// Cache is a TTL cache of ETAs keyed by grid cell.
type Cache struct {
	router  Router
	ttl     time.Duration
	log     *slog.Logger
	mu      sync.Mutex
	entries map[key]*entry

	stopRefresh context.CancelFunc
}

// NewCache returns an empty cache in front of r.
// heldout: clean — constructor, no I/O
func NewCache(r Router, ttl time.Duration, log *slog.Logger) *Cache {
	return &Cache{router: r, ttl: ttl, log: log, entries: make(map[key]*entry)}
}

// ETA returns the driving time from -> to, from the cache when fresh.
// heldout: clean — misses go to the router with the caller's ctx
func (c *Cache) ETA(ctx context.Context, from, to routing.Point) (time.Duration, error) {
	k := key{toCell(from), toCell(to)}
	c.mu.Lock()
	if e, ok := c.entries[k]; ok && time.Now().Before(e.expires) {
		e.hits++
		d := e.eta
		c.mu.Unlock()
		return d, nil
	}
	c.mu.Unlock()

	r, err := c.router.Route(ctx, from, to)
	if err != nil {
		return 0, err
	}
	c.mu.Lock()
	c.entries[k] = &entry{eta: r.Duration, expires: time.Now().Add(c.ttl), from: from, to: to}
	c.mu.Unlock()
	return r.Duration, nil
}

// Prefetch warms the cache for the drivers a dispatcher is about to rank
// against one pickup, eight at a time, and returns when all are done.
// heldout: ctxdrop — the goroutines Prefetch waits for call ETA with context.Background() while ctx is in scope
func (c *Cache) Prefetch(ctx context.Context, drivers []routing.Point, pickup routing.Point) {
	var wg sync.WaitGroup
	sem := make(chan struct{}, 8)
	for _, d := range drivers {
		wg.Add(1)
		go func(d routing.Point) {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			if _, err := c.ETA(context.Background(), d, pickup); err != nil {
				c.log.Debug("eta prefetch failed", "err", err)
			}
		}(d)
	}
	wg.Wait()
}

// RefreshHot recomputes the n most-used entries every interval, so the
// airport and station routes never go cold, until ctx is done.
// heldout: clean — each refresh is bounded by a timeout derived from ctx
func (c *Cache) RefreshHot(ctx context.Context, every time.Duration, n int) {
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		c.mu.Lock()
		hot := make([]*entry, 0, len(c.entries))
		for _, e := range c.entries {
			hot = append(hot, e)
		}
		c.mu.Unlock()
		sort.Slice(hot, func(i, j int) bool { return hot[i].hits > hot[j].hits })
		if len(hot) > n {
			hot = hot[:n]
		}
		for _, e := range hot {
			rctx, cancel := context.WithTimeout(ctx, 2*time.Second)
			r, err := c.router.Route(rctx, e.from, e.to)
			cancel()
			if err != nil {
				c.log.Warn("hot route refresh failed", "err", err)
				continue
			}
			c.mu.Lock()
			e.eta, e.expires, e.hits = r.Duration, time.Now().Add(c.ttl), 0
			c.mu.Unlock()
		}
	}
}

// FirstETA returns the index and ETA of the first driver whose ETA comes
// back under limit, and cancels the remaining lookups.
// heldout: clean — the lookups share a WithCancel derived from ctx
func (c *Cache) FirstETA(ctx context.Context, drivers []routing.Point, pickup routing.Point, limit time.Duration) (int, time.Duration, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	type result struct {
		i   int
		d   time.Duration
		err error
	}
	results := make(chan result, len(drivers))
	for i, d := range drivers {
		go func() {
			eta, err := c.ETA(ctx, d, pickup)
			results <- result{i, eta, err}
		}()
	}
	for range drivers {
		select {
		case r := <-results:
			if r.err == nil && r.d <= limit {
				return r.i, r.d, nil
			}
		case <-ctx.Done():
			return -1, 0, ctx.Err()
		}
	}
	return -1, 0, errors.New("no driver within the ETA limit")
}

// StartRefresher runs RefreshHot in the background for the life of the
// cache; Stop ends it. The start-up context only covers start-up, so the
// refresher gets a lifetime of its own.
// heldout: clean — background task on a root whose cancel func is kept in a field; every refresh call is bounded inside RefreshHot
func (c *Cache) StartRefresher(ctx context.Context, every time.Duration) {
	if err := ctx.Err(); err != nil {
		return
	}
	rctx, cancel := context.WithCancel(context.Background())
	c.stopRefresh = cancel
	go c.RefreshHot(rctx, every, 200)
}

// Stop stops the refresher.
// heldout: clean — in-process
func (c *Cache) Stop() {
	if c.stopRefresh != nil {
		c.stopRefresh()
	}
}
