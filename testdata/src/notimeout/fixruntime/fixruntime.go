// Package fixruntime already uses the runtime: the fix bounds contexts
// with deadline.Ensure.
package fixruntime

import (
	"context"
	"database/sql"
	"net/http"
	"time"

	"github.com/resilvet/resilvet/runtime/deadline"
)

var db *sql.DB

func bounded(ctx context.Context, q string) {
	ctx, cancel := deadline.Ensure(ctx, time.Second)
	defer cancel()
	db.QueryContext(ctx, q)
}

func refresh(q string) {
	ctx := context.Background() // want `context.Background\(\) reaches sql.DB.QueryContext with no deadline`
	db.QueryContext(ctx, q)
}

// serve also shuts the server down with ctx: the query gets a context of
// its own.
func serve(srv *http.Server, q string) error {
	ctx := context.Background() // want `context.Background\(\) reaches sql.DB.QueryContext with no deadline`
	db.QueryContext(ctx, q)
	go srv.ListenAndServe()
	return srv.Shutdown(ctx)
}
