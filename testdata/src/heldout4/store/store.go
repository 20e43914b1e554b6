// Package store keeps shipments, tracking events and courier pickups in
// PostgreSQL through database/sql.
package store

import (
	"context"
	"crypto/rand"
	"database/sql"
	"errors"
	"fmt"
	"time"

	retrygo "github.com/avast/retry-go/v4"
	"github.com/cenkalti/backoff/v4"
	"github.com/resilvet/resilvet/runtime/retry"
)

// ErrNotFound is returned when a shipment does not exist.
var ErrNotFound = errors.New("store: not found")

// ErrNoWork is returned by ClaimNext when no pickup is waiting.
var ErrNoWork = errors.New("store: no pending pickup")

var errConflict = errors.New("store: serialization conflict")

// statusByCode maps carrier scan codes to shipment statuses.
var statusByCode = map[string]string{
	"PU": "picked_up",
	"AR": "in_transit",
	"DP": "in_transit",
	"DL": "delivered",
	"EX": "exception",
}

const (
	defaultAttempts = 3
	pageSize        = 500
)

// writePolicy is the runtime policy for single-statement writes.
var writePolicy = &retry.Policy{MaxAttempts: 3, BaseDelay: 50 * time.Millisecond, MaxDelay: time.Second}

// Shipment is one parcel or pallet moving through the network.
type Shipment struct {
	ID          string
	Customer    string
	Origin      string
	Destination string
	Carrier     string
	BookingID   string
	TrackingNo  string
	Status      string
	WeightGrams int64
	Version     int
	UpdatedAt   time.Time
}

// Event is one tracking scan.
type Event struct {
	ShipmentID string
	Code       string
	Location   string
	At         time.Time
}

// Pickup is a courier pickup leased by a depot worker.
type Pickup struct {
	ID         string
	ShipmentID string
	Depot      string
	LeasedBy   string
	LeaseUntil time.Time
}

// Store is the shipment database.
type Store struct {
	db          *sql.DB
	maxAttempts int
}

// Open connects to the database. It does not ping; see Ping.
//
// heldout: clean — constructor, no loop
func Open(dsn string) (*Store, error) {
	db, err := sql.Open("postgres", dsn)
	if err != nil {
		return nil, fmt.Errorf("store: open: %w", err)
	}
	db.SetMaxOpenConns(32)
	db.SetConnMaxIdleTime(5 * time.Minute)
	return &Store{db: db, maxAttempts: defaultAttempts}, nil
}

// Ping checks the connection once.
//
// heldout: clean — one call, no loop
func (s *Store) Ping() error {
	return s.db.Ping()
}

// Get loads a shipment. A dropped connection is retried a few times, with a
// jittered wait; not-found is returned at once.
//
// heldout: clean — single hand-written layer (maxAttempts), waits in a select on ctx.Done and a timer
func (s *Store) Get(ctx context.Context, id string) (*Shipment, error) {
	for attempt := 1; ; attempt++ {
		sh, err := s.get(ctx, id)
		if err == nil || errors.Is(err, ErrNotFound) {
			return sh, err
		}
		if attempt >= s.maxAttempts {
			return nil, fmt.Errorf("store: get %s: %w", id, err)
		}
		t := time.NewTimer(time.Duration(attempt) * 40 * time.Millisecond)
		select {
		case <-ctx.Done():
			t.Stop()
			return nil, ctx.Err()
		case <-t.C:
		}
	}
}

// heldout: clean — one query, no loop
func (s *Store) get(ctx context.Context, id string) (*Shipment, error) {
	var sh Shipment
	err := s.db.QueryRowContext(ctx, `
		SELECT id, customer, origin, destination, carrier, booking_id,
		       tracking_no, status, weight_g, version, updated_at
		  FROM shipments WHERE id = $1`, id).Scan(
		&sh.ID, &sh.Customer, &sh.Origin, &sh.Destination, &sh.Carrier, &sh.BookingID,
		&sh.TrackingNo, &sh.Status, &sh.WeightGrams, &sh.Version, &sh.UpdatedAt)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, ErrNotFound
	}
	if err != nil {
		return nil, err
	}
	return &sh, nil
}

// Create inserts a shipment under a fresh public ID. IDs are short and
// random, so a collision is possible; on a unique violation we draw again.
//
// heldout: retrystack — hot: the insert is retried with a new ID at once, nothing in the loop waits
func (s *Store) Create(ctx context.Context, sh *Shipment) (string, error) {
	var err error
	for i := 0; i < 5; i++ {
		var b [5]byte
		if _, rerr := rand.Read(b[:]); rerr != nil {
			return "", rerr
		}
		id := fmt.Sprintf("SHP-%X", b[:])
		_, err = s.db.ExecContext(ctx, `
			INSERT INTO shipments (id, customer, origin, destination, weight_g, status, version, updated_at)
			VALUES ($1, $2, $3, $4, $5, 'created', 1, now())`,
			id, sh.Customer, sh.Origin, sh.Destination, sh.WeightGrams)
		if err == nil {
			sh.ID = id
			return id, nil
		}
		var pg interface{ SQLState() string }
		if !errors.As(err, &pg) || pg.SQLState() != "23505" {
			return "", err
		}
	}
	return "", fmt.Errorf("store: no free shipment id: %w", err)
}

// AppendEvent records a tracking scan and moves the shipment's status in one
// serializable transaction, retrying serialization failures.
//
// heldout: retrystack — sleep: retry loop waits with time.Sleep while ctx is a parameter
func (s *Store) AppendEvent(ctx context.Context, ev Event) error {
	for attempt := 0; attempt < 4; attempt++ {
		err := s.inTx(ctx, func(tx *sql.Tx) error {
			if _, err := tx.ExecContext(ctx,
				`INSERT INTO events (shipment_id, code, location, at) VALUES ($1, $2, $3, $4)`,
				ev.ShipmentID, ev.Code, ev.Location, ev.At); err != nil {
				return err
			}
			_, err := tx.ExecContext(ctx,
				`UPDATE shipments SET status = $2, version = version + 1, updated_at = now() WHERE id = $1`,
				ev.ShipmentID, statusByCode[ev.Code])
			return err
		})
		if err == nil {
			return nil
		}
		var pg interface{ SQLState() string }
		if !errors.As(err, &pg) || pg.SQLState() != "40001" {
			return err
		}
		time.Sleep(time.Duration(attempt+1) * 25 * time.Millisecond)
	}
	return errConflict
}

// heldout: clean — one transaction, no loop
func (s *Store) inTx(ctx context.Context, fn func(*sql.Tx) error) error {
	tx, err := s.db.BeginTx(ctx, &sql.TxOptions{Isolation: sql.LevelSerializable})
	if err != nil {
		return err
	}
	if err := fn(tx); err != nil {
		_ = tx.Rollback()
		return err
	}
	return tx.Commit()
}

// ListByStatus calls fn for every shipment in the given status, in pages of
// pageSize, ordered by ID.
//
// heldout: clean — keyset pagination: the loop goes round for the next page and returns on the first error
func (s *Store) ListByStatus(ctx context.Context, status string, fn func(Shipment) error) error {
	after := ""
	for {
		rows, err := s.db.QueryContext(ctx, `
			SELECT id, customer, carrier, tracking_no, status, updated_at
			  FROM shipments WHERE status = $1 AND id > $2
			 ORDER BY id LIMIT $3`, status, after, pageSize)
		if err != nil {
			return err
		}
		n := 0
		for rows.Next() {
			var sh Shipment
			if err := rows.Scan(&sh.ID, &sh.Customer, &sh.Carrier, &sh.TrackingNo, &sh.Status, &sh.UpdatedAt); err != nil {
				rows.Close()
				return err
			}
			n++
			after = sh.ID
			if err := fn(sh); err != nil {
				rows.Close()
				return err
			}
		}
		if err := rows.Close(); err != nil {
			return err
		}
		if err := rows.Err(); err != nil {
			return err
		}
		if n < pageSize {
			return nil
		}
	}
}

// ClaimNext leases the oldest pending pickup for worker. Lease contention
// between depots is retried with exponential backoff, five tries at most.
//
// heldout: clean — single backoff/v4 layer (WithMaxRetries 4) around plain SQL
func (s *Store) ClaimNext(ctx context.Context, worker string) (*Pickup, error) {
	b := backoff.WithContext(backoff.WithMaxRetries(backoff.NewExponentialBackOff(), 4), ctx)
	return backoff.RetryWithData(func() (*Pickup, error) {
		var p Pickup
		err := s.db.QueryRowContext(ctx, `
			SELECT id, shipment_id, depot FROM pickups
			 WHERE leased_by IS NULL ORDER BY created_at LIMIT 1`).Scan(&p.ID, &p.ShipmentID, &p.Depot)
		if errors.Is(err, sql.ErrNoRows) {
			return nil, backoff.Permanent(ErrNoWork)
		}
		if err != nil {
			return nil, err
		}
		p.LeasedBy = worker
		p.LeaseUntil = time.Now().Add(10 * time.Minute)
		res, err := s.db.ExecContext(ctx,
			`UPDATE pickups SET leased_by = $2, lease_until = $3 WHERE id = $1 AND leased_by IS NULL`,
			p.ID, worker, p.LeaseUntil)
		if err != nil {
			return nil, err
		}
		if n, _ := res.RowsAffected(); n != 1 {
			return nil, errConflict
		}
		return &p, nil
	}, b)
}

// MarkDelivered sets the delivered status and time.
//
// heldout: clean — single runtime retry.Do layer around one statement
func (s *Store) MarkDelivered(ctx context.Context, id string, at time.Time) error {
	return retry.Do(ctx, writePolicy, func(ctx context.Context) error {
		_, err := s.db.ExecContext(ctx,
			`UPDATE shipments SET status = 'delivered', delivered_at = $2, version = version + 1 WHERE id = $1`, id, at)
		return err
	})
}

// UpdateStatus moves a shipment to status if it is still at the version
// read. The read-and-write is retried as a whole on a lost race.
//
// heldout: retrystack — nested: retry-go (3 attempts) wraps Get, which retries maxAttempts times itself
func (s *Store) UpdateStatus(ctx context.Context, id, status string) error {
	return retrygo.Do(func() error {
		sh, err := s.Get(ctx, id)
		if err != nil {
			if errors.Is(err, ErrNotFound) {
				return retrygo.Unrecoverable(err)
			}
			return err
		}
		res, err := s.db.ExecContext(ctx,
			`UPDATE shipments SET status = $2, version = version + 1, updated_at = now() WHERE id = $1 AND version = $3`,
			id, status, sh.Version)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return errConflict
		}
		return nil
	}, retrygo.Attempts(3), retrygo.Delay(20*time.Millisecond), retrygo.Context(ctx))
}

// Notify publishes a change on a LISTEN/NOTIFY channel so the websocket
// gateway can push it. The gateway reconnects often, so a failed notify is
// tried again a few times.
//
// heldout: retrystack — sleep: retry loop waits by receiving from time.After while ctx is a parameter
func (s *Store) Notify(ctx context.Context, channel, payload string) error {
	for attempt := 1; ; attempt++ {
		_, err := s.db.ExecContext(ctx, `SELECT pg_notify($1, $2)`, channel, payload)
		if err == nil {
			return nil
		}
		if attempt >= 5 {
			return fmt.Errorf("store: notify %s: %w", channel, err)
		}
		<-time.After(time.Duration(attempt) * 100 * time.Millisecond)
	}
}
