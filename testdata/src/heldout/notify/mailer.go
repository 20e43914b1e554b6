// Package notify sends customer notifications: e-mail through the mail
// provider's API, SMS through the carrier gateway, and partner webhooks.
package notify

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"log"
	"net/http"
	"sync"
	"sync/atomic"
	"time"
)

type Message struct {
	To       string `json:"to"`
	Subject  string `json:"subject"`
	Body     string `json:"body"`
	Template string `json:"template,omitempty"`
}

// Mailer sends e-mail through the provider's HTTP API.
type Mailer struct {
	endpoint string
	apiKey   string
	hc       *http.Client
}

type MailerOption func(*Mailer)

// heldout: clean — option setter
func WithMailTimeout(d time.Duration) MailerOption {
	return func(m *Mailer) { m.hc.Timeout = d }
}

// heldout: clean — constructor; default client has a 5s Timeout
func NewMailer(endpoint, apiKey string, opts ...MailerOption) *Mailer {
	m := &Mailer{endpoint: endpoint, apiKey: apiKey, hc: &http.Client{Timeout: 5 * time.Second}}
	for _, o := range opts {
		o(m)
	}
	return m
}

// heldout: clean — uses the caller's ctx and a client with Timeout
func (m *Mailer) Send(ctx context.Context, msg Message) error {
	body, err := json.Marshal(msg)
	if err != nil {
		return err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, m.endpoint+"/v3/mail/send", bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Authorization", "Bearer "+m.apiKey)
	req.Header.Set("Content-Type", "application/json")
	resp, err := m.hc.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode >= 300 {
		return fmt.Errorf("mail provider: %s", resp.Status)
	}
	return nil
}

// SendBatch sends messages in parallel and waits for all of them.
//
// heldout: ctxdrop — the goroutines it waits for send with context.Background() while ctx is in scope
func (m *Mailer) SendBatch(ctx context.Context, msgs []Message) int {
	var wg sync.WaitGroup
	var failed atomic.Int32
	sem := make(chan struct{}, 8)
	for _, msg := range msgs {
		select {
		case sem <- struct{}{}:
		case <-ctx.Done():
			return len(msgs)
		}
		wg.Add(1)
		go func(msg Message) {
			defer func() { <-sem; wg.Done() }()
			if err := m.Send(context.Background(), msg); err != nil {
				log.Printf("mail to %s: %v", msg.To, err)
				failed.Add(1)
			}
		}(msg)
	}
	wg.Wait()
	return int(failed.Load())
}

// SendAsync queues the message on a goroutine so the request can return;
// the mail must still go out if the client disconnects.
//
// heldout: clean — WithoutCancel detaches on purpose and Mailer's client has a 5s Timeout
func (m *Mailer) SendAsync(ctx context.Context, msg Message) {
	detached := context.WithoutCancel(ctx)
	go func() {
		if err := m.Send(detached, msg); err != nil {
			log.Printf("async mail to %s: %v", msg.To, err)
		}
	}()
}
