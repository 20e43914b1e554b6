// Package handler is the top of a three-package chain of retry layers.
package handler

import (
	"context"
	"errors"
	"time"

	"retrystack/api"
)

type Handler struct{ api *api.API }

var errGaveUp = errors.New("gave up")

// Account tries three times, counting with a counter that exits.
func (h *Handler) Account(ctx context.Context, id string) (string, error) {
	for attempt := 1; ; attempt++ {
		name, err := h.api.GetAccount(ctx, id) // want `retry loop \(3 attempts\) wraps api.API.GetAccount, which retries 3× \(api.go:\d+\) around store.Store.LoadAccount, which retries 3× \(store.go:\d+\): up to 27 attempts per call; keep retries at one layer`
		if err == nil {
			return name, nil
		}
		if attempt >= 3 {
			return "", errGaveUp
		}
		select {
		case <-ctx.Done():
			return "", ctx.Err()
		case <-time.After(time.Second):
		}
	}
}
