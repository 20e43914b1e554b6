// Package sqlx stands for a dependency that wraps database/sql (as
// github.com/jmoiron/sqlx does): its calls reach the database inside
// another module.
package sqlx

import (
	"context"
	"database/sql"
)

type DB struct{ db *sql.DB }

func Open(driver, dsn string) (*DB, error) {
	db, err := sql.Open(driver, dsn)
	return &DB{db: db}, err
}

// Select runs a query without a context.
func (d *DB) Select(query string, args ...any) error {
	rows, err := d.db.Query(query, args...)
	if err != nil {
		return err
	}
	return rows.Close()
}

// GetContext runs a query under the caller's context.
func (d *DB) GetContext(ctx context.Context, query string, args ...any) error {
	return d.db.QueryRowContext(ctx, query, args...).Err()
}
