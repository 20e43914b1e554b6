// Package sqlitelocal keeps its data in SQLite, in process: its queries
// wait on the local disk, not on a remote peer, and are not reported.
package sqlitelocal

import (
	"context"
	"database/sql"

	_ "github.com/mattn/go-sqlite3"
)

func load(db *sql.DB) error {
	_, err := db.QueryContext(context.Background(), "select 1") // ok: an in-process database
	return err
}
