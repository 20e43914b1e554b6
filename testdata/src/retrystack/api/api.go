// Package api retries the store around its own work.
package api

import (
	"context"
	"time"

	"retrystack/store"
)

type API struct{ st *store.Store }

const maxAttempts = 3

// GetAccount retries store.LoadAccount, which retries itself.
func (a *API) GetAccount(ctx context.Context, id string) (string, error) {
	var err error
	for attempt := range maxAttempts {
		var name string
		name, err = a.st.LoadAccount(ctx, id) // want `retry loop \(3 attempts\) wraps store.Store.LoadAccount, which retries 3× \(store.go:\d+\): up to 9 attempts per call; keep retries at one layer`
		if err == nil {
			return name, nil
		}
		wait(ctx, attempt)
	}
	return "", err
}

func wait(ctx context.Context, attempt int) {
	t := time.NewTimer(time.Duration(attempt) * 10 * time.Millisecond)
	defer t.Stop()
	select {
	case <-ctx.Done():
	case <-t.C:
	}
}

// Lookup makes one call, with no retry of its own.
func (a *API) Lookup(ctx context.Context) (string, error) {
	return a.st.Peek(ctx)
}
