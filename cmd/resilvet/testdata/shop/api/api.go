// Package api is a fixture: a handler with one finding of each rule.
package api

import (
	"context"
	"net/http"

	"example.com/shop/store"
)

func Orders(w http.ResponseWriter, r *http.Request) {
	rows, err := store.DB.Query("SELECT id FROM orders")
	if err == nil {
		rows.Close()
	}
	store.Count()
	work(context.Background())
}

func work(ctx context.Context) { _ = ctx.Err() }
