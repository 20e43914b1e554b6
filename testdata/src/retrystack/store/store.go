// Package store is the bottom of a three-package chain of retry layers.
package store

import (
	"context"
	"database/sql"
	"time"
)

type Store struct{ db *sql.DB }

// LoadAccount retries its query three times.
func (s *Store) LoadAccount(ctx context.Context, id string) (string, error) {
	var name string
	var err error
	for i := 0; i < 3; i++ {
		err = s.db.QueryRowContext(ctx, "SELECT name FROM accounts WHERE id = $1", id).Scan(&name)
		if err == nil {
			return name, nil
		}
		select {
		case <-ctx.Done():
			return "", ctx.Err()
		case <-time.After(50 * time.Millisecond):
		}
	}
	return "", err
}

// Peek queries once.
func (s *Store) Peek(ctx context.Context) (string, error) {
	var name string
	err := s.db.QueryRowContext(ctx, "SELECT 1").Scan(&name)
	return name, err
}
