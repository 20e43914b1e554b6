// Package store keeps asset and rendition metadata in PostgreSQL.
package store

import (
	"context"
	"database/sql"
	"fmt"
	"time"
)

// Asset is an uploaded source file.
type Asset struct {
	ID     string
	Title  string
	Status string
	Stale  bool
}

// Rendition is one transcoded output of an asset.
type Rendition struct {
	Profile string
	URL     string
	Bytes   int64
}

// Store is the metadata store.
type Store struct {
	db *sql.DB
}

var schema = []string{
	"CREATE TABLE IF NOT EXISTS assets (id text PRIMARY KEY, title text, status text, stale boolean DEFAULT false)",
	"CREATE TABLE IF NOT EXISTS renditions (asset_id text, profile text, url text, bytes bigint)",
	"CREATE TABLE IF NOT EXISTS asset_tags (asset_id text, tag text)",
	"CREATE TABLE IF NOT EXISTS audit (kind text, msg text, at timestamptz DEFAULT now())",
}

// Open connects to PostgreSQL and checks the connection once.
// heldout: clean — start-up constructor; the ping carries its own 5 s bound
func Open(dsn string) (*Store, error) {
	db, err := sql.Open("postgres", dsn)
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := db.PingContext(ctx); err != nil {
		db.Close()
		return nil, fmt.Errorf("ping: %w", err)
	}
	return &Store{db: db}, nil
}

// Migrate creates the tables.
// heldout: clean — schema statements from a package-level list of CREATE constants are start-up set-up
func (s *Store) Migrate() error {
	for _, stmt := range schema {
		if _, err := s.db.Exec(stmt); err != nil {
			return err
		}
	}
	return nil
}

// CreateAsset inserts a new asset.
// heldout: clean — the caller's context reaches the insert
func (s *Store) CreateAsset(ctx context.Context, a Asset) error {
	_, err := s.db.ExecContext(ctx,
		"INSERT INTO assets (id, title, status) VALUES ($1, $2, $3)", a.ID, a.Title, a.Status)
	return err
}

// GetAsset loads one asset.
// heldout: clean — context parameter passed to QueryRowContext; the caller chooses the deadline
func (s *Store) GetAsset(ctx context.Context, id string) (*Asset, error) {
	var a Asset
	err := s.db.QueryRowContext(ctx,
		"SELECT id, title, status, stale FROM assets WHERE id = $1", id).
		Scan(&a.ID, &a.Title, &a.Status, &a.Stale)
	if err != nil {
		return nil, err
	}
	return &a, nil
}

// ListRenditions returns the renditions of an asset.
// heldout: ctxdrop — db.Query while ctx is in scope (QueryContext exists)
func (s *Store) ListRenditions(ctx context.Context, assetID string) ([]Rendition, error) {
	rows, err := s.db.Query("SELECT profile, url, bytes FROM renditions WHERE asset_id = $1", assetID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []Rendition
	for rows.Next() {
		var r Rendition
		if err := rows.Scan(&r.Profile, &r.URL, &r.Bytes); err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, rows.Err()
}

// SaveRenditions replaces the renditions of an asset in one transaction.
// heldout: clean — BeginTx and every statement use ctx; the deferred Rollback is cleanup
func (s *Store) SaveRenditions(ctx context.Context, assetID string, rs []Rendition) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, "DELETE FROM renditions WHERE asset_id = $1", assetID); err != nil {
		return err
	}
	for _, r := range rs {
		if _, err := tx.ExecContext(ctx,
			"INSERT INTO renditions (asset_id, profile, url, bytes) VALUES ($1, $2, $3, $4)",
			assetID, r.Profile, r.URL, r.Bytes); err != nil {
			return err
		}
	}
	return tx.Commit()
}

// ReplaceTags sets the tags of an asset.
// heldout: ctxdrop — the transaction is begun with ctx but the inserts use tx.Exec, not ExecContext
func (s *Store) ReplaceTags(ctx context.Context, assetID string, tags []string) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, "DELETE FROM asset_tags WHERE asset_id = $1", assetID); err != nil {
		return err
	}
	for _, t := range tags {
		if _, err := tx.Exec("INSERT INTO asset_tags (asset_id, tag) VALUES ($1, $2)", assetID, t); err != nil {
			return err
		}
	}
	return tx.Commit()
}

// DeleteAsset removes an asset and its renditions.
// heldout: ctxdrop — db.Begin() while ctx is in scope (BeginTx exists)
func (s *Store) DeleteAsset(ctx context.Context, id string) error {
	tx, err := s.db.Begin()
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, "DELETE FROM renditions WHERE asset_id = $1", id); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, "DELETE FROM assets WHERE id = $1", id); err != nil {
		return err
	}
	return tx.Commit()
}

// MarkStale flags an asset whose renditions must be rebuilt.
// heldout: notimeout — db.Exec with no context in scope runs on context.Background(); nothing bounds the update
func (s *Store) MarkStale(assetID string) error {
	_, err := s.db.Exec("UPDATE assets SET stale = true WHERE id = $1", assetID)
	return err
}

// CountPending returns the number of assets waiting for transcoding.
// heldout: notimeout — makes its own context.Background() with no deadline for QueryRowContext
func (s *Store) CountPending() (int, error) {
	ctx := context.Background()
	var n int
	err := s.db.QueryRowContext(ctx, "SELECT count(*) FROM assets WHERE status = 'pending'").Scan(&n)
	return n, err
}

// Healthy reports whether the database answers within two seconds.
// heldout: clean — a root with its own 2 s bound made where no context is in scope
func (s *Store) Healthy() bool {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	return s.db.PingContext(ctx) == nil
}

// RecordFailure stores the last error of an asset.
// heldout: clean — caller's context
func (s *Store) RecordFailure(ctx context.Context, assetID, msg string) error {
	_, err := s.db.ExecContext(ctx, "UPDATE assets SET status = 'failed', title = title || $2 WHERE id = $1", assetID, msg)
	return err
}

// AppendAudit writes an audit record.
// heldout: clean — caller's context
func (s *Store) AppendAudit(ctx context.Context, kind, msg string) error {
	_, err := s.db.ExecContext(ctx, "INSERT INTO audit (kind, msg) VALUES ($1, $2)", kind, msg)
	return err
}

// Search finds assets by title.
// heldout: ctxdrop — db.Prepare makes a round trip without ctx (PrepareContext exists); only the query gets the context
func (s *Store) Search(ctx context.Context, q string) ([]string, error) {
	stmt, err := s.db.Prepare("SELECT id FROM assets WHERE title ILIKE '%' || $1 || '%' LIMIT 50")
	if err != nil {
		return nil, err
	}
	defer stmt.Close()
	rows, err := stmt.QueryContext(ctx, q)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var ids []string
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			return nil, err
		}
		ids = append(ids, id)
	}
	return ids, rows.Err()
}
