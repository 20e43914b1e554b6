// Package schema creates its tables when it is constructed, at start-up:
// schema statements run unbounded on purpose and are not reported; the
// table's queries are.
package schema

import "database/sql"

const eventsSchema = `
-- Stores the events of a room.
CREATE TABLE IF NOT EXISTS events (
	id BIGSERIAL PRIMARY KEY,
	body TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS events_body ON events(body);
`

type Events struct{ db *sql.DB }

func NewEvents(db *sql.DB) (*Events, error) {
	if _, err := db.Exec(eventsSchema); err != nil {
		return nil, err
	}
	if _, err := db.Exec("ALTER TABLE events ADD COLUMN IF NOT EXISTS room TEXT"); err != nil {
		return nil, err
	}
	return &Events{db: db}, nil
}

func (e *Events) Count() (int, error) {
	var n int
	err := e.db.QueryRow("SELECT count(*) FROM events").Scan(&n) // want `sql.DB.QueryRow runs with context.Background\(\) and no deadline`
	return n, err
}
