// Package adapterstore reaches the database through a dependency.
package adapterstore

import (
	"context"

	"github.com/jmoiron/sqlx"
)

type Store struct{ DB *sqlx.DB }

// Items lists the items under the caller's context.
func (s *Store) Items(ctx context.Context) error {
	return s.DB.GetContext(ctx, nil, "SELECT id FROM items")
}
