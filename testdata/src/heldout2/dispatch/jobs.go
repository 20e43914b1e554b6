package dispatch

import (
	"context"
	"encoding/json"
	"log/slog"
	"time"

	"github.com/nats-io/nats.go"

	"heldout2/locations"
)

// Janitor deletes old driver location samples.
type Janitor struct {
	Store     *locations.Store
	Every     time.Duration
	Retention time.Duration
	Log       *slog.Logger
}

// Run purges every interval until ctx is done.
// heldout: ctxdrop — calls locations.Store.Purge, which makes its own context.Background() for a pgx Exec, while ctx is in scope
func (j *Janitor) Run(ctx context.Context) {
	t := time.NewTicker(j.Every)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			start := time.Now()
			if err := j.Store.Purge(j.Retention); err != nil {
				j.Log.Error("location purge failed", "err", err)
				continue
			}
			j.Log.Info("location purge done", "took", time.Since(start))
		}
	}
}

// Heartbeat keeps this dispatcher registered with the regional
// coordinator, which routes ride requests only to live dispatchers.
type Heartbeat struct {
	NC     *nats.Conn
	ID     string
	Region string
	Every  time.Duration
	Log    *slog.Logger
}

// Run renews the lease every interval and deregisters when ctx is done.
// heldout: notimeout — after ctx is done, deregistration sends RequestWithContext on context.Background() with no deadline
func (h *Heartbeat) Run(ctx context.Context) {
	body, _ := json.Marshal(map[string]string{"id": h.ID, "region": h.Region})
	t := time.NewTicker(h.Every)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			// ctx is cancelled by now, so deregister on a fresh context.
			if _, err := h.NC.RequestWithContext(context.Background(), "coord.deregister", body); err != nil {
				h.Log.Warn("deregister failed; coordinator will expire the lease", "err", err)
			}
			return
		case <-t.C:
			if _, err := h.NC.Request("coord.renew", body, h.Every/2); err != nil {
				h.Log.Warn("lease renewal failed", "err", err)
			}
		}
	}
}
