// Package failsafe hedges and retries through failsafe-go policies.
package failsafe

import (
	"context"
	"database/sql"
	"net/http"
	"time"

	failsafe "github.com/failsafe-go/failsafe-go"
	"github.com/failsafe-go/failsafe-go/failsafehttp"
	"github.com/failsafe-go/failsafe-go/hedgepolicy"
	"github.com/failsafe-go/failsafe-go/retrypolicy"
)

type Store struct{ db *sql.DB }

func (s *Store) insert(ctx context.Context, id string) error {
	_, err := s.db.ExecContext(ctx, "INSERT INTO orders (id) VALUES ($1)", id)
	return err
}

func (s *Store) upsert(ctx context.Context, id string) error {
	_, err := s.db.ExecContext(ctx, `INSERT INTO orders (id) VALUES ($1)
		ON CONFLICT (id) DO NOTHING`, id)
	return err
}

func (s *Store) read(ctx context.Context, id string) (string, error) {
	var v string
	err := s.db.QueryRowContext(ctx, "SELECT v FROM orders WHERE id = $1", id).Scan(&v)
	return v, err
}

func (s *Store) Hedged(ctx context.Context, id string) error {
	hedge := hedgepolicy.NewWithDelay[any](10 * time.Millisecond)
	exec := failsafe.With[any](hedge)
	return exec.Run(func() error { return s.insert(ctx, id) }) // want `failsafe-go hedge policy hedges failsafe.Store.insert, which runs an INSERT without an upsert clause \(INSERT INTO orders\) \(failsafe.go:19\), so every copy may take effect; make the statement an upsert on an operation id`
}

func (s *Store) HedgedBuilt(ctx context.Context, id string) error {
	hedge := hedgepolicy.NewBuilderWithDelay[any](10 * time.Millisecond).WithMaxHedges(2).Build()
	return failsafe.With[any](hedge).Run(func() error { return s.insert(ctx, id) }) // want `failsafe-go hedge policy hedges failsafe.Store.insert`
}

func (s *Store) HedgedUpsert(ctx context.Context, id string) error {
	hedge := hedgepolicy.NewWithDelay[any](10 * time.Millisecond)
	return failsafe.With[any](hedge).Run(func() error { return s.upsert(ctx, id) })
}

func (s *Store) HedgedRead(ctx context.Context, id string) (any, error) {
	hedge := hedgepolicy.NewWithDelay[any](10 * time.Millisecond)
	return failsafe.With[any](hedge).Get(func() (any, error) { return s.read(ctx, id) })
}

func (s *Store) Retried(ctx context.Context, id string) error {
	rp := retrypolicy.NewBuilder[any]().WithMaxRetries(2).Build()
	return failsafe.With[any](rp).WithContext(ctx).Run(func() error { return s.insert(ctx, id) }) // want `failsafe.Executor.Run \(3 attempts\) retries failsafe.Store.insert, which runs an INSERT without an upsert clause`
}

func HedgedRequest(ctx context.Context, c *http.Client, url string) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, nil)
	if err != nil {
		return err
	}
	hedge := hedgepolicy.NewWithDelay[*http.Response](10 * time.Millisecond)
	resp, err := failsafehttp.NewRequest(req, c, hedge).Do() // want `failsafe-go hedge policy hedges failsafehttp.Request.Do, which sends a POST request without an Idempotency-Key header`
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

func HedgedTransport(ctx context.Context, url string) error {
	hedge := hedgepolicy.NewWithDelay[*http.Response](10 * time.Millisecond)
	c := &http.Client{Transport: failsafehttp.NewRoundTripper(http.DefaultTransport, hedge)}
	req, _ := http.NewRequestWithContext(ctx, http.MethodPatch, url, nil)
	_, err := c.Do(req) // want `failsafehttp.NewRoundTripper \(copies set at run time\) hedges http.Client.Do, which sends a PATCH request`
	return err
}
