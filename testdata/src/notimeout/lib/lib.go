// Package lib is a client library: its facts carry what its functions do
// to the packages that call them.
package lib

import (
	"context"
	"database/sql"
	"net/http"
	"time"

	"github.com/resilvet/resilvet/runtime/hedge"
)

// Client holds an HTTP client the package always builds with a timeout.
type Client struct {
	hc   *http.Client // want hc:"client:bounded"
	bare *http.Client // want bare:"client:unbounded"
	db   *sql.DB
}

func New() *Client {
	return &Client{hc: &http.Client{Timeout: 5 * time.Second}, bare: &http.Client{}}
}

// NewHTTPClient returns a client with a timeout.
func NewHTTPClient() *http.Client { // want NewHTTPClient:`returns\(client0:bounded\)`
	return &http.Client{Timeout: 3 * time.Second}
}

// NewBareClient returns a client without one.
func NewBareClient() *http.Client { // want NewBareClient:`returns\(client0:unbounded\)`
	return &http.Client{}
}

// Fetch sends through the bounded client: the context does not matter.
func (c *Client) Fetch(ctx context.Context, url string) error { // want Fetch:`^ctxIO\(0\) outbound$`
	req, err := http.NewRequestWithContext(ctx, "GET", url, nil)
	if err != nil {
		return err
	}
	_, err = c.hc.Do(req)
	return err
}

// FetchBare sends through the client without timeout: the caller's
// context is the only bound.
func (c *Client) FetchBare(ctx context.Context, url string) error { // want FetchBare:`reaches\(ctx0->http.Client.Do\)`
	req, err := http.NewRequestWithContext(ctx, "GET", url, nil)
	if err != nil {
		return err
	}
	_, err = c.bare.Do(req)
	return err
}

// Load is three helpers deep to the query.
func (c *Client) Load(ctx context.Context, id string) error { // want Load:`reaches\(ctx0->sql.DB.QueryContext\)`
	return c.load(ctx, id)
}

func (c *Client) load(ctx context.Context, id string) error { // want load:`reaches\(ctx0->sql.DB.QueryContext\)`
	return query(ctx, c.db, id)
}

func query(ctx context.Context, db *sql.DB, id string) error { // want query:`reaches\(ctx0->sql.DB.QueryContext\)`
	_, err := db.QueryContext(ctx, "SELECT 1 WHERE id = ?", id)
	return err
}

// Bounded adds a deadline before the query: no claim on its parameter.
func (c *Client) Bounded(ctx context.Context, id string) error { // want Bounded:`^ctxIO\(0\) outbound$`
	ctx, cancel := context.WithTimeout(ctx, time.Second)
	defer cancel()
	return query(ctx, c.db, id)
}

// Send uses the caller's client: the client is the bound.
func Send(hc *http.Client, url string) error { // want Send:`reaches\(client0->http.Client.Get\)`
	_, err := hc.Get(url)
	return err
}

// Background returns a context the caller should not send with.
func Background() context.Context { // want Background:`returns\(ctx0:unbounded\)`
	return context.Background()
}

// WithDeadline returns a bounded context.
func WithDeadline(ctx context.Context) (context.Context, context.CancelFunc) { // want WithDeadline:`returns\(ctx0:bounded\)`
	return context.WithTimeout(ctx, time.Second)
}

// Retry calls op in a loop: a retry layer.
func Retry(ctx context.Context, op func(context.Context) error) error { // want Retry:`^ctxIO\(0\) calls\(1,x3,arg0=p0\) retriesParam\(1: loop x3\)$`
	var err error
	for i := 0; i < 3; i++ {
		if err = op(ctx); err == nil {
			return nil
		}
	}
	return err
}

// Once calls op once.
func Once(op func() error) error { // want Once:`^calls\(0,x1\)$`
	return op()
}

// EnsureDeadline returns ctx when it has a deadline and a bounded context
// otherwise: its result is bounded whatever the caller passes.
func EnsureDeadline(ctx context.Context) (context.Context, context.CancelFunc) { // want EnsureDeadline:`returns\(ctx0:bounded\)`
	if _, ok := ctx.Deadline(); ok {
		return ctx, func() {}
	}
	return context.WithTimeout(ctx, 5*time.Second)
}

// LoadEnsured queries with an ensured deadline: no claim on its parameter.
func (c *Client) LoadEnsured(ctx context.Context, id string) error { // want LoadEnsured:`^ctxIO\(0\) outbound$`
	ctx, cancel := EnsureDeadline(ctx)
	defer cancel()
	return query(ctx, c.db, id)
}

// Ack sends the ack request only when sync is set, and then with a
// deadline ensured: the path where ctx is the caller's never sends it.
func (c *Client) Ack(ctx context.Context, sync bool) error { // want Ack:`^ctxIO\(0\) outbound$`
	if sync {
		var cancel context.CancelFunc
		ctx, cancel = EnsureDeadline(ctx)
		defer cancel()
	}
	if sync {
		return query(ctx, c.db, "ack")
	}
	return nil
}

// Charge posts without an idempotency key: not safe to hedge or retry.
func (c *Client) Charge(ctx context.Context, url string) error { // want Charge:`^ctxIO\(0\) effects\(http:POST request\) outbound$`
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, nil)
	if err != nil {
		return err
	}
	_, err = c.hc.Do(req)
	return err
}

// ChargeOnce posts with an idempotency key.
func (c *Client) ChargeOnce(ctx context.Context, url, key string) error { // want ChargeOnce:`^ctxIO\(0\) outbound$`
	req, err := http.NewRequestWithContext(ctx, "POST", url, nil)
	if err != nil {
		return err
	}
	req.Header.Set("Idempotency-Key", key)
	_, err = c.hc.Do(req)
	return err
}

// Hedged holds a client that hedges its requests (for hedgeidem).
type Hedged struct {
	hc *http.Client // want hc:"client:bounded"
}

func NewHedged() *Hedged {
	return &Hedged{hc: &http.Client{Timeout: time.Second, Transport: &hedge.Transport{}}}
}

// Sweep deletes expired rows on every tick: the reach repeats, so a
// start-up function calling it is not doing start-up work.
func Sweep(ctx context.Context, db *sql.DB) { // want Sweep:`^reaches\(ctx0->sql.DB.ExecContext repeats\) ctxIO\(0\) outbound$`
	for range time.Tick(time.Minute) {
		db.ExecContext(ctx, "DELETE FROM sessions WHERE expired")
	}
}

// SweepOnce deletes them once.
func SweepOnce(ctx context.Context, db *sql.DB) error { // want SweepOnce:`^reaches\(ctx0->sql.DB.ExecContext\) ctxIO\(0\) outbound$`
	_, err := db.ExecContext(ctx, "DELETE FROM sessions WHERE expired")
	return err
}

// SweepLater deletes them from a goroutine.
func SweepLater(ctx context.Context, db *sql.DB) { // want SweepLater:`^retainsCtx reaches\(ctx0->sql.DB.ExecContext repeats\) ctxIO\(0\) outbound$`
	go func() {
		db.ExecContext(ctx, "DELETE FROM sessions WHERE expired")
	}()
}
