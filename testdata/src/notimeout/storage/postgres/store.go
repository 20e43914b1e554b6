// Package postgres is the other half: a networked database.
package postgres

import (
	"database/sql"

	_ "github.com/lib/pq"
	_ "github.com/mattn/go-sqlite3"
)

func Count(db *sql.DB) (n int, err error) {
	err = db.QueryRow("SELECT count(*) FROM events").Scan(&n) // want `sql.DB.QueryRow runs with context.Background\(\) and no deadline`
	return n, err
}
