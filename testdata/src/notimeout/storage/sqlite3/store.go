// Package sqlite3 is the SQLite half of a storage layer written for two
// databases: the module links a networked driver too, but this package,
// named for SQLite, runs on the in-process one.
package sqlite3

import (
	"database/sql"

	_ "github.com/lib/pq"
	_ "github.com/mattn/go-sqlite3"
)

func Count(db *sql.DB) (n int, err error) {
	err = db.QueryRow("SELECT count(*) FROM events").Scan(&n)
	return n, err
}
