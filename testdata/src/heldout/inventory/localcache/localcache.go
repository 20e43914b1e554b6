// Package localcache keeps a read-mostly copy of stock levels in a SQLite
// file next to the process.
package localcache

import (
	"context"
	"database/sql"

	_ "github.com/mattn/go-sqlite3"
)

type Cache struct {
	db *sql.DB
}

// heldout: clean — opens a local SQLite file and creates its table
func Open(path string) (*Cache, error) {
	db, err := sql.Open("sqlite3", path)
	if err != nil {
		return nil, err
	}
	if _, err := db.Exec(`CREATE TABLE IF NOT EXISTS levels (sku TEXT PRIMARY KEY, qty INTEGER NOT NULL)`); err != nil {
		return nil, err
	}
	return &Cache{db: db}, nil
}

// heldout: clean — plain QueryRow, but on an in-process SQLite database: nothing remote to bound
func (c *Cache) Lookup(ctx context.Context, sku string) (int, bool, error) {
	var qty int
	err := c.db.QueryRow(`SELECT qty FROM levels WHERE sku = ?`, sku).Scan(&qty)
	if err == sql.ErrNoRows {
		return 0, false, nil
	}
	return qty, err == nil, err
}

// heldout: clean — local SQLite write
func (c *Cache) Put(ctx context.Context, sku string, qty int) error {
	_, err := c.db.ExecContext(ctx, `INSERT INTO levels (sku, qty) VALUES (?, ?) ON CONFLICT(sku) DO UPDATE SET qty = excluded.qty`, sku, qty)
	return err
}

// heldout: clean — local SQLite transaction with no context in scope
func (c *Cache) ReplaceAll(levels map[string]int) error {
	tx, err := c.db.Begin()
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if _, err := tx.Exec(`DELETE FROM levels`); err != nil {
		return err
	}
	for sku, qty := range levels {
		if _, err := tx.Exec(`INSERT INTO levels (sku, qty) VALUES (?, ?)`, sku, qty); err != nil {
			return err
		}
	}
	return tx.Commit()
}
