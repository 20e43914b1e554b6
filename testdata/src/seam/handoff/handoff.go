// Package handoff holds the cases ctxdrop and notimeout divide between
// them. Each root context says who reports it: "seam: ctxdrop" (a context
// is in scope and the fix is to pass it), "seam: notimeout" (ctxdrop
// declines by design, and nothing bounds the call), "seam: silent" (both
// stay silent on purpose, and why).
package handoff

import (
	"context"
	"database/sql"
	"time"
)

var db *sql.DB

func inScope(ctx context.Context) error {
	_, err := db.QueryContext(context.Background(), "select 1") // seam: ctxdrop
	return err
}

func unnamed(_ context.Context) error {
	_, err := db.QueryContext(context.Background(), "select 1") // seam: notimeout (the unnamed parameter is ignored on purpose)
	return err
}

func watcher(ctx context.Context) {
	go func() {
		<-ctx.Done()
		_, _ = db.QueryContext(context.Background(), "delete from sessions") // seam: notimeout (the goroutine only watches ctx)
	}()
}

func explained(ctx context.Context) error {
	// The audit record must be written even when the request is cancelled, because the ledger is the source of truth.
	_, err := db.ExecContext(context.Background(), "insert into audit values (1)") // seam: notimeout (the comment explains the detachment)
	return err
}

func afterDone(ctx context.Context) error {
	for i := 0; i < 3; i++ {
		if ctx.Err() != nil {
			ctx = context.Background() // seam: notimeout (ctxdrop counts it as cleanup; the retries have no deadline)
		}
		if _, err := db.QueryContext(ctx, "select 1"); err == nil {
			return nil
		}
	}
	return nil
}

func boundedDetached(ctx context.Context) error {
	c, cancel := context.WithTimeout(context.Background(), time.Second) // seam: ctxdrop (detached from the request, though bounded)
	defer cancel()
	_, err := db.QueryContext(c, "select 1")
	return err
}

func noCtx() error {
	ctx, cancel := context.WithTimeout(context.Background(), time.Second) // seam: silent (no context in scope, and bounded)
	defer cancel()
	_, err := db.QueryContext(ctx, "select 1")
	return err
}

func deferredCleanup(ctx context.Context) {
	defer func() {
		_, _ = db.ExecContext(context.WithoutCancel(ctx), "unlock") // seam: silent (cleanup deferred on a detached context, exempt for both)
	}()
}
