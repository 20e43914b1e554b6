package inventory

import (
	"context"
	"log"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
)

// Ledger records stock movements in Postgres (pgx).
type Ledger struct {
	pool *pgxpool.Pool
}

// heldout: clean — pgxpool.New keeps its ctx for the pool's lifetime; start-up
func NewLedger(ctx context.Context, dsn string) (*Ledger, error) {
	pool, err := pgxpool.New(ctx, dsn)
	if err != nil {
		return nil, err
	}
	return &Ledger{pool: pool}, nil
}

// heldout: clean — pool.Exec with the caller's ctx
func (l *Ledger) Adjust(ctx context.Context, sku string, delta int, reason string) error {
	_, err := l.pool.Exec(ctx, `INSERT INTO stock_movements (sku, delta, reason) VALUES ($1, $2, $3)`, sku, delta, reason)
	return err
}

// Totals returns the stock on hand per SKU, for the nightly export.
//
// heldout: notimeout — pool.QueryRow on context.Background(): no deadline on the query
func (l *Ledger) Totals(sku string) (int, error) {
	var n int
	err := l.pool.QueryRow(context.Background(), `SELECT coalesce(sum(delta), 0) FROM stock_movements WHERE sku = $1`, sku).Scan(&n)
	return n, err
}

// CompactLoop folds old movements into daily totals every hour.
//
// heldout: notimeout — pool.Exec on context.Background() in an hourly loop: a stuck Postgres hangs it forever
func (l *Ledger) CompactLoop(stop <-chan struct{}) {
	t := time.NewTicker(time.Hour)
	defer t.Stop()
	for {
		select {
		case <-stop:
			return
		case <-t.C:
		}
		if _, err := l.pool.Exec(context.Background(), `SELECT compact_stock_movements(now() - interval '7 days')`); err != nil {
			log.Printf("compact stock movements: %v", err)
		}
	}
}
