// Package sqlx is a stub of github.com/jmoiron/sqlx: a dependency that
// reaches database/sql inside its own code.
package sqlx

import (
	"context"
	"database/sql"
)

type DB struct{ db *sql.DB }

// Select runs a query with no context.
func (d *DB) Select(dest any, query string, args ...any) error {
	rows, err := d.db.Query(query, args...)
	if err != nil {
		return err
	}
	return rows.Close()
}

// GetContext runs a query under the caller's context.
func (d *DB) GetContext(ctx context.Context, dest any, query string, args ...any) error {
	return d.db.QueryRowContext(ctx, query, args...).Err()
}
