package notify

import (
	"bytes"
	"context"
	"fmt"
	"log"
	"net/http"
	"net/url"
)

// WebhookSender posts events to partner endpoints.
type WebhookSender struct {
	client *http.Client
	secret string
}

type Hook struct {
	URL     string
	Payload []byte
}

// heldout: clean — constructor; client has a pooled transport but no Timeout (calls are judged where they happen)
func NewWebhookSender(secret string) *WebhookSender {
	return &WebhookSender{
		client: &http.Client{Transport: &http.Transport{MaxIdleConns: 100, MaxIdleConnsPerHost: 4}},
		secret: secret,
	}
}

// heldout: notimeout — client.Post on a client with no Timeout and no response-header timeout: a partner that never answers hangs it
func (w *WebhookSender) Deliver(url string, payload []byte) error {
	resp, err := w.client.Post(url, "application/json", bytes.NewReader(payload))
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode >= 300 {
		return fmt.Errorf("webhook %s: %s", url, resp.Status)
	}
	return nil
}

// Ping checks that a partner endpoint answers its health URL.
//
// heldout: clean — the request carries the caller's ctx (nil falls back to Background); the caller owns the bound
func Ping(ctx context.Context, endpoint string) error {
	if ctx == nil {
		ctx = context.Background()
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, endpoint+"/health", nil)
	if err != nil {
		return err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("partner %s: %s", endpoint, resp.Status)
	}
	return nil
}

// Verify performs the subscription handshake with a partner endpoint.
//
// heldout: notimeout — http.PostForm runs on http.DefaultClient, which has no Timeout
func (w *WebhookSender) Verify(endpoint, challenge string) error {
	resp, err := http.PostForm(endpoint, url.Values{"challenge": {challenge}, "signature": {w.secret}})
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("verify %s: %s", endpoint, resp.Status)
	}
	return nil
}

// heldout: ctxdrop — calls Deliver, which posts without a context, while ctx is in scope
func (w *WebhookSender) DeliverAll(ctx context.Context, hooks []Hook) (failed int) {
	for _, h := range hooks {
		if ctx.Err() != nil {
			return failed + 1
		}
		if err := w.Deliver(h.URL, h.Payload); err != nil {
			log.Printf("webhook %s: %v", h.URL, err)
			failed++
		}
	}
	return failed
}
