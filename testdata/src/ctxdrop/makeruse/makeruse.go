// Package makeruse calls helpers of another package that return a fresh
// root context: at the call, it is a root context like
// context.Background() itself.
package makeruse

import (
	"context"
	"database/sql"
	"net/http"
	"time"

	"engine/makers"
)

var db *sql.DB

// A handler swapping the request's context for a helper's: the request's
// deadline and cancellation are lost, bounded or not.
func handle(w http.ResponseWriter, r *http.Request) {
	ctx, cancel := makers.Detached(3 * time.Second) // want `makers.Detached makes a fresh context from context.Background\(\), used for sql.DB.QueryContext while r.Context\(\) is available`
	defer cancel()
	db.QueryContext(ctx, "select 1")
}

func lookup(ctx context.Context) {
	db.QueryContext(makers.Longer(), "select 1") // want `makers.Longer makes a fresh context from context.TODO\(\), used for sql.DB.QueryContext while ctx is available`
}

// ok: bounded where made, and the context in scope is no request's (a
// background loop's): a deliberate detachment with its own bound.
func poll(ctx context.Context) {
	for range 3 {
		c, cancel := makers.Detached(time.Second)
		db.QueryContext(c, "select 1")
		cancel()
	}
}

// ok: the helper derives from the caller's context.
func derived(w http.ResponseWriter, r *http.Request) {
	ctx, cancel := makers.WithDefault(r.Context(), time.Second)
	defer cancel()
	db.QueryContext(ctx, "select 1")
}

// ok: the helper falls back to a root only without a context.
func fallback(ctx context.Context) {
	db.QueryContext(makers.OrDefault(ctx), "select 1")
}

// ok: no context in scope.
func startup() {
	ctx, cancel := makers.Detached(time.Minute)
	defer cancel()
	db.QueryContext(ctx, "select 1")
}
