package schema

import (
	"context"
	"database/sql"
	"io"
	"net/http"
)

// Broker keeps its tables itself; the service creates them at start-up
// unless told not to.
type Broker struct{ db *sql.DB }

// EnsureSchema creates the broker's tables and records their version:
// schema set-up, unbounded on purpose, whatever its statements.
func (b *Broker) EnsureSchema(ctx context.Context) error {
	return b.setSchemaVersion(ctx, 3)
}

func (b *Broker) setSchemaVersion(ctx context.Context, v int) error {
	_, err := b.db.ExecContext(ctx, "INSERT INTO broker_version (v) VALUES ($1)", v)
	return err
}

// IsSchemaUpToDate checks the recorded version once at start-up.
func IsSchemaUpToDate(db *sql.DB) (bool, error) {
	var v int
	err := db.QueryRow("SELECT v FROM broker_version").Scan(&v)
	return v >= 3, err
}

func NewBroker(db *sql.DB, skipInit bool) (*Broker, error) {
	b := &Broker{db: db}
	if !skipInit {
		if err := b.EnsureSchema(context.Background()); err != nil {
			return nil, err
		}
	}
	return b, nil
}

// FetchSchema asks a schema registry for a message schema: a request like
// any other, whatever its name says.
func FetchSchema(url string) ([]byte, error) {
	resp, err := http.Get(url) // want `http.Get uses http.DefaultClient, which has no timeout`
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	return io.ReadAll(resp.Body)
}

// Publish writes a row on the broker's own context: not set-up.
func (b *Broker) Publish(body string) error {
	_, err := b.db.ExecContext(context.Background(), "INSERT INTO events(body) VALUES ($1)", body) // want `context.Background\(\) reaches sql.DB.ExecContext with no deadline`
	return err
}
