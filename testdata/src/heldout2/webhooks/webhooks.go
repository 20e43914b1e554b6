// Package webhooks fans trip and driver events out to partners (fleet
// operators, corporate travel desks) who subscribed to them.
package webhooks

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"sync/atomic"
	"time"

	"golang.org/x/sync/errgroup"

	"heldout2/platform"
	"heldout2/webhooks/outbox"
)

// Event is what partners receive.
type Event struct {
	Type string          `json:"type"`
	ID   string          `json:"id"`
	Data json.RawMessage `json:"data,omitempty"`
	At   time.Time       `json:"at"`
}

// Partner is a webhook subscriber.
type Partner struct {
	ID     string
	URL    string
	Secret string
}

// PartnerStore finds subscribers.
type PartnerStore interface {
	Subscribed(ctx context.Context, eventType string) ([]Partner, error)
}

type sqlPartners struct{ db *sql.DB }

// NewPartnerStore reads partners from the main Postgres database.
// heldout: clean — constructor, no I/O
func NewPartnerStore(db *sql.DB) PartnerStore { return &sqlPartners{db: db} }

// Subscribed lists partners subscribed to eventType ("*" for all).
// heldout: clean — ctx is the caller's
func (s *sqlPartners) Subscribed(ctx context.Context, eventType string) ([]Partner, error) {
	rows, err := s.db.QueryContext(ctx,
		`SELECT p.id, p.url, p.secret FROM partners p JOIN partner_subscriptions s ON s.partner_id = p.id
		 WHERE p.active AND ($1 = '*' OR s.event_type = $1)`, eventType)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var ps []Partner
	for rows.Next() {
		var p Partner
		if err := rows.Scan(&p.ID, &p.URL, &p.Secret); err != nil {
			return nil, err
		}
		ps = append(ps, p)
	}
	return ps, rows.Err()
}

// Dispatcher delivers events to partners.
type Dispatcher struct {
	hc       *http.Client
	partners PartnerStore
	outbox   *outbox.Outbox
	attempt  time.Duration
	budget   time.Duration
	log      *slog.Logger
}

// NewDispatcher returns a dispatcher. Its client has no overall Timeout:
// every delivery gets its own per-attempt deadline instead.
// heldout: clean — no I/O; the client lacks Timeout but every delivery is bounded by a per-attempt deadline
func NewDispatcher(partners PartnerStore, ob *outbox.Outbox, log *slog.Logger) *Dispatcher {
	return &Dispatcher{
		hc:       &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 4}},
		partners: partners,
		outbox:   ob,
		attempt:  5 * time.Second,
		budget:   20 * time.Second,
		log:      log,
	}
}

// Fanout delivers evt to every subscriber in parallel and waits for all.
// Failed deliveries are parked in the outbox.
// heldout: clean — the whole fan-out is bounded by d.budget derived from ctx, each attempt by d.attempt
func (d *Dispatcher) Fanout(ctx context.Context, evt Event) error {
	ctx, cancel := context.WithTimeout(ctx, d.budget)
	defer cancel()
	partners, err := d.partners.Subscribed(ctx, evt.Type)
	if err != nil {
		return fmt.Errorf("load subscribers: %w", err)
	}
	body, err := json.Marshal(evt)
	if err != nil {
		return err
	}
	g, gctx := errgroup.WithContext(ctx)
	var parked atomic.Int32
	for _, p := range partners {
		g.Go(func() error {
			if err := d.deliver(gctx, p, body); err != nil {
				d.log.Info("delivery failed, parking", "partner", p.ID, "err", err)
				if err := d.outbox.Enqueue(p.ID, body); err != nil {
					return err
				}
				parked.Add(1)
			}
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		return err
	}
	if n := parked.Load(); n > 0 {
		return fmt.Errorf("%d of %d deliveries parked", n, len(partners))
	}
	return nil
}

// deliver POSTs one signed event to one partner.
// heldout: clean — bounded by d.attempt derived from ctx
func (d *Dispatcher) deliver(ctx context.Context, p Partner, body []byte) error {
	ctx, cancel := context.WithTimeout(ctx, d.attempt)
	defer cancel()
	mac := hmac.New(sha256.New, []byte(p.Secret))
	mac.Write(body)
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, p.URL, bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("X-Rydr-Signature", "sha256="+hex.EncodeToString(mac.Sum(nil)))
	resp, err := d.hc.Do(req)
	if err != nil {
		return err
	}
	resp.Body.Close()
	if resp.StatusCode >= 300 {
		return fmt.Errorf("partner %s: %s", p.ID, resp.Status)
	}
	return nil
}

// VerifyEndpoint checks, when a partner registers a URL, that it echoes
// our challenge.
// heldout: ctxdrop — d.hc.Post (no context) while ctx is in scope
func (d *Dispatcher) VerifyEndpoint(ctx context.Context, p Partner) error {
	if err := validateURL(ctx, p.URL); err != nil {
		return err
	}
	challenge := fmt.Sprintf("%x", time.Now().UnixNano())
	body, _ := json.Marshal(map[string]string{"type": "endpoint.verification", "challenge": challenge})
	resp, err := d.hc.Post(p.URL, "application/json", bytes.NewReader(body))
	if err != nil {
		return fmt.Errorf("verify %s: %w", p.URL, err)
	}
	defer resp.Body.Close()
	var echo struct {
		Challenge string `json:"challenge"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&echo); err != nil || echo.Challenge != challenge {
		return errors.New("endpoint did not echo the challenge")
	}
	return ctx.Err()
}

// validateURL refuses partner URLs that are not https or that resolve to
// private addresses (SSRF protection).
// heldout: ctxdrop — net.LookupIP while ctx is in scope; the resolver's LookupIP takes it
func validateURL(ctx context.Context, raw string) error {
	u, err := url.Parse(raw)
	if err != nil || u.Scheme != "https" || u.Hostname() == "" {
		return fmt.Errorf("partner URL must be https: %q", raw)
	}
	ips, err := net.LookupIP(u.Hostname())
	if err != nil {
		return fmt.Errorf("resolve %s: %w", u.Hostname(), err)
	}
	for _, ip := range ips {
		if ip.IsPrivate() || ip.IsLoopback() || ip.IsLinkLocalUnicast() {
			return fmt.Errorf("partner URL %s resolves to a private address", raw)
		}
	}
	return ctx.Err()
}

// RedeliverLoop retries parked deliveries every interval until ctx is
// done.
// heldout: ctxdrop — calls d.lookupPartner, which makes its own context for a Postgres query, while ctx is in scope
func (d *Dispatcher) RedeliverLoop(ctx context.Context, every time.Duration) {
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		items, err := d.outbox.Due(100)
		if err != nil {
			d.log.Error("outbox read failed", "err", err)
			continue
		}
		for _, it := range items {
			p, err := d.lookupPartner(it.PartnerID)
			if err != nil {
				d.log.Warn("partner lookup failed", "partner", it.PartnerID, "err", err)
				continue
			}
			err = d.deliver(ctx, p, it.Body)
			if err := d.outbox.Settle(ctx, it, err == nil); err != nil {
				d.log.Error("outbox update failed", "item", it.ID, "err", err)
			}
		}
	}
}

// lookupPartner finds a partner by ID among all active partners.
// heldout: notimeout — its own context.Background() reaches the partners query (QueryContext on Postgres) with no deadline
func (d *Dispatcher) lookupPartner(id string) (Partner, error) {
	ps, err := d.partners.Subscribed(context.Background(), "*")
	if err != nil {
		return Partner{}, err
	}
	for _, p := range ps {
		if p.ID == id {
			return p, nil
		}
	}
	return Partner{}, fmt.Errorf("partner %s not found or inactive", id)
}

// Replay re-sends a partner's events since a time, on request from the
// partner support tool.
// heldout: ctxdrop — uses platform.ServiceContext() (a fresh root returned by a helper) for the subscriber query while ctx is in scope
func (d *Dispatcher) Replay(ctx context.Context, partnerID string, events []Event) (int, error) {
	pctx := platform.ServiceContext()
	ps, err := d.partners.Subscribed(pctx, "*")
	if err != nil {
		return 0, err
	}
	var target *Partner
	for i := range ps {
		if ps[i].ID == partnerID {
			target = &ps[i]
		}
	}
	if target == nil {
		return 0, fmt.Errorf("partner %s not found", partnerID)
	}
	sent := 0
	for _, e := range events {
		body, _ := json.Marshal(e)
		if err := d.deliver(ctx, *target, body); err != nil {
			return sent, err
		}
		sent++
	}
	return sent, nil
}

// ProbePartners checks that each partner endpoint answers, for the
// partner-health page. Called from a cron goroutine.
// heldout: notimeout — http.Head on http.DefaultClient (no Timeout) in a loop, no context in scope
func (d *Dispatcher) ProbePartners(partners []Partner) map[string]bool {
	up := make(map[string]bool, len(partners))
	for _, p := range partners {
		resp, err := http.Head(p.URL)
		if err != nil {
			up[p.ID] = false
			continue
		}
		resp.Body.Close()
		up[p.ID] = resp.StatusCode < 500
	}
	return up
}
