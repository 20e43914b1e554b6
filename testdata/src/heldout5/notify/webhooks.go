package notify

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"net/http"
	"sync"
	"time"

	"github.com/hashicorp/go-retryablehttp"
	"google.golang.org/grpc"

	"heldout5/clients"
	"heldout5/pb"
)

// notifierServiceConfig retries push sends the notifier did not answer.
const notifierServiceConfig = `{
  "methodConfig": [{
    "name": [{"service": "notify.Notifier"}],
    "retryPolicy": {
      "maxAttempts": 4,
      "initialBackoff": "0.1s",
      "maxBackoff": "1s",
      "backoffMultiplier": 2,
      "retryableStatusCodes": ["UNAVAILABLE", "DEADLINE_EXCEEDED"]
    }
  }]
}`

// Hook is a partner's webhook subscription.
type Hook struct {
	URL    string
	Secret string
	Body   []byte
}

// Dispatcher delivers webhooks and push notifications.
type Dispatcher struct {
	http       *http.Client
	pushConn   *grpc.ClientConn
	hedgeAfter time.Duration
}

// NewDispatcher returns a dispatcher sending webhooks with hc and push
// notifications through the notifier at pushTarget.
//
// heldout: clean — constructor, dials the notifier with a retry policy but calls nothing
func NewDispatcher(hc *http.Client, pushTarget string) (*Dispatcher, error) {
	conn, err := grpc.NewClient(pushTarget, grpc.WithDefaultServiceConfig(notifierServiceConfig))
	if err != nil {
		return nil, fmt.Errorf("dial notifier: %w", err)
	}
	return &Dispatcher{http: hc, pushConn: conn, hedgeAfter: 300 * time.Millisecond}, nil
}

// Deliver posts a webhook, retrying failed deliveries.
//
// heldout: hedgeidem — go-retryablehttp client (RetryMax 6) Do of a POST without an idempotency key
func (d *Dispatcher) Deliver(ctx context.Context, h Hook) error {
	rc := retryablehttp.NewClient()
	rc.HTTPClient = d.http
	rc.RetryMax = 6
	req, err := retryablehttp.NewRequestWithContext(ctx, http.MethodPost, h.URL, h.Body)
	if err != nil {
		return err
	}
	mac := hmac.New(sha256.New, []byte(h.Secret))
	mac.Write(h.Body)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("X-Signature", hex.EncodeToString(mac.Sum(nil)))
	resp, err := rc.Do(req)
	if err != nil {
		return err
	}
	resp.Body.Close()
	if resp.StatusCode >= 300 {
		return fmt.Errorf("deliver to %s: %s", h.URL, resp.Status)
	}
	return nil
}

// DeliverOnce posts a webhook once; the outbox worker decides whether to
// try again later.
//
// heldout: clean — a go-retryablehttp literal with RetryMax 0 is one attempt, no layer
func (d *Dispatcher) DeliverOnce(ctx context.Context, h Hook) error {
	rc := &retryablehttp.Client{HTTPClient: d.http, RetryMax: 0}
	req, err := retryablehttp.NewRequestWithContext(ctx, http.MethodPost, h.URL, h.Body)
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := rc.Do(req)
	if err != nil {
		return err
	}
	resp.Body.Close()
	if resp.StatusCode >= 300 {
		return fmt.Errorf("deliver to %s: %s", h.URL, resp.Status)
	}
	return nil
}

// DeliverShared posts a webhook through the shared retrying client.
//
// heldout: hedgeidem — retryablehttp Client.Post (which cannot carry a key) on the client clients.NewRetrying returns (default RetryMax, 5 attempts)
func (d *Dispatcher) DeliverShared(ctx context.Context, h Hook) error {
	rc := clients.NewRetrying()
	resp, err := rc.Post(h.URL, "application/json", h.Body)
	if err != nil {
		return err
	}
	resp.Body.Close()
	if resp.StatusCode >= 300 {
		return fmt.Errorf("deliver to %s: %s", h.URL, resp.Status)
	}
	return nil
}

// NotifyPartner posts an order update to a partner and, when the partner
// is slow, posts it again after hedgeAfter, taking the first answer.
//
// heldout: hedgeidem — hand-rolled hedge: go send() then time.AfterFunc(d, send) of a POST without a key
func (d *Dispatcher) NotifyPartner(ctx context.Context, url string, payload []byte) (int, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, nil)
	if err != nil {
		return 0, err
	}
	req.Header.Set("Content-Type", "application/json")
	type result struct {
		status int
		err    error
	}
	results := make(chan result, 2)
	send := func() {
		r := req.Clone(ctx)
		r.Body = io.NopCloser(bytes.NewReader(payload))
		resp, err := d.http.Do(r)
		if err != nil {
			results <- result{err: err}
			return
		}
		resp.Body.Close()
		results <- result{status: resp.StatusCode}
	}
	go send()
	timer := time.AfterFunc(d.hedgeAfter, send)
	defer timer.Stop()
	select {
	case r := <-results:
		return r.status, r.err
	case <-ctx.Done():
		return 0, ctx.Err()
	}
}

// FetchTemplate reads a partner's message template, asking again after
// hedgeAfter when the first request is slow.
//
// heldout: clean — the same time.AfterFunc hedge shape around a GET
func (d *Dispatcher) FetchTemplate(ctx context.Context, url string) ([]byte, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return nil, err
	}
	type result struct {
		body []byte
		err  error
	}
	results := make(chan result, 2)
	fetch := func() {
		resp, err := d.http.Do(req.Clone(ctx))
		if err != nil {
			results <- result{err: err}
			return
		}
		defer resp.Body.Close()
		b, err := io.ReadAll(resp.Body)
		results <- result{body: b, err: err}
	}
	go fetch()
	timer := time.AfterFunc(d.hedgeAfter, fetch)
	defer timer.Stop()
	select {
	case r := <-results:
		return r.body, r.err
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// FanOut delivers one event to every subscribed partner at once and
// returns the deliveries that failed.
//
// heldout: clean — workers launched in a loop over hooks, one per hook, with no timer: not a hedge
func (d *Dispatcher) FanOut(ctx context.Context, hooks []Hook) map[string]error {
	var (
		mu     sync.Mutex
		wg     sync.WaitGroup
		failed = make(map[string]error)
	)
	for _, h := range hooks {
		wg.Add(1)
		go func(h Hook) {
			defer wg.Done()
			if err := d.DeliverOnce(ctx, h); err != nil {
				mu.Lock()
				failed[h.URL] = err
				mu.Unlock()
			}
		}(h)
	}
	wg.Wait()
	return failed
}

// Push sends a push notification to a device.
//
// heldout: hedgeidem — generated client's SendPush (a Send method) on a connection dialled with a retryPolicy for notify.Notifier (4 attempts)
func (d *Dispatcher) Push(ctx context.Context, deviceToken, title, body string) (string, error) {
	resp, err := pb.NewNotifierClient(d.pushConn).SendPush(ctx, &pb.PushRequest{
		DeviceToken: deviceToken,
		Title:       title,
		Body:        body,
	})
	if err != nil {
		return "", err
	}
	return resp.MessageId, nil
}
