// Package orders is the order workflow: placing, paying, shipping and
// restoring orders, and the events other services follow.
package orders

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	retrygo "github.com/avast/retry-go/v4"
	"github.com/cenkalti/backoff/v4"
	failsafe "github.com/failsafe-go/failsafe-go"
	"github.com/failsafe-go/failsafe-go/retrypolicy"
	"github.com/resilvet/resilvet/runtime/hedge"
	"github.com/resilvet/resilvet/runtime/retry"
	"github.com/segmentio/kafka-go"
	"google.golang.org/grpc"

	"heldout5/clients"
	"heldout5/payments"
	"heldout5/store"
)

// writePolicy is the retry policy of order writes.
var writePolicy = &retry.Policy{MaxAttempts: 4, BaseDelay: 50 * time.Millisecond, MaxDelay: time.Second}

// slowCallHedge sends a second copy of a call that is slow to answer.
var slowCallHedge = &hedge.Policy{MaxAttempts: 2}

// Service is the order workflow.
type Service struct {
	store     *store.Store
	payments  *payments.Client
	events    *kafka.Writer
	customers *grpc.ClientConn
}

// NewService returns the workflow; customersTarget is the customers
// service's address.
//
// heldout: clean — constructor, dials the customers service through clients.DialCustomers
func NewService(st *store.Store, pay *payments.Client, events *kafka.Writer, customersTarget string) (*Service, error) {
	conn, err := clients.DialCustomers(customersTarget)
	if err != nil {
		return nil, err
	}
	return &Service{store: st, payments: pay, events: events, customers: conn}, nil
}

// PlaceOrder stores a new order.
//
// heldout: hedgeidem — runtime retry.Do (writePolicy, 4 attempts) around store.InsertOrder, an INSERT without upsert in another package
func (s *Service) PlaceOrder(ctx context.Context, o store.Order) error {
	if o.ID == "" || o.CustomerID == "" {
		return errors.New("order needs an id and a customer")
	}
	o.Status = "placed"
	o.CreatedAt = time.Now().UTC()
	return retry.Do(ctx, writePolicy, func(ctx context.Context) error {
		return s.store.InsertOrder(ctx, o)
	})
}

// SaveDraft stores the basket as a draft order.
//
// heldout: clean — runtime retry.Do around store.UpsertOrder (ON CONFLICT)
func (s *Service) SaveDraft(ctx context.Context, o store.Order) error {
	o.Status = "draft"
	return retry.Do(ctx, writePolicy, func(ctx context.Context) error {
		return s.store.UpsertOrder(ctx, o)
	})
}

// MarkShipped records that the warehouse shipped the order.
//
// heldout: clean — retry-go Do (10 attempts) around store.SetOrderStatus, UPDATE … SET status = $1
func (s *Service) MarkShipped(ctx context.Context, orderID string) error {
	return retrygo.Do(func() error {
		return s.store.SetOrderStatus(ctx, orderID, "shipped")
	}, retrygo.Context(ctx), retrygo.Delay(100*time.Millisecond))
}

// RecordAttempt counts a payment attempt against the order.
//
// heldout: hedgeidem — backoff/v4 Retry (WithMaxRetries 4: 5 attempts) around store.IncrementAttempts, UPDATE n = n + 1
func (s *Service) RecordAttempt(ctx context.Context, orderID string) error {
	b := backoff.WithContext(backoff.WithMaxRetries(backoff.NewExponentialBackOff(), 4), ctx)
	return backoff.Retry(func() error {
		return s.store.IncrementAttempts(ctx, orderID)
	}, b)
}

// ChargeOnce charges the order's total. A charge is never retried: the
// wrapper only gives the error the shape the other calls have.
//
// heldout: clean — retry-go with Attempts(1) is a layer of one attempt (payments.Charge's own hedge is reported in payments)
func (s *Service) ChargeOnce(ctx context.Context, o store.Order, source string) (*payments.ChargeResult, error) {
	return retrygo.DoWithData(func() (*payments.ChargeResult, error) {
		return s.payments.Charge(ctx, payments.Charge{
			AmountMinor: o.TotalMinor,
			Currency:    o.Currency,
			Customer:    o.CustomerID,
			Source:      source,
			Description: "order " + o.ID,
		})
	}, retrygo.Attempts(1), retrygo.Context(ctx), retrygo.LastErrorOnly(true))
}

// LoadForPricing loads an order for the pricing engine, hedging slow
// reads.
//
// heldout: clean — hedge.Idempotent around store.GetOrder, a read
func (s *Service) LoadForPricing(ctx context.Context, orderID string) (store.Order, error) {
	return hedge.Do(ctx, slowCallHedge, hedge.Idempotent(func(ctx context.Context) (store.Order, error) {
		return s.store.GetOrder(ctx, orderID)
	}))
}

// PublishOrderCreated tells the other services about a new order.
//
// heldout: hedgeidem — declared: hedge.Idempotent around kafka.Writer.WriteMessages
func (s *Service) PublishOrderCreated(ctx context.Context, o store.Order) error {
	payload, err := json.Marshal(o)
	if err != nil {
		return err
	}
	msg := kafka.Message{Key: []byte(o.ID), Value: payload}
	_, err = hedge.Do(ctx, slowCallHedge, hedge.Idempotent(func(ctx context.Context) (struct{}, error) {
		return struct{}{}, s.events.WriteMessages(ctx, msg)
	}))
	return err
}

// SettlePayment records a settled payment and marks the order paid.
//
// heldout: clean — runtime retry.Do around store.RecordPayment, vouched for with //resilvet:idempotent <reason>, and SET status = $1
func (s *Service) SettlePayment(ctx context.Context, p store.Payment) error {
	return retry.Do(ctx, writePolicy, func(ctx context.Context) error {
		if err := s.store.RecordPayment(ctx, p); err != nil {
			return err
		}
		return s.store.SetOrderStatus(ctx, p.OrderID, "paid")
	})
}

// ImportOrders stores orders migrated from the old shop, stopping at the
// first failure.
//
// heldout: clean — a range over items, each inserted once: not a retry
func (s *Service) ImportOrders(ctx context.Context, batch []store.Order) (int, error) {
	for i, o := range batch {
		if err := s.store.InsertOrder(ctx, o); err != nil {
			return i, fmt.Errorf("import order %s: %w", o.ID, err)
		}
	}
	return len(batch), nil
}

// RestoreOrder puts an archived order back, trying again on failure.
//
// heldout: hedgeidem — failsafe-go executor with a retrypolicy (WithMaxAttempts 4) whose Run calls store.InsertOrder
func (s *Service) RestoreOrder(ctx context.Context, o store.Order) error {
	rp := retrypolicy.NewBuilder[any]().WithMaxAttempts(4).WithBackoff(100*time.Millisecond, 2*time.Second).Build()
	return failsafe.With[any](rp).WithContext(ctx).Run(func() error {
		return s.store.InsertOrder(ctx, o)
	})
}
