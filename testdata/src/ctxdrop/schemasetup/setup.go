// Package schemasetup builds its tables when the database is opened:
// schema statements, statements prepared for later and migrations are
// set-up, not the caller's request, and are not reported; queries are.
package schemasetup

import (
	"context"
	"database/sql"
	"fmt"
)

type table struct {
	db     *sql.DB
	insert *sql.Stmt
}

func newTable(db *sql.DB) (*table, error) {
	if _, err := db.Exec("CREATE TABLE IF NOT EXISTS events (id INT)"); err != nil {
		return nil, err
	}
	t := &table{db: db}
	var err error
	t.insert, err = db.Prepare("INSERT INTO events(id) VALUES ($1)")
	return t, err
}

func runMigrations(db *sql.DB) error {
	_, err := db.Exec("INSERT INTO db_migrations(version) VALUES ('1')")
	return err
}

func purge(db *sql.DB) error {
	_, err := db.Exec("DELETE FROM events")
	return err
}

func NewDatabase(ctx context.Context, db *sql.DB) (*table, error) {
	if err := runMigrations(db); err != nil {
		return nil, err
	}
	db.Exec("CREATE INDEX IF NOT EXISTS events_id ON events(id)")
	return newTable(db)
}

func Reset(ctx context.Context, db *sql.DB) error {
	return purge(db) // want `call to schemasetup.purge drops the caller's context`
}

func Touch(ctx context.Context, db *sql.DB) error {
	stmt, err := db.Prepare("UPDATE events SET id = id") // want `sql.DB.Prepare ignores the caller's context while ctx is available`
	if err != nil {
		return err
	}
	_, err = stmt.ExecContext(ctx)
	return err
}

var schema = []string{"CREATE TABLE IF NOT EXISTS kv (name TEXT)", "CREATE INDEX IF NOT EXISTS kv_name ON kv (name)"}

// createIfMissing runs set-up with the context in scope for some calls
// only: the catalog query, the list and the format are schema set-up.
func createIfMissing(ctx context.Context, db *sql.DB, name string) error {
	var exists bool
	if err := db.QueryRow("SELECT 1 FROM pg_database WHERE datname = $1", name).Scan(&exists); err != nil {
		return err
	}
	for _, stmt := range schema {
		if _, err := db.Exec(stmt); err != nil {
			return err
		}
	}
	_, err := db.Exec(fmt.Sprintf("CREATE DATABASE %s", name))
	if err != nil {
		return err
	}
	_, err = db.Exec(fmt.Sprintf("DELETE FROM %s", name)) // want `sql.DB.Exec ignores the caller's context while ctx is available`
	return err
}
