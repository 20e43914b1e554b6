// Package locations stores driver positions (Postgres/PostGIS through
// pgx, last-seen times in the KV cache) and ingests the telematics feed
// of the fleet partners' cars.
package locations

import (
	"context"
	"fmt"
	"strconv"
	"time"

	"example.com/kv"
	"github.com/jackc/pgx/v5/pgxpool"
)

// Location is one position sample.
type Location struct {
	DriverID string
	Lat, Lng float64
	Heading  int
	At       time.Time
}

// Candidate is a driver near a pickup.
type Candidate struct {
	DriverID string
	Lat, Lng float64
	DistM    int
}

// Store is the location store.
type Store struct {
	pool *pgxpool.Pool
	kv   *kv.Client
}

// NewStore connects to the locations database.
// heldout: clean — pgxpool.New keeps its context for the pool's background connections, so a root is the right one; the ping is bounded by ctx plus 5s
func NewStore(ctx context.Context, dsn string, cache *kv.Client) (*Store, error) {
	// The pool outlives this call and keeps its context for idle
	// connection upkeep, so it gets the background context, not ctx.
	pool, err := pgxpool.New(context.Background(), dsn)
	if err != nil {
		return nil, fmt.Errorf("locations pool: %w", err)
	}
	pctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	if err := pool.Ping(pctx); err != nil {
		return nil, fmt.Errorf("locations ping: %w", err)
	}
	return &Store{pool: pool, kv: cache}, nil
}

// Upsert records a driver's latest position.
// heldout: clean — pgx Exec with the caller's ctx
func (s *Store) Upsert(ctx context.Context, loc Location) error {
	_, err := s.pool.Exec(ctx,
		`INSERT INTO driver_locations (driver_id, geom, heading, recorded_at)
		 VALUES ($1, ST_SetSRID(ST_MakePoint($3, $2), 4326), $4, $5)`,
		loc.DriverID, loc.Lat, loc.Lng, loc.Heading, loc.At)
	return err
}

// Nearby returns available drivers within radiusM of a point, nearest
// first.
// heldout: clean — pgx QueryRow with the caller's ctx
func (s *Store) Nearby(ctx context.Context, lat, lng float64, radiusM int) ([]Candidate, error) {
	var ids []string
	var lats, lngs []float64
	var dists []int
	err := s.pool.QueryRow(ctx,
		`SELECT array_agg(driver_id), array_agg(lat), array_agg(lng), array_agg(dist) FROM (
		   SELECT d.id AS driver_id, ST_Y(l.geom) AS lat, ST_X(l.geom) AS lng,
		          ST_Distance(l.geom::geography, ST_MakePoint($2, $1)::geography)::int AS dist
		   FROM drivers d JOIN LATERAL (SELECT geom FROM driver_locations WHERE driver_id = d.id ORDER BY recorded_at DESC LIMIT 1) l ON true
		   WHERE d.state = 'available' AND ST_DWithin(l.geom::geography, ST_MakePoint($2, $1)::geography, $3)
		   ORDER BY dist LIMIT 20) c`,
		lat, lng, radiusM).Scan(&ids, &lats, &lngs, &dists)
	if err != nil {
		return nil, err
	}
	out := make([]Candidate, len(ids))
	for i := range ids {
		out[i] = Candidate{DriverID: ids[i], Lat: lats[i], Lng: lngs[i], DistM: dists[i]}
	}
	return out, nil
}

// Purge deletes samples older than retention.
// heldout: notimeout — its own context.Background() reaches pool.Exec with no deadline; a DELETE stuck on a lock hangs the janitor forever
func (s *Store) Purge(retention time.Duration) error {
	_, err := s.pool.Exec(context.Background(),
		`DELETE FROM driver_locations WHERE recorded_at < now() - make_interval(secs => $1)`,
		int64(retention/time.Second))
	return err
}

// LastSeen returns when the driver's app last reported, from the KV
// cache, falling back to the database.
// heldout: ctxdrop — kv.Client.Get while ctx is in scope; GetContext exists
func (s *Store) LastSeen(ctx context.Context, driverID string) (time.Time, error) {
	if v, err := s.kv.Get("lastseen:" + driverID); err == nil && v != "" {
		if sec, err := strconv.ParseInt(v, 10, 64); err == nil {
			return time.Unix(sec, 0), nil
		}
	}
	var at time.Time
	err := s.pool.QueryRow(ctx,
		`SELECT max(recorded_at) FROM driver_locations WHERE driver_id = $1`, driverID).Scan(&at)
	return at, err
}

// MoveDriver moves a driver to another dispatch zone and logs the move,
// atomically.
// heldout: ctxdrop — the transaction is begun with ctx but committed with context.Background() while ctx is in scope
func (s *Store) MoveDriver(ctx context.Context, driverID, zone string) error {
	tx, err := s.pool.Begin(ctx)
	if err != nil {
		return err
	}
	if _, err := tx.Exec(ctx, `UPDATE drivers SET zone = $1 WHERE id = $2`, zone, driverID); err != nil {
		tx.Rollback(ctx)
		return err
	}
	if _, err := tx.Exec(ctx, `INSERT INTO driver_zone_moves (driver_id, zone, at) VALUES ($1, $2, now())`, driverID, zone); err != nil {
		tx.Rollback(ctx)
		return err
	}
	return tx.Commit(context.Background())
}
