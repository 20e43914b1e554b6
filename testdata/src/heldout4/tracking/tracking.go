// Package tracking holds the background work of the shipping platform: the
// tracking poller, the depot pickup workers, customer webhooks and the scan
// feed from the sorting centres.
package tracking

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log"
	"net/http"
	"time"

	"heldout4/carrier"
	"heldout4/dispatch"
	"heldout4/retryx"
	"heldout4/store"
)

// Poller refreshes tracking for shipments in transit.
type Poller struct {
	Store    *store.Store
	Service  *dispatch.Service
	Carriers *carrier.Client
	Every    time.Duration
	Log      *log.Logger
}

// Run polls every p.Every until ctx is done. A failed round is logged and
// the next tick tries again.
//
// heldout: clean — loop driven by a ticker; it is not a retry layer even though tick retries inside
func (p *Poller) Run(ctx context.Context) error {
	t := time.NewTicker(p.Every)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-t.C:
			if err := p.tick(ctx); err != nil {
				p.Log.Printf("tracking: poll: %v", err)
			}
		}
	}
}

// heldout: clean — pagination callback collecting rows, then one call
func (p *Poller) tick(ctx context.Context) error {
	var batch []store.Shipment
	err := p.Store.ListByStatus(ctx, "in_transit", func(sh store.Shipment) error {
		batch = append(batch, sh)
		return nil
	})
	if err != nil {
		return err
	}
	return p.Service.RefreshTracking(ctx, batch)
}

// Latest returns the scans for one tracking number, asking the carrier up
// to three times; used by the customer service tool.
//
// heldout: retrystack — sleep: retry loop waits by receiving from time.After while ctx is a parameter
func (p *Poller) Latest(ctx context.Context, trackingNo string) ([]carrier.TrackEvent, error) {
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		var evs []carrier.TrackEvent
		if evs, err = p.Carriers.Track(ctx, trackingNo); err == nil {
			return evs, nil
		}
		p.Log.Printf("tracking: %s attempt %d: %v", trackingNo, attempt+1, err)
		<-time.After(time.Duration(attempt+1) * time.Second)
	}
	return nil, err
}

// WaitDelivered polls the carrier until it reports a delivery scan. It gives
// up on the first carrier error; the caller decides what to do.
//
// heldout: clean — polling that stops on the first error, waiting in a select on ctx.Done and time.After
func WaitDelivered(ctx context.Context, cc *carrier.Client, trackingNo string, every time.Duration) (time.Time, error) {
	for {
		evs, err := cc.Track(ctx, trackingNo)
		if err != nil {
			return time.Time{}, err
		}
		for _, ev := range evs {
			if ev.Code == "DL" {
				return ev.At, nil
			}
		}
		select {
		case <-ctx.Done():
			return time.Time{}, ctx.Err()
		case <-time.After(every):
		}
	}
}

// Worker takes pickups for one depot and prints their labels.
type Worker struct {
	Name       string
	PrinterURL string
	Service    *dispatch.Service
	Carriers   *carrier.Client
	HTTP       *http.Client
	Log        *log.Logger
}

// Supervise keeps the worker loop running until ctx is done, restarting it
// a second after it stops for any reason.
//
// heldout: clean — supervisor: restarts the long-lived loop whatever it returned and leaves only when ctx is done
func (w *Worker) Supervise(ctx context.Context) {
	for {
		err := w.loop(ctx)
		if ctx.Err() != nil {
			return
		}
		w.Log.Printf("tracking: worker %s stopped: %v; restarting", w.Name, err)
		time.Sleep(time.Second)
	}
}

// heldout: clean — work loop: goes round after a success, returns on the first error
func (w *Worker) loop(ctx context.Context) error {
	for {
		p, err := w.Service.NextPickup(ctx, w.Name)
		if err != nil {
			return err
		}
		if err := w.handle(ctx, p); err != nil {
			return fmt.Errorf("pickup %s: %w", p.ID, err)
		}
	}
}

// handle fetches the label for a pickup and sends it to the depot printer.
// The printers drop jobs while warming up, so a job is sent up to five
// times.
//
// heldout: retrystack — sleep: print retry loop waits with time.Sleep while ctx is a parameter
func (w *Worker) handle(ctx context.Context, p *store.Pickup) error {
	label, err := w.Carriers.Label(ctx, p.ShipmentID)
	if err != nil {
		return err
	}
	for attempt := 0; attempt < 5; attempt++ {
		req, rerr := http.NewRequestWithContext(ctx, http.MethodPost, w.PrinterURL+"/jobs", bytes.NewReader(label))
		if rerr != nil {
			return rerr
		}
		req.Header.Set("Content-Type", "application/pdf")
		var resp *http.Response
		resp, err = w.HTTP.Do(req)
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode < 300 {
				return nil
			}
			err = fmt.Errorf("printer: %s", resp.Status)
		}
		w.Log.Printf("tracking: print %s: %v", p.ID, err)
		time.Sleep(time.Duration(attempt+1) * 250 * time.Millisecond)
	}
	return err
}

// Hook is a customer webhook subscription. URLs holds the primary
// endpoint first and the customer's fallback endpoints after it.
type Hook struct {
	Customer string
	URLs     []string
	Secret   string
}

// Notifier delivers shipment events to customer webhooks.
type Notifier struct {
	HTTP *http.Client
	Log  *log.Logger
}

// Deliver sends one event to a hook, four rounds at most.
//
// heldout: clean — single counting-down layer around post (failover, not a layer); waits through retryx.Sleep
func (n *Notifier) Deliver(ctx context.Context, h Hook, ev store.Event) error {
	body, err := json.Marshal(ev)
	if err != nil {
		return err
	}
	for left := 4; ; left-- {
		err := n.post(ctx, h, body)
		if err == nil {
			return nil
		}
		if left == 1 {
			return fmt.Errorf("tracking: webhook for %s: %w", h.Customer, err)
		}
		if err := retryx.Sleep(ctx, retryx.Backoff(4-left, 500*time.Millisecond, 10*time.Second)); err != nil {
			return err
		}
	}
}

// post tries each of the hook's endpoints once, primary first.
//
// heldout: clean — failover: counts up to len(h.URLs), each endpoint tried once
func (n *Notifier) post(ctx context.Context, h Hook, body []byte) error {
	var lastErr error = errors.New("tracking: hook has no endpoint")
	for i := 0; i < len(h.URLs); i++ {
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, h.URLs[i], bytes.NewReader(body))
		if err != nil {
			return err
		}
		req.Header.Set("X-Signature", h.Secret)
		resp, err := n.HTTP.Do(req)
		if err != nil {
			lastErr = err
			continue
		}
		resp.Body.Close()
		if resp.StatusCode < 300 {
			return nil
		}
		lastErr = fmt.Errorf("%s: %s", h.URLs[i], resp.Status)
	}
	return lastErr
}

// Fanout delivers an event to every hook and joins the failures.
//
// heldout: clean — loop over items; each hook delivered once by Deliver
func (n *Notifier) Fanout(ctx context.Context, hooks []Hook, ev store.Event) error {
	var errs []error
	for _, h := range hooks {
		if err := n.Deliver(ctx, h, ev); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// Replay re-sends a customer's events after a webhook outage, in order,
// until all of them are through.
//
// heldout: retrystack — nested: retryx.Until (unbounded) around Fanout, whose Deliver retries 4 times
func (n *Notifier) Replay(ctx context.Context, hooks []Hook, evs []store.Event) error {
	for _, ev := range evs {
		err := retryx.Until(ctx, func(ctx context.Context) error {
			return n.Fanout(ctx, hooks, ev)
		})
		if err != nil {
			return err
		}
	}
	return nil
}

// Scan is one parcel scan from a sorting centre.
type Scan struct {
	Barcode string    `json:"barcode"`
	Centre  string    `json:"centre"`
	At      time.Time `json:"at"`
}

// ScanFeed forwards sorting-centre scans to the customer-visible tracking
// service.
type ScanFeed struct {
	URL  string
	HTTP *http.Client
	Log  *log.Logger
}

// Consume forwards every scan from the channel until it is closed. A scan
// that cannot be forwarded after three tries is dropped with a log line.
//
// heldout: retrystack — hot: the inner loop re-posts a scan at once after a failure, nothing waits
func (f *ScanFeed) Consume(ctx context.Context, scans <-chan Scan) {
	for sc := range scans {
		body, err := json.Marshal(sc)
		if err != nil {
			continue
		}
		for attempt := 1; ; attempt++ {
			req, err := http.NewRequestWithContext(ctx, http.MethodPost, f.URL, bytes.NewReader(body))
			if err != nil {
				break
			}
			resp, err := f.HTTP.Do(req)
			if err == nil {
				resp.Body.Close()
				break
			}
			if attempt >= 3 {
				f.Log.Printf("tracking: drop scan %s at %s: %v", sc.Barcode, sc.Centre, err)
				break
			}
		}
	}
}
