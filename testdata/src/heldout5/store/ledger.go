package store

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	retrygo "github.com/avast/retry-go/v4"
	"github.com/cenkalti/backoff/v4"
)

// seedStatements are the reference rows every environment starts with.
var seedStatements = []string{
	"INSERT INTO currencies (code, minor_units) VALUES ('EUR', 2)",
	"INSERT INTO currencies (code, minor_units) VALUES ('USD', 2)",
	"INSERT INTO currencies (code, minor_units) VALUES ('JPY', 0)",
}

// AdjustBalance adds delta to an account's balance, trying again when the
// database does not answer.
//
// heldout: hedgeidem — retry loop (3 attempts) around UPDATE balance = balance + $1
func (s *Store) AdjustBalance(ctx context.Context, accountID string, delta int64) error {
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		_, err = s.db.ExecContext(ctx,
			`UPDATE accounts SET balance = balance + $1, updated_at = now() WHERE id = $2`, delta, accountID)
		if err == nil || errors.Is(err, context.Canceled) {
			return err
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(time.Duration(attempt+1) * 20 * time.Millisecond):
		}
	}
	return fmt.Errorf("adjust balance of %s: %w", accountID, err)
}

// AppendLedger writes a ledger entry to the journal of its kind.
//
// heldout: hedgeidem — retry loop (4 attempts) around an INSERT without upsert given as a fmt.Sprintf format
func (s *Store) AppendLedger(ctx context.Context, kind, accountID string, amountMinor int64, ref string) error {
	table := "ledger_debits"
	if kind == "credit" {
		table = "ledger_credits"
	}
	stmt := fmt.Sprintf("INSERT INTO %s (account_id, amount_minor, ref, booked_at) VALUES ($1, $2, $3, now())", table)
	var err error
	for attempt := 1; attempt <= 4; attempt++ {
		if _, err = s.db.ExecContext(ctx, stmt, accountID, amountMinor, ref); err == nil {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(50 * time.Millisecond):
		}
	}
	return err
}

// Seed inserts the reference rows, each tried three times: a fresh
// database is often still starting.
//
// heldout: hedgeidem — retry loop (3 attempts) around INSERTs without upsert from a package-level list of constants (the outer range is over items, the inner loop retries)
func (s *Store) Seed(ctx context.Context) error {
	for _, stmt := range seedStatements {
		var err error
		for attempt := 0; attempt < 3; attempt++ {
			if _, err = s.db.ExecContext(ctx, stmt); err == nil {
				break
			}
			select {
			case <-ctx.Done():
				return ctx.Err()
			case <-time.After(time.Second):
			}
		}
		if err != nil {
			return fmt.Errorf("seed %q: %w", stmt, err)
		}
	}
	return nil
}

// SaveDailyTotals stores a day's totals in the reporting database.
//
// heldout: clean — retry loop around INSERT … ON DUPLICATE KEY UPDATE, an upsert
func (s *Store) SaveDailyTotals(ctx context.Context, day time.Time, currency string, totalMinor int64) error {
	var err error
	for attempt := 0; attempt < 5; attempt++ {
		_, err = s.reports.ExecContext(ctx,
			"INSERT INTO daily_totals (day, currency, total_minor) VALUES (?, ?, ?) ON DUPLICATE KEY UPDATE total_minor = VALUES(total_minor)",
			day.Format("2006-01-02"), currency, totalMinor)
		if err == nil {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(200 * time.Millisecond):
		}
	}
	return err
}

// BulkInsertLines inserts an order's lines in one statement.
//
// heldout: clean — retried INSERT, but the statement is built with a strings.Builder, not a constant: the doc says statements that are not constants are no effect
func (s *Store) BulkInsertLines(ctx context.Context, lines []Line) error {
	if len(lines) == 0 {
		return nil
	}
	var b strings.Builder
	b.WriteString("INSERT INTO order_lines (order_id, sku, quantity, unit_minor) VALUES ")
	args := make([]any, 0, 4*len(lines))
	for i, l := range lines {
		if i > 0 {
			b.WriteString(", ")
		}
		n := 4 * i
		fmt.Fprintf(&b, "($%d, $%d, $%d, $%d)", n+1, n+2, n+3, n+4)
		args = append(args, l.OrderID, l.SKU, l.Quantity, l.Minor)
	}
	stmt := b.String()
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		if _, err = s.db.ExecContext(ctx, stmt, args...); err == nil {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(100 * time.Millisecond):
		}
	}
	return err
}

// CreditWallet adds amountMinor to a customer's wallet.
//
// heldout: hedgeidem — unsettled by the doc: backoff/v4 Retry around UPDATE … SET balance = $1 + balance, the column plus something written the other way round from the doc's n = n + 1; a demanding reviewer would say the doc promises it
func (s *Store) CreditWallet(ctx context.Context, walletID string, amountMinor int64) error {
	b := backoff.WithContext(backoff.WithMaxRetries(backoff.NewExponentialBackOff(), 3), ctx)
	return backoff.Retry(func() error {
		_, err := s.db.ExecContext(ctx, `UPDATE wallets SET balance = $1 + balance WHERE id = $2`, amountMinor, walletID)
		return err
	}, b)
}

// ReserveStock moves quantity of a SKU from available to reserved.
//
// heldout: hedgeidem — retry-go Do (5 attempts) around a pgx Exec of UPDATE reserved = reserved + $1
func (s *Store) ReserveStock(ctx context.Context, sku string, quantity int) error {
	return retrygo.Do(func() error {
		_, err := s.pool.Exec(ctx,
			`UPDATE inventory SET reserved = reserved + $1 WHERE sku = $2 AND on_hand - reserved >= $1`, quantity, sku)
		return err
	}, retrygo.Attempts(5), retrygo.Context(ctx), retrygo.Delay(25*time.Millisecond))
}
