package inventory

import (
	"context"
	"encoding/json"
	"log"
	"net/http"
	"time"

	"github.com/resilvet/resilvet/runtime/deadline"

	"heldout/internal/httpx"

	"heldout/inventory/localcache"
)

// Syncer mirrors stock levels into the local cache so that product pages
// do not call the inventory service.
type Syncer struct {
	client   *Client
	cache    *localcache.Cache
	feedURL  string
	feed     *http.Client
	interval time.Duration
	cancel   context.CancelFunc
	done     chan struct{}
}

// heldout: clean — constructor; the feed client has no Timeout but nothing is called here
func NewSyncer(c *Client, cache *localcache.Cache, feedURL string) *Syncer {
	return &Syncer{
		client:   c,
		cache:    cache,
		feedURL:  feedURL,
		feed:     &http.Client{},
		interval: 30 * time.Second,
		done:     make(chan struct{}),
	}
}

// Start launches the sync loop; Stop ends it.
//
// heldout: notimeout — the loop's context is WithCancel(context.Background()), no deadline, and every pull on the Timeout-less feed client runs under it
func (s *Syncer) Start() {
	ctx, cancel := context.WithCancel(context.Background())
	s.cancel = cancel
	go s.loop(ctx)
}

// heldout: clean — passes its ctx parameter on; the bound is the caller's responsibility
func (s *Syncer) loop(ctx context.Context) {
	defer close(s.done)
	t := time.NewTicker(s.interval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		if err := s.pull(ctx); err != nil {
			log.Printf("inventory sync: %v", err)
		}
	}
}

// heldout: clean — request carries the caller's ctx; cache writes are local SQLite
func (s *Syncer) pull(ctx context.Context) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, s.feedURL+"/v1/levels", nil)
	if err != nil {
		return err
	}
	resp, err := s.feed.Do(req)
	if err != nil {
		return err
	}
	defer httpx.DrainAndClose(resp)
	var levels []Item
	if err := json.NewDecoder(resp.Body).Decode(&levels); err != nil {
		return err
	}
	for _, l := range levels {
		if err := s.cache.Put(ctx, l.SKU, l.Qty); err != nil {
			return err
		}
	}
	return nil
}

// Refresh runs one pull outside the loop, for the admin "sync now" button.
//
// heldout: clean — its own root bounded with deadline.Ensure (10s)
func (s *Syncer) Refresh() error {
	ctx, cancel := deadline.Ensure(context.Background(), 10*time.Second)
	defer cancel()
	return s.pull(ctx)
}

// heldout: clean — cancels and waits locally
func (s *Syncer) Stop() {
	if s.cancel != nil {
		s.cancel()
		<-s.done
	}
}

// LoadSnapshot fills the cache from the full snapshot; the service does not
// serve product pages until it has one.
//
// heldout: notimeout — http.Get (DefaultClient, no Timeout) inside a retry-forever closure
func (s *Syncer) LoadSnapshot() {
	httpx.RetryForever("inventory snapshot", func() error {
		resp, err := http.Get(s.feedURL + "/v1/snapshot")
		if err != nil {
			return err
		}
		defer resp.Body.Close()
		var levels []Item
		if err := json.NewDecoder(resp.Body).Decode(&levels); err != nil {
			return err
		}
		m := make(map[string]int, len(levels))
		for _, l := range levels {
			m[l.SKU] = l.Qty
		}
		return s.cache.ReplaceAll(m)
	})
}
