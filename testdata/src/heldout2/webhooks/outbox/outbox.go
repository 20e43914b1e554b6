// Package outbox parks webhook deliveries that failed, in a SQLite file
// on the pod's volume, until the redelivery loop gets them through.
package outbox

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	_ "github.com/mattn/go-sqlite3"
)

// Item is a parked delivery.
type Item struct {
	ID        int64
	PartnerID string
	Body      []byte
	Attempts  int
}

// Outbox is the local store of parked deliveries.
type Outbox struct {
	db *sql.DB
}

// Open opens (and creates) the outbox file.
// heldout: clean — local SQLite, DDL at start-up
func Open(path string) (*Outbox, error) {
	db, err := sql.Open("sqlite3", path+"?_journal_mode=WAL&_busy_timeout=5000")
	if err != nil {
		return nil, err
	}
	db.SetMaxOpenConns(1)
	if _, err := db.Exec(`CREATE TABLE IF NOT EXISTS outbox (
		id INTEGER PRIMARY KEY AUTOINCREMENT, partner_id TEXT NOT NULL, body BLOB NOT NULL,
		attempts INTEGER NOT NULL DEFAULT 0, next_at INTEGER NOT NULL)`); err != nil {
		return nil, fmt.Errorf("outbox schema: %w", err)
	}
	return &Outbox{db: db}, nil
}

// Enqueue parks a delivery for a later attempt.
// heldout: clean — in-process SQLite, nothing remote to wait for
func (o *Outbox) Enqueue(partnerID string, body []byte) error {
	_, err := o.db.Exec(`INSERT INTO outbox (partner_id, body, next_at) VALUES (?, ?, ?)`,
		partnerID, body, time.Now().Add(30*time.Second).Unix())
	return err
}

// Due returns up to limit deliveries whose next attempt is due.
// heldout: clean — in-process SQLite
func (o *Outbox) Due(limit int) ([]Item, error) {
	rows, err := o.db.Query(`SELECT id, partner_id, body, attempts FROM outbox WHERE next_at <= ? ORDER BY id LIMIT ?`,
		time.Now().Unix(), limit)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var items []Item
	for rows.Next() {
		var it Item
		if err := rows.Scan(&it.ID, &it.PartnerID, &it.Body, &it.Attempts); err != nil {
			return nil, err
		}
		items = append(items, it)
	}
	return items, rows.Err()
}

// Settle removes a delivered item, or pushes a failed one back with
// exponential backoff.
// heldout: clean — plain Exec with ctx in scope, but on the in-process SQLite file
func (o *Outbox) Settle(ctx context.Context, it Item, delivered bool) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if delivered {
		_, err := o.db.Exec(`DELETE FROM outbox WHERE id = ?`, it.ID)
		return err
	}
	next := time.Now().Add(time.Duration(1<<min(it.Attempts, 10)) * 30 * time.Second)
	_, err := o.db.Exec(`UPDATE outbox SET attempts = attempts + 1, next_at = ? WHERE id = ?`, next.Unix(), it.ID)
	return err
}
