// Package ifaceimpl implements ifacedecl.Store with a query that the
// caller's context bounds.
package ifaceimpl

import (
	"context"
	"database/sql"
)

type SQLStore struct{ db *sql.DB }

func (s *SQLStore) Load(ctx context.Context, id string) error {
	_, err := s.db.QueryContext(ctx, "select ?", id)
	return err
}
