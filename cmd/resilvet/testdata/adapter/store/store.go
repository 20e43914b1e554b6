// Package store is the service's data access, through the dependency.
package store

import (
	"context"

	"example.com/sqlx"
)

type Store struct{ DB *sqlx.DB }

// Items lists the items under the caller's context.
func (s *Store) Items(ctx context.Context) error {
	return s.DB.GetContext(ctx, "SELECT id FROM items")
}

// Orders lists the orders with no context at all.
func (s *Store) Orders() error {
	return s.DB.Select("SELECT id FROM orders")
}
