// Package app retries effects of another package.
package app

import (
	"context"
	"database/sql"
	"net/http"
	"time"

	"hedgeidem/effects/lib"
)

func Pay(ctx context.Context, p *lib.Payments) error {
	var err error
	for i := 0; i < 3; i++ {
		if err = p.Charge(ctx, 100); err == nil { // want `retry loop \(3 attempts\) retries lib.Payments.Charge, which sends a POST request without an Idempotency-Key header set before the send \(lib.go:22\)`
			return nil
		}
		time.Sleep(time.Second)
	}
	return err
}

func PayKeyed(ctx context.Context, p *lib.Payments, key string) error {
	var err error
	for i := 0; i < 3; i++ {
		if err = p.ChargeKeyed(ctx, key); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return err
}

func SendPost(ctx context.Context, p *lib.Payments, url string) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, nil)
	if err != nil {
		return err
	}
	for i := 0; i < 3; i++ {
		if err = p.Send(req); err == nil { // want `retry loop \(3 attempts\) retries lib.Payments.Send, which sends a POST request without an Idempotency-Key header set before the send \(lib.go:42\)`
			return nil
		}
		time.Sleep(time.Second)
	}
	return err
}

func SendKeyed(ctx context.Context, p *lib.Payments, url string) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, nil)
	if err != nil {
		return err
	}
	req.Header.Set("Idempotency-Key", "k-1")
	for i := 0; i < 3; i++ {
		if err = p.Send(req); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return err
}

func SendHelperBuilt(ctx context.Context, p *lib.Payments, url string) error {
	req, err := lib.NewCharge(ctx, url)
	if err != nil {
		return err
	}
	for i := 0; i < 3; i++ {
		if err = p.Send(req); err == nil { // a request another package built: its method is not followed
			return nil
		}
		time.Sleep(time.Second)
	}
	return err
}

func Audit(ctx context.Context, db *sql.DB, id string) error {
	var err error
	for i := 0; i < 3; i++ {
		if err = lib.Record(ctx, db, id); err == nil { // want `retry loop \(3 attempts\) retries lib.Record, which runs an INSERT without an upsert clause \(INSERT INTO audit\) \(lib.go:53\)`
			return nil
		}
		time.Sleep(time.Second)
	}
	return err
}
