package retains

import (
	"context"
	"net/http"
	"sync"
	"time"
)

type notifyConfig struct{ URL, Bucket string }

// Registry publishes notifications on goroutines it leaves running, each
// bounded by its own timeout derived from the context it is given.
type Registry struct {
	mu      sync.RWMutex
	configs map[string][]notifyConfig
	hc      *http.Client
}

func (r *Registry) Trigger(ctx context.Context, bucket string) { // want Trigger:`^retainsCtx ctxIO\(0\) effects\(http:POST request\) outbound$`
	r.mu.RLock()
	local := make([]notifyConfig, len(r.configs[bucket]))
	copy(local, r.configs[bucket])
	r.mu.RUnlock()
	for _, cfg := range local {
		if cfg.Bucket == "" {
			continue
		}
		go func() {
			pubCtx, cancel := context.WithTimeout(ctx, time.Second)
			defer cancel()
			req, _ := http.NewRequestWithContext(pubCtx, http.MethodPost, cfg.URL, nil)
			r.hc.Do(req)
		}()
	}
}

// RunWaiting starts a goroutine with its context and waits for its
// outcome or the context: it keeps nothing past its return.
func RunWaiting(ctx context.Context, run func(context.Context) error) error { // want RunWaiting:`^ctxIO\(0\)`
	done := make(chan error, 1)
	go func() { done <- run(ctx) }()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Ticks feeds a channel it returns until the context is done: the caller
// receives from it as its own work, so the context is the caller's.
func Ticks(ctx context.Context, every time.Duration) <-chan struct{} { // want Ticks:`^ctxIO\(0\)$`
	ch := make(chan struct{})
	go func() {
		defer close(ch)
		for {
			select {
			case <-ctx.Done():
				return
			case <-time.After(every):
				ch <- struct{}{}
			}
		}
	}()
	return ch
}
