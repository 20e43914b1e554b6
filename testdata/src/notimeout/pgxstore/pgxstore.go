// Package pgxstore talks to PostgreSQL through pgx without database/sql:
// its queries are outbound work like database/sql's, and its schema
// set-up is set-up.
package pgxstore

import (
	"context"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

type Store struct{ pool *pgxpool.Pool }

// Setup creates the table: schema set-up, not reported.
func (s *Store) Setup() error {
	_, err := s.pool.Exec(context.Background(), "CREATE TABLE IF NOT EXISTS jobs (id BIGINT)")
	return err
}

var schema = []string{"CREATE INDEX IF NOT EXISTS jobs_id ON jobs (id)"}

// SetupList runs statements from a list: set-up too, though pgx's own
// calls inside Pool.Exec reach another call of the table.
func (s *Store) SetupList() error {
	for _, stmt := range schema {
		if _, err := s.pool.Exec(context.Background(), stmt); err != nil {
			return err
		}
	}
	return nil
}

// Purge runs a query with no deadline.
func (s *Store) Purge() error {
	_, err := s.pool.Exec(context.Background(), "DELETE FROM jobs") // want `context.Background\(\) reaches pgxpool.Pool.Exec with no deadline`
	return err
}

// PurgeBounded bounds it.
func (s *Store) PurgeBounded() error {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_, err := s.pool.Exec(ctx, "DELETE FROM jobs")
	return err
}

// step runs on a transaction its caller began: the caller chooses the
// context.
func step(ctx context.Context, tx pgx.Tx) error {
	_, err := tx.Exec(ctx, "UPDATE jobs SET id = id + 1")
	return err
}

// Move begins a transaction with no deadline.
func (s *Store) Move() error {
	ctx := context.TODO() // want `context.TODO\(\) reaches`
	tx, err := s.pool.Begin(ctx)
	if err != nil {
		return err
	}
	if err := step(ctx, tx); err != nil {
		return err
	}
	return tx.Commit(ctx)
}
