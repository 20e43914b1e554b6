package pricing

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"sync"
	"time"

	"heldout2/platform"
)

// SurgeTable holds the current surge multiplier per zone, polled from the
// marketplace team's feed.
type SurgeTable struct {
	feedURL string
	hc      *http.Client
	log     *slog.Logger

	mu sync.RWMutex
	m  map[string]float64
}

// NewSurgeTable returns an empty table fed from feedURL.
// heldout: clean — the client's transport has a dial timeout and a ResponseHeaderTimeout
func NewSurgeTable(feedURL string, log *slog.Logger) *SurgeTable {
	return &SurgeTable{
		feedURL: feedURL,
		hc:      &http.Client{Transport: platform.NewTransport()},
		log:     log,
		m:       make(map[string]float64),
	}
}

// Multiplier returns the zone's multiplier, 1.0 when unknown.
// heldout: clean — in-memory read
func (t *SurgeTable) Multiplier(zone string) float64 {
	t.mu.RLock()
	defer t.mu.RUnlock()
	if m, ok := t.m[zone]; ok && m >= 1 {
		return m
	}
	return 1
}

// Run polls the feed every interval until ctx is done.
// heldout: clean — the feed client is bounded by its transport's timeouts
func (t *SurgeTable) Run(ctx context.Context, every time.Duration) {
	tick := time.NewTicker(every)
	defer tick.Stop()
	for {
		var feed struct {
			Zones map[string]float64 `json:"zones"`
		}
		if err := platform.GetJSON(ctx, t.hc, t.feedURL, &feed); err != nil {
			t.log.Warn("surge feed poll failed", "err", err)
		} else {
			t.mu.Lock()
			t.m = feed.Zones
			t.mu.Unlock()
		}
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
	}
}

// LoadOverrides applies manual surge overrides published by the
// marketplace team (stadium events, strikes). Called from the admin hook.
// heldout: notimeout — c.Get on a fresh http.Client with no Timeout, no context in scope
func (t *SurgeTable) LoadOverrides(url string) error {
	c := &http.Client{}
	resp, err := c.Get(url)
	if err != nil {
		return fmt.Errorf("surge overrides: %w", err)
	}
	defer resp.Body.Close()
	var overrides map[string]float64
	if err := json.NewDecoder(resp.Body).Decode(&overrides); err != nil {
		return fmt.Errorf("surge overrides: %w", err)
	}
	t.mu.Lock()
	for zone, m := range overrides {
		t.m[zone] = m
	}
	t.mu.Unlock()
	return nil
}
