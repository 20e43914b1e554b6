// Package sqliteopen opens SQLite by driver name; a second package opens
// a networked database and is reported.
package sqliteopen

import (
	"context"
	"database/sql"
)

func open() (*sql.DB, error) { return sql.Open("sqlite3", "file:cache.db") }

func load() error {
	db, err := open()
	if err != nil {
		return err
	}
	_, err = db.QueryContext(context.Background(), "select 1") // ok: every sql.Open here names SQLite
	return err
}
