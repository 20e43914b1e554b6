// Package lib has effects that callers in other packages retry.
package lib

import (
	"context"
	"database/sql"
	"net/http"
	"strings"
)

type Payments struct {
	c   *http.Client
	url string
}

// Charge posts a charge with no idempotency key.
func (p *Payments) Charge(ctx context.Context, amount int) error { // want Charge:`effects\(http:POST request\)`
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, p.url+"/charges", strings.NewReader("{}"))
	if err != nil {
		return err
	}
	resp, err := p.c.Do(req)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

// ChargeKeyed posts a charge with the caller's key.
func (p *Payments) ChargeKeyed(ctx context.Context, key string) error { // want ChargeKeyed:`^ctxIO\(0\) outbound$`
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, p.url+"/charges", strings.NewReader("{}"))
	if err != nil {
		return err
	}
	req.Header.Set("Idempotency-Key", key)
	_, err = p.c.Do(req)
	return err
}

// Send sends the caller's request: the caller's request decides.
func (p *Payments) Send(req *http.Request) error { // want Send:`effects\(sends\(0\)\)`
	_, err := p.c.Do(req)
	return err
}

// NewCharge builds a POST request.
func NewCharge(ctx context.Context, url string) (*http.Request, error) { // want NewCharge:`^returns\(request0:param0\)$`
	return http.NewRequestWithContext(ctx, http.MethodPost, url, nil)
}

// Record inserts a row.
func Record(ctx context.Context, db *sql.DB, id string) error { // want Record:`effects\(sql:INSERT INTO audit\)`
	_, err := db.ExecContext(ctx, "INSERT INTO audit (id) VALUES ($1)", id)
	return err
}
