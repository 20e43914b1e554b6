// Package worker runs the API's background jobs: charging due orders,
// partner webhooks, session cleanup and the nightly batch.
package worker

import (
	"context"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"sync"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/s3"

	"heldout/gateway"
	"heldout/notify"
	"heldout/orders/store"
	"heldout/payments"
)

// partnerClient is shared by the partner jobs so they reuse connections.
var partnerClient = &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 4}}

type attempt struct {
	orderID string
	n       int
	err     string
}

type Worker struct {
	orders   *store.Store
	pay      *payments.Client
	mail     *notify.Mailer
	hooks    *notify.WebhookSender
	sessions *gateway.SessionStore
	s3       *s3.Client
	bucket   string
	hbAddr   string
	partners []string

	mu      sync.Mutex
	pending []attempt
	wg      sync.WaitGroup
	quit    chan struct{}
}

type Config struct {
	Bucket        string
	HeartbeatAddr string
	PartnerHooks  []string
}

// heldout: clean — constructor
func New(cfg Config, orders *store.Store, pay *payments.Client, mail *notify.Mailer, hooks *notify.WebhookSender, sessions *gateway.SessionStore, s3c *s3.Client) *Worker {
	return &Worker{
		orders: orders, pay: pay, mail: mail, hooks: hooks, sessions: sessions, s3: s3c,
		bucket: cfg.Bucket, hbAddr: cfg.HeartbeatAddr, partners: cfg.PartnerHooks,
		quit: make(chan struct{}),
	}
}

// Run is the scheduler. It returns when ctx is done.
//
// heldout: ctxdrop — while ctx is in scope it calls sessions.PurgeExpired (db.Exec, no context), checkPartners and nightly (which make their own roots)
func (w *Worker) Run(ctx context.Context) error {
	minute := time.NewTicker(time.Minute)
	defer minute.Stop()
	hourly := time.NewTicker(time.Hour)
	defer hourly.Stop()
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-w.quit:
			return nil
		case <-minute.C:
			w.wg.Add(1)
			w.tick(ctx)
			w.wg.Done()
			if err := w.heartbeat(); err != nil {
				log.Printf("heartbeat: %v", err)
			}
		case <-hourly.C:
			n, err := w.sessions.PurgeExpired()
			if err != nil {
				log.Printf("purge sessions: %v", err)
			} else {
				log.Printf("purged %d sessions", n)
			}
			w.checkPartners()
			if time.Now().Hour() == 3 {
				w.nightly()
			}
		}
	}
}

// heldout: clean — a 45s deadline derived from the scheduler's ctx covers every call of the tick
func (w *Worker) tick(parent context.Context) {
	ctx, cancel := context.WithTimeout(parent, 45*time.Second)
	defer cancel()
	due, err := w.orders.ListDue(ctx, time.Now().Add(-15*time.Minute))
	if err != nil {
		log.Printf("list due orders: %v", err)
		return
	}
	var hooks []notify.Hook
	for _, o := range due {
		w.chargeOrder(ctx, o)
		for _, p := range w.partners {
			hooks = append(hooks, notify.Hook{URL: p, Payload: []byte(fmt.Sprintf(`{"order":%q}`, o.ID))})
		}
	}
	w.captureAuthorized(ctx, due)
	if failed := w.hooks.DeliverAll(ctx, hooks); failed > 0 {
		log.Printf("%d partner webhooks failed", failed)
	}
}

// heldout: notimeout — when ctx runs out it swaps in context.Background() to record the attempt: that insert has no deadline
func (w *Worker) chargeOrder(ctx context.Context, o store.Order) {
	for n := 1; n <= 3; n++ {
		ch, err := w.pay.Charge(ctx, payments.ChargeRequest{Customer: o.Customer, AmountCt: o.TotalCt, Currency: "EUR"})
		if err == nil {
			if err := w.orders.SetCharge(ctx, o.ID, ch.ID); err != nil {
				log.Printf("order %s: set charge: %v", o.ID, err)
			}
			return
		}
		if ctx.Err() != nil {
			// Out of time for this tick: still record the attempt.
			ctx = context.Background()
			if err := w.orders.RecordAttempt(ctx, o.ID, n, err.Error()); err != nil {
				log.Printf("order %s: record attempt: %v", o.ID, err)
			}
			return
		}
		w.mu.Lock()
		w.pending = append(w.pending, attempt{orderID: o.ID, n: n, err: err.Error()})
		w.mu.Unlock()
	}
}

// heldout: ctxdrop — captures with context.TODO() while the tick's ctx (with its 45s deadline) is in scope
func (w *Worker) captureAuthorized(ctx context.Context, due []store.Order) {
	for _, o := range due {
		if o.ChargeID == "" || o.Status != "authorized" {
			continue
		}
		if ctx.Err() != nil {
			return
		}
		if _, err := w.pay.Capture(context.TODO(), o.ChargeID); err != nil {
			log.Printf("order %s: capture %s: %v", o.ID, o.ChargeID, err)
		}
	}
}

// heldout: clean — calls only bounded work: ArchiveOlderThan has its own 30s bound, the others are reviewed on their own
func (w *Worker) nightly() {
	n, err := w.orders.ArchiveOlderThan(90 * 24 * time.Hour)
	if err != nil {
		log.Printf("archive: %v", err)
	} else {
		log.Printf("archived %d orders", n)
	}
	w.sendDigest()
	w.pullPartnerRates()
	if err := w.fetchPriceList(); err != nil {
		log.Printf("price list: %v", err)
	}
}

// heldout: notimeout — hands context.Background() to notify.Ping, which sends it on http.DefaultClient: each partner check can hang forever
func (w *Worker) checkPartners() {
	ctx := context.Background()
	for _, p := range w.partners {
		if err := notify.Ping(ctx, p); err != nil {
			log.Printf("partner %s unhealthy: %v", p, err)
		}
	}
}

// heldout: notimeout — partnerClient.Get on a package-level client with no Timeout
func (w *Worker) pullPartnerRates() {
	for _, p := range w.partners {
		resp, err := partnerClient.Get(p + "/rates.csv")
		if err != nil {
			log.Printf("rates from %s: %v", p, err)
			continue
		}
		n, _ := io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		log.Printf("rates from %s: %d bytes", p, n)
	}
}

// heldout: clean — own root with no deadline, but the Mailer's client has a 5s Timeout
func (w *Worker) sendDigest() {
	ctx := context.Background()
	for _, to := range []string{"ops@example.com", "finance@example.com"} {
		msg := notify.Message{To: to, Subject: "Daily order digest", Template: "digest"}
		if err := w.mail.Send(ctx, msg); err != nil {
			log.Printf("digest to %s: %v", to, err)
		}
	}
}

// heldout: notimeout — S3 GetObject on context.Background(): the nightly download has no deadline
func (w *Worker) fetchPriceList() error {
	key := "pricing/latest.csv"
	out, err := w.s3.GetObject(context.Background(), &s3.GetObjectInput{Bucket: &w.bucket, Key: &key})
	if err != nil {
		return err
	}
	_ = out
	return nil
}

// heldout: clean — net.DialTimeout and a write deadline bound the heartbeat
func (w *Worker) heartbeat() error {
	conn, err := net.DialTimeout("tcp", w.hbAddr, 2*time.Second)
	if err != nil {
		return err
	}
	defer conn.Close()
	conn.SetDeadline(time.Now().Add(2 * time.Second))
	_, err = io.WriteString(conn, "worker alive\n")
	return err
}

// heldout: clean — ExecContext-backed store calls with the caller's ctx
func (w *Worker) flushPending(ctx context.Context) error {
	w.mu.Lock()
	batch := w.pending
	w.pending = nil
	w.mu.Unlock()
	for _, a := range batch {
		if err := w.orders.RecordAttempt(ctx, a.orderID, a.n, a.err); err != nil {
			return err
		}
	}
	return nil
}

// Stop ends the scheduler and writes what is still queued.
//
// heldout: ctxdrop — the final flush gets context.Background() although the shutdown ctx is in scope
func (w *Worker) Stop(ctx context.Context) error {
	close(w.quit)
	if err := w.flushPending(context.Background()); err != nil {
		log.Printf("flush pending attempts: %v", err)
	}
	return waitCtx(ctx, &w.wg)
}

// heldout: clean — local wait bounded by ctx
func waitCtx(ctx context.Context, wg *sync.WaitGroup) error {
	done := make(chan struct{})
	go func() {
		wg.Wait()
		close(done)
	}()
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
