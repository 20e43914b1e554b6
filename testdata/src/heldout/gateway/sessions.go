package gateway

import (
	"context"
	"database/sql"
	"errors"
	"log"
	"time"
)

type Session struct {
	ID       string
	UserID   string
	LastSeen time.Time
}

// SessionStore keeps browser sessions in Postgres.
type SessionStore struct {
	db *sql.DB
}

// heldout: clean — constructor
func NewSessionStore(db *sql.DB) *SessionStore { return &SessionStore{db: db} }

// heldout: clean — QueryRowContext with the caller's ctx
func (s *SessionStore) Lookup(ctx context.Context, id string) (*Session, error) {
	var sess Session
	err := s.db.QueryRowContext(ctx, `SELECT id, user_id, last_seen FROM sessions WHERE id = $1 AND expires_at > now()`, id).
		Scan(&sess.ID, &sess.UserID, &sess.LastSeen)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	return &sess, err
}

// heldout: ctxdrop — ExecContext(context.TODO()) while ctx is in scope
func (s *SessionStore) Touch(ctx context.Context, id string) error {
	if id == "" {
		return nil
	}
	_, err := s.db.ExecContext(context.TODO(), `UPDATE sessions SET last_seen = now() WHERE id = $1`, id)
	return err
}

// PurgeExpired deletes expired sessions. Called by the worker.
//
// heldout: notimeout — db.Exec with no context in scope: the delete can wait on a lock forever
func (s *SessionStore) PurgeExpired() (int64, error) {
	res, err := s.db.Exec(`DELETE FROM sessions WHERE expires_at < now() - interval '1 day'`)
	if err != nil {
		return 0, err
	}
	return res.RowsAffected()
}

// heldout: clean — QueryRowContext with the caller's ctx
func (s *SessionStore) Count(ctx context.Context) (int, error) {
	var n int
	err := s.db.QueryRowContext(ctx, `SELECT count(*) FROM sessions WHERE expires_at > now()`).Scan(&n)
	return n, err
}

// ReportLoop logs the number of live sessions every five minutes.
//
// heldout: notimeout — one context.Background() made before the loop reaches Count's QueryRowContext every tick: no deadline
func (s *SessionStore) ReportLoop(stop <-chan struct{}) {
	ctx := context.Background()
	t := time.NewTicker(5 * time.Minute)
	defer t.Stop()
	for {
		select {
		case <-stop:
			return
		case <-t.C:
		}
		n, err := s.Count(ctx)
		if err != nil {
			log.Printf("sessions: count: %v", err)
			continue
		}
		log.Printf("sessions: %d live", n)
	}
}

// WithLock runs fn while holding the session's advisory lock.
//
// heldout: clean — lock and fn use ctx; the deferred unlock uses a bounded fresh context on purpose
func (s *SessionStore) WithLock(ctx context.Context, id string, fn func(ctx context.Context) error) error {
	conn, err := s.db.Conn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, `SELECT pg_advisory_lock(hashtext($1))`, id); err != nil {
		return err
	}
	defer func() {
		uctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
		defer cancel()
		conn.ExecContext(uctx, `SELECT pg_advisory_unlock(hashtext($1))`, id)
	}()
	return fn(ctx)
}
