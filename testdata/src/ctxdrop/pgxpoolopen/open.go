// Package pgxpoolopen opens a pgx pool: its constructor keeps the context
// for the pool's life, so a fresh one is what it should get.
package pgxpoolopen

import (
	"context"

	"github.com/jackc/pgx/v5/pgxpool"
)

// openPool makes its own context for the pool: no drop.
func openPool(dsn string) (*pgxpool.Pool, error) {
	return pgxpool.New(context.Background(), dsn)
}

func Start(ctx context.Context, dsn string) error {
	pool, err := openPool(dsn) // ok: the pool keeps its context for its life
	if err != nil {
		return err
	}
	cfg, _ := pgxpool.ParseConfig(dsn)
	if _, err := pgxpool.NewWithConfig(context.Background(), cfg); err != nil { // ok: same
		return err
	}
	return pool.Ping(context.Background()) // want `context.Background\(\) passed to pgxpool.Pool.Ping while ctx is available`
}
