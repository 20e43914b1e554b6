// Package schema creates its tables when it is constructed, at start-up:
// schema statements run unbounded on purpose and are not reported; the
// table's queries are.
package schema

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
)

const eventsSchema = `
-- Stores the events of a room.
CREATE TABLE IF NOT EXISTS events (
	id BIGSERIAL PRIMARY KEY,
	body TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS events_body ON events(body);
`

type Events struct {
	db     *sql.DB
	insert *sql.Stmt
}

func NewEvents(db *sql.DB) (*Events, error) {
	if _, err := db.Exec(eventsSchema); err != nil {
		return nil, err
	}
	if _, err := db.Exec("ALTER TABLE events ADD COLUMN IF NOT EXISTS room TEXT"); err != nil {
		return nil, err
	}
	e := &Events{db: db}
	var err error
	// Prepared once, kept for the table's queries: set-up.
	if e.insert, err = db.Prepare("INSERT INTO events(body) VALUES ($1)"); err != nil {
		return nil, err
	}
	return e, nil
}

// Migrator applies the schema's migrations at start-up.
type Migrator struct{ db *sql.DB }

func (m *Migrator) Up(ctx context.Context) error {
	_, err := m.db.ExecContext(ctx, "INSERT INTO db_migrations(version) VALUES ('1')")
	return err
}

func Open(db *sql.DB) error {
	return (&Migrator{db: db}).Up(context.Background())
}

// Touch prepares and runs at once: a query like any other.
func (e *Events) Touch() error {
	stmt, err := e.db.Prepare("UPDATE events SET body = body")
	if err != nil {
		return err
	}
	_, err = stmt.Exec() // want `sql.Stmt.Exec runs with context.Background\(\) and no deadline`
	return err
}

func (e *Events) Count() (int, error) {
	var n int
	err := e.db.QueryRow("SELECT count(*) FROM events").Scan(&n) // want `sql.DB.QueryRow runs with context.Background\(\) and no deadline`
	return n, err
}

// schema is the list of statements setup runs, one by one.
var schema = []string{
	`CREATE TABLE IF NOT EXISTS kv (name TEXT, value BLOB)`,
	`CREATE INDEX IF NOT EXISTS kv_name ON kv (name)`,
	"",
}

// setup checks the catalog, then creates what is missing from a list and
// a format: schema set-up, unbounded on purpose.
func setup(db *sql.DB, name string) error {
	var exists bool
	if err := db.QueryRow("SELECT 1 FROM information_schema.TABLES WHERE table_name = ?", "kv").Scan(&exists); err != nil {
		return err
	}
	for _, stmt := range schema {
		if _, err := db.Exec(stmt); err != nil {
			return err
		}
	}
	_, err := db.Exec(fmt.Sprintf("CREATE DATABASE %s", name))
	return err
}

// queries is a list too, but not of schema statements.
var queries = []string{"DELETE FROM kv", "CREATE INDEX IF NOT EXISTS kv_value ON kv (value)"}

func purge(db *sql.DB) error {
	for _, q := range queries {
		if _, err := db.Exec(q); err != nil { // want `sql.DB.Exec runs with context.Background\(\) and no deadline`
			return err
		}
	}
	_, err := db.Exec(fmt.Sprintf("DELETE FROM %s", "kv")) // want `sql.DB.Exec runs with context.Background\(\) and no deadline`
	return err
}

// queriesOf is written after start-up as well: not a list of constants.
var queriesOf = []string{"CREATE TABLE t (id INT)"}

func SetQueries(q []string) { queriesOf = q }

func runAll(db *sql.DB) {
	for _, q := range queriesOf {
		db.Exec(q) // want `sql.DB.Exec runs with context.Background\(\) and no deadline`
	}
}

// setupEdited edits the listed statements for the server it finds: still
// set-up.
func setupEdited(db *sql.DB, cockroach bool) error {
	for _, stmt := range schema {
		if cockroach {
			stmt = strings.ReplaceAll(stmt, ` COLLATE "C"`, "")
		}
		if _, err := db.Exec(stmt); err != nil {
			return err
		}
	}
	return nil
}
