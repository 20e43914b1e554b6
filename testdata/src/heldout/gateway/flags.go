package gateway

import (
	"context"
	"encoding/json"
	"log"
	"net/http"
	"sync"
	"time"
)

// FlagStore keeps the feature flags in memory and refreshes them from the
// flag service.
type FlagStore struct {
	mu    sync.RWMutex
	flags map[string]bool
	src   string
	hc    *http.Client
	stop  chan struct{}
}

// heldout: clean — constructor; its client has no Timeout but nothing is called here
func NewFlagStore(src string) *FlagStore {
	return &FlagStore{src: src, hc: &http.Client{}, flags: map[string]bool{}, stop: make(chan struct{})}
}

// heldout: clean — in-memory read
func (f *FlagStore) Snapshot() map[string]bool {
	f.mu.RLock()
	defer f.mu.RUnlock()
	out := make(map[string]bool, len(f.flags))
	for k, v := range f.flags {
		out[k] = v
	}
	return out
}

// heldout: clean — request carries the caller's ctx
func (f *FlagStore) refresh(ctx context.Context) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, f.src, nil)
	if err != nil {
		return err
	}
	resp, err := f.hc.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	var flags map[string]bool
	if err := json.NewDecoder(resp.Body).Decode(&flags); err != nil {
		return err
	}
	f.mu.Lock()
	f.flags = flags
	f.mu.Unlock()
	return nil
}

// Prime loads the flags once before the gateway starts serving.
//
// heldout: clean — one-shot fetch under its own 5s timeout
func (f *FlagStore) Prime() error {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	return f.refresh(ctx)
}

// heldout: clean — starts the loop goroutine
func (f *FlagStore) Start() {
	go f.loop()
}

// heldout: notimeout — refresh(context.Background()) every 15s on a client with no Timeout: one hung fetch stops all refreshes
func (f *FlagStore) loop() {
	t := time.NewTicker(15 * time.Second)
	defer t.Stop()
	for {
		select {
		case <-f.stop:
			return
		case <-t.C:
		}
		if err := f.refresh(context.Background()); err != nil {
			log.Printf("flags: refresh: %v", err)
		}
	}
}

// heldout: clean — local
func (f *FlagStore) Stop() { close(f.stop) }
