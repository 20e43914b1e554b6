// Package notify sends what customers and partners are told: receipts by
// mail, order events on Kafka, partner webhooks and push notifications.
package notify

import (
	"context"
	"encoding/json"
	"fmt"
	"net/smtp"
	"time"

	"github.com/resilvet/resilvet/runtime/retry"
	"github.com/segmentio/kafka-go"
)

// mailPolicy retries a mail whose relay did not answer.
var mailPolicy = &retry.Policy{MaxAttempts: 3, BaseDelay: time.Second, MaxDelay: 10 * time.Second}

// Mailer sends mail through the SMTP relay.
type Mailer struct {
	Addr string
	Auth smtp.Auth
	From string
}

// SendReceipt mails the receipt of an order.
//
// heldout: hedgeidem — runtime retry.Do (mailPolicy, 3 attempts) around net/smtp.SendMail
func (m *Mailer) SendReceipt(ctx context.Context, to, orderID string, body []byte) error {
	msg := []byte(fmt.Sprintf("From: %s\r\nTo: %s\r\nSubject: Your receipt for order %s\r\n\r\n", m.From, to, orderID))
	msg = append(msg, body...)
	return retry.Do(ctx, mailPolicy, func(ctx context.Context) error {
		return smtp.SendMail(m.Addr, m.Auth, m.From, []string{to}, msg)
	})
}

// Event is an order event.
type Event struct {
	Type    string          `json:"type"`
	OrderID string          `json:"order_id"`
	At      time.Time       `json:"at"`
	Data    json.RawMessage `json:"data,omitempty"`
}

// Publisher publishes order events on Kafka.
type Publisher struct {
	W          *kafka.Writer
	HedgeAfter time.Duration
}

// PublishWithRetry publishes an event, trying again when the broker does
// not acknowledge it.
//
// heldout: hedgeidem — retry loop (5 attempts) around kafka.Writer.WriteMessages
func (p *Publisher) PublishWithRetry(ctx context.Context, e Event) error {
	value, err := json.Marshal(e)
	if err != nil {
		return err
	}
	msg := kafka.Message{Key: []byte(e.OrderID), Value: value}
	for attempt := 0; attempt < 5; attempt++ {
		if err = p.W.WriteMessages(ctx, msg); err == nil {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(time.Duration(1<<attempt) * 50 * time.Millisecond):
		}
	}
	return fmt.Errorf("publish %s: %w", e.Type, err)
}

// PublishHedged publishes an event and, when the broker is slow to
// acknowledge it, publishes it again and takes the first answer.
//
// heldout: hedgeidem — hand-rolled hedge: a loop launches WriteMessages in a goroutine, then selects on a result channel and time.After, launching again when the timer fires
func (p *Publisher) PublishHedged(ctx context.Context, e Event) error {
	value, err := json.Marshal(e)
	if err != nil {
		return err
	}
	msg := kafka.Message{Key: []byte(e.OrderID), Value: value}
	errc := make(chan error, 2)
	for i := 0; i < 2; i++ {
		go func() {
			errc <- p.W.WriteMessages(ctx, msg)
		}()
		select {
		case err := <-errc:
			return err
		case <-time.After(p.HedgeAfter):
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	return <-errc
}
