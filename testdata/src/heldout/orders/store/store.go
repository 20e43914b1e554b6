// Package store is the Postgres persistence of orders.
package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	_ "github.com/lib/pq"
)

var ErrNotFound = errors.New("order not found")

type Order struct {
	ID        string
	Customer  string
	SKU       string
	Qty       int
	TotalCt   int64
	Status    string
	ChargeID  string
	CreatedAt time.Time
}

type Store struct {
	db         *sql.DB
	insertStmt *sql.Stmt
}

const schema = `CREATE TABLE IF NOT EXISTS orders (
	id         TEXT PRIMARY KEY,
	customer   TEXT NOT NULL,
	sku        TEXT NOT NULL,
	qty        INT NOT NULL,
	total_ct   BIGINT NOT NULL,
	status     TEXT NOT NULL,
	charge_id  TEXT,
	created_at TIMESTAMPTZ NOT NULL DEFAULT now()
)`

const insertOrderSQL = `INSERT INTO orders (id, customer, sku, qty, total_ct, status) VALUES ($1, $2, $3, $4, $5, $6)`

// heldout: clean — start-up schema statement and a statement prepared to be kept
func New(db *sql.DB) (*Store, error) {
	if _, err := db.Exec(schema); err != nil {
		return nil, fmt.Errorf("orders schema: %w", err)
	}
	s := &Store{db: db}
	var err error
	s.insertStmt, err = db.Prepare(insertOrderSQL)
	if err != nil {
		return nil, fmt.Errorf("prepare insert: %w", err)
	}
	return s, nil
}

// heldout: clean — prepared statement run with the caller's ctx
func (s *Store) Create(ctx context.Context, o Order) error {
	_, err := s.insertStmt.ExecContext(ctx, o.ID, o.Customer, o.SKU, o.Qty, o.TotalCt, "new")
	return err
}

// CreateBatch inserts orders imported from the marketplace in one transaction.
//
// heldout: ctxdrop — tx.Stmt ignores ctx (StmtContext exists), so re-preparing the statement on the transaction's connection is not cancelled with the caller
func (s *Store) CreateBatch(ctx context.Context, orders []Order) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	ins := tx.Stmt(s.insertStmt)
	for _, o := range orders {
		if _, err := ins.ExecContext(ctx, o.ID, o.Customer, o.SKU, o.Qty, o.TotalCt, "new"); err != nil {
			return fmt.Errorf("order %s: %w", o.ID, err)
		}
	}
	return tx.Commit()
}

// heldout: clean — QueryRowContext with the caller's ctx
func (s *Store) Get(ctx context.Context, id string) (*Order, error) {
	row := s.db.QueryRowContext(ctx, `SELECT id, customer, sku, qty, total_ct, status, coalesce(charge_id, ''), created_at FROM orders WHERE id = $1`, id)
	var o Order
	err := row.Scan(&o.ID, &o.Customer, &o.SKU, &o.Qty, &o.TotalCt, &o.Status, &o.ChargeID, &o.CreatedAt)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, ErrNotFound
	}
	return &o, err
}

// heldout: ctxdrop — calls db.Query although ctx is in scope (QueryContext exists)
func (s *Store) ListByCustomer(ctx context.Context, customer string, limit int) ([]Order, error) {
	if limit <= 0 || limit > 100 {
		limit = 100
	}
	rows, err := s.db.Query(`SELECT id, customer, sku, qty, total_ct, status, coalesce(charge_id, ''), created_at
		FROM orders WHERE customer = $1 ORDER BY created_at DESC LIMIT $2`, customer, limit)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	return scanOrders(rows)
}

// heldout: ctxdrop — transaction begun with ctx, but its statements use plain tx.Exec and ignore it
func (s *Store) MarkShipped(ctx context.Context, id, tracking string) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	res, err := tx.Exec(`UPDATE orders SET status = 'shipped' WHERE id = $1 AND status = 'paid'`, id)
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return fmt.Errorf("order %s is not paid", id)
	}
	if _, err := tx.Exec(`INSERT INTO shipments (order_id, tracking) VALUES ($1, $2)`, id, tracking); err != nil {
		return err
	}
	return tx.Commit()
}

// heldout: clean — transaction and statements all use the caller's ctx
func (s *Store) Cancel(ctx context.Context, id string) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, `UPDATE orders SET status = 'cancelled' WHERE id = $1`, id); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, `DELETE FROM reservations WHERE order_id = $1`, id); err != nil {
		return err
	}
	return tx.Commit()
}

// heldout: clean — ExecContext with the caller's ctx
func (s *Store) SetCharge(ctx context.Context, id, chargeID string) error {
	_, err := s.db.ExecContext(ctx, `UPDATE orders SET charge_id = $2, status = 'paid' WHERE id = $1`, id, chargeID)
	return err
}

// heldout: ctxdrop — db.Prepare is a round trip that ignores ctx (PrepareContext exists), although the statement then runs with ctx
func (s *Store) Reprice(ctx context.Context, sku string, unitCt int64) (int64, error) {
	stmt, err := s.db.Prepare(`UPDATE orders SET total_ct = qty * $2 WHERE sku = $1 AND status = 'new'`)
	if err != nil {
		return 0, err
	}
	defer stmt.Close()
	res, err := stmt.ExecContext(ctx, sku, unitCt)
	if err != nil {
		return 0, err
	}
	return res.RowsAffected()
}

// heldout: notimeout — makes its own context.Background() for the query: nothing bounds it
func (s *Store) Exists(id string) (bool, error) {
	var one int
	err := s.db.QueryRowContext(context.Background(), `SELECT 1 FROM orders WHERE id = $1`, id).Scan(&one)
	if errors.Is(err, sql.ErrNoRows) {
		return false, nil
	}
	return err == nil, err
}

// CountPending is used by the ops dashboard.
//
// heldout: notimeout — db.QueryRow with no context in scope: the query can wait forever
func (s *Store) CountPending() (int, error) {
	var n int
	err := s.db.QueryRow(`SELECT count(*) FROM orders WHERE status IN ('new', 'paid')`).Scan(&n)
	return n, err
}

// heldout: clean — QueryContext with the caller's ctx
func (s *Store) ListDue(ctx context.Context, before time.Time) ([]Order, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT id, customer, sku, qty, total_ct, status, coalesce(charge_id, ''), created_at
		FROM orders WHERE status = 'new' AND created_at < $1 LIMIT 500`, before)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	return scanOrders(rows)
}

// heldout: clean — ExecContext with the caller's ctx
func (s *Store) RecordAttempt(ctx context.Context, id string, attempt int, errText string) error {
	_, err := s.db.ExecContext(ctx, `INSERT INTO charge_attempts (order_id, attempt, error) VALUES ($1, $2, $3)`, id, attempt, errText)
	return err
}

// ArchiveOlderThan moves old orders to the archive table. It runs from the
// nightly job, never on a request path.
//
// heldout: clean — bounded root of its own (30s) for a background job
func (s *Store) ArchiveOlderThan(age time.Duration) (int64, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	res, err := s.db.ExecContext(ctx, `WITH moved AS (DELETE FROM orders WHERE created_at < $1 RETURNING *)
		INSERT INTO orders_archive SELECT * FROM moved`, time.Now().Add(-age))
	if err != nil {
		return 0, err
	}
	return res.RowsAffected()
}

// heldout: clean — closes local resources
func (s *Store) Close() error {
	s.insertStmt.Close()
	return s.db.Close()
}

// heldout: clean — scans rows already fetched
func scanOrders(rows *sql.Rows) ([]Order, error) {
	var out []Order
	for rows.Next() {
		var o Order
		if err := rows.Scan(&o.ID, &o.Customer, &o.SKU, &o.Qty, &o.TotalCt, &o.Status, &o.ChargeID, &o.CreatedAt); err != nil {
			return nil, err
		}
		out = append(out, o)
	}
	return out, rows.Err()
}
