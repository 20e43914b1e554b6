package billing

import (
	"context"
	"database/sql"
	"fmt"
)

// Entry is one ledger line.
type Entry struct {
	DriverID    string
	AmountCents int64
	Kind        string
	Ref         string
}

// Ledger is the drivers' money ledger.
type Ledger struct {
	db     *sql.DB
	insert *sql.Stmt
}

// NewLedger prepares the ledger's statements once, at start-up.
// heldout: clean — a statement prepared to be kept, at start-up
func NewLedger(db *sql.DB) (*Ledger, error) {
	l := &Ledger{db: db}
	var err error
	l.insert, err = db.Prepare(`INSERT INTO ledger (driver_id, amount_cents, kind, ref) VALUES ($1, $2, $3, $4)`)
	if err != nil {
		return nil, fmt.Errorf("prepare ledger insert: %w", err)
	}
	return l, nil
}

// Record books e inside tx.
// heldout: clean — uses the caller's ctx on a statement bound to the caller's tx
func (l *Ledger) Record(ctx context.Context, tx *sql.Tx, e Entry) error {
	_, err := tx.StmtContext(ctx, l.insert).ExecContext(ctx, e.DriverID, e.AmountCents, e.Kind, e.Ref)
	return err
}

// Balance returns a driver's ledger balance.
// heldout: ctxdrop — db.Prepare without context while ctx is in scope; the prepare round trip ignores it
func (l *Ledger) Balance(ctx context.Context, driverID string) (int64, error) {
	stmt, err := l.db.Prepare(`SELECT COALESCE(SUM(amount_cents), 0) FROM ledger WHERE driver_id = $1`)
	if err != nil {
		return 0, err
	}
	defer stmt.Close()
	var bal int64
	err = stmt.QueryRowContext(ctx, driverID).Scan(&bal)
	return bal, err
}

// Adjust books a manual correction (support goodwill, fare dispute) and
// keeps the driver's cached balance in step.
// heldout: ctxdrop — db.Begin() while ctx is in scope; BeginTx exists
func (l *Ledger) Adjust(ctx context.Context, driverID string, cents int64, reason string) error {
	tx, err := l.db.Begin()
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if _, err := tx.StmtContext(ctx, l.insert).ExecContext(ctx, driverID, cents, "adjustment", reason); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx,
		`UPDATE driver_balances SET balance_cents = balance_cents + $1, updated_at = now() WHERE driver_id = $2`,
		cents, driverID); err != nil {
		return err
	}
	return tx.Commit()
}
