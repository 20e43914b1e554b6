// Package fetcher retries with a backoff object its callers give it.
package fetcher

import (
	"context"
	"net/http"
	"time"

	"github.com/cenkalti/backoff/v4"
)

type Fetcher struct {
	hc  *http.Client
	url string
	// b paces the fetcher's own retries and its callers' (Poll).
	b backoff.BackOff
}

func (f *Fetcher) get(ctx context.Context) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, f.url, nil)
	if err != nil {
		return err
	}
	resp, err := f.hc.Do(req)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

// Fetch retries until b says stop: its budget is b's.
func (f *Fetcher) Fetch(ctx context.Context, b backoff.BackOff) error {
	for {
		err := f.get(ctx)
		if err == nil {
			return nil
		}
		d := b.NextBackOff()
		if d == backoff.Stop {
			return err
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(d):
		}
	}
}

// FetchWith hands b to backoff.Retry, wrapped in a count.
func (f *Fetcher) FetchWith(ctx context.Context, b backoff.BackOff) error {
	return backoff.Retry(func() error { return f.get(ctx) }, backoff.WithMaxRetries(b, 4))
}

// Own retries with the fetcher's field.
func (f *Fetcher) Own(ctx context.Context) error {
	for {
		err := f.get(ctx)
		if err == nil {
			return nil
		}
		d := f.b.NextBackOff()
		if d == backoff.Stop {
			return err
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(d):
		}
	}
}

// Poll's loop draws on f.b, the object Own draws on: one budget.
func (f *Fetcher) Poll(ctx context.Context) error {
	for {
		err := f.Own(ctx)
		if err == nil {
			return nil
		}
		d := f.b.NextBackOff()
		if d == backoff.Stop {
			return err
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(d):
		}
	}
}
