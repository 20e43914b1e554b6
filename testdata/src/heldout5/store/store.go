// Package store keeps orders, payments, ledger entries and stock in
// PostgreSQL, and the daily reporting totals in the MySQL reporting
// database.
package store

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
)

// Order is a customer order.
type Order struct {
	ID         string
	CustomerID string
	Status     string
	Currency   string
	TotalMinor int64
	CreatedAt  time.Time
}

// Payment is a settled payment for an order.
type Payment struct {
	OrderID     string
	ProviderRef string
	AmountMinor int64
	Currency    string
}

// Line is an order line.
type Line struct {
	OrderID  string
	SKU      string
	Quantity int
	Minor    int64
}

// Store is the orders database.
type Store struct {
	db      *sql.DB
	reports *sql.DB
	pool    *pgxpool.Pool
}

// heldout: clean — constructor
func New(db, reports *sql.DB, pool *pgxpool.Pool) *Store {
	return &Store{db: db, reports: reports, pool: pool}
}

// InsertOrder stores a new order.
//
// heldout: clean — an INSERT without upsert, but nothing here hedges or retries it (callers that retry it are reported)
func (s *Store) InsertOrder(ctx context.Context, o Order) error {
	_, err := s.db.ExecContext(ctx,
		`INSERT INTO orders (id, customer_id, status, currency, total_minor, created_at) VALUES ($1, $2, $3, $4, $5, $6)`,
		o.ID, o.CustomerID, o.Status, o.Currency, o.TotalMinor, o.CreatedAt)
	return err
}

// UpsertOrder stores a draft order or updates the stored one.
//
// heldout: clean — INSERT … ON CONFLICT, no layer
func (s *Store) UpsertOrder(ctx context.Context, o Order) error {
	_, err := s.db.ExecContext(ctx,
		`INSERT INTO orders (id, customer_id, status, currency, total_minor, created_at) VALUES ($1, $2, $3, $4, $5, $6)
		 ON CONFLICT (id) DO UPDATE SET status = EXCLUDED.status, total_minor = EXCLUDED.total_minor`,
		o.ID, o.CustomerID, o.Status, o.Currency, o.TotalMinor, o.CreatedAt)
	return err
}

// GetOrder loads an order.
//
// heldout: clean — a read
func (s *Store) GetOrder(ctx context.Context, id string) (Order, error) {
	var o Order
	err := s.db.QueryRowContext(ctx,
		`SELECT id, customer_id, status, currency, total_minor, created_at FROM orders WHERE id = $1`, id).
		Scan(&o.ID, &o.CustomerID, &o.Status, &o.Currency, &o.TotalMinor, &o.CreatedAt)
	if err == sql.ErrNoRows {
		return Order{}, fmt.Errorf("order %s: not found", id)
	}
	return o, err
}

// SetOrderStatus sets an order's status.
//
// heldout: clean — UPDATE … SET status = $1, no layer
func (s *Store) SetOrderStatus(ctx context.Context, id, status string) error {
	_, err := s.db.ExecContext(ctx, `UPDATE orders SET status = $1, updated_at = now() WHERE id = $2`, status, id)
	return err
}

// IncrementAttempts counts one more payment attempt on the order.
//
// heldout: clean — UPDATE n = n + 1, but no layer here (the caller retrying it is reported)
func (s *Store) IncrementAttempts(ctx context.Context, id string) error {
	_, err := s.db.ExecContext(ctx, `UPDATE orders SET payment_attempts = payment_attempts + 1 WHERE id = $1`, id)
	return err
}

// RecordPayment stores a settled payment.
//
// heldout: clean — vouched for with a reason; no layer here
//
//resilvet:idempotent payments.provider_ref has a unique index and a duplicate insert (23505) is treated as already recorded
func (s *Store) RecordPayment(ctx context.Context, p Payment) error {
	_, err := s.db.ExecContext(ctx,
		`INSERT INTO payments (order_id, provider_ref, amount_minor, currency) VALUES ($1, $2, $3, $4)`,
		p.OrderID, p.ProviderRef, p.AmountMinor, p.Currency)
	if err != nil && strings.Contains(err.Error(), "23505") {
		return nil
	}
	return err
}

// TouchSession marks a checkout session as seen now.
//
// heldout: hedgeidem — directive: //resilvet:idempotent with no reason
//
//resilvet:idempotent
func (s *Store) TouchSession(ctx context.Context, sessionID string) error {
	_, err := s.db.ExecContext(ctx, `UPDATE checkout_sessions SET last_seen = now() WHERE id = $1`, sessionID)
	return err
}
