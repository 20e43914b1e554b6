// Package postgresopen opens a networked database: its queries are
// reported.
package postgresopen

import (
	"context"
	"database/sql"
)

func load() error {
	db, err := sql.Open("postgres", "host=db")
	if err != nil {
		return err
	}
	_, err = db.QueryContext(context.Background(), "select 1") // want `context.Background\(\) reaches sql.DB.QueryContext with no deadline`
	return err
}
