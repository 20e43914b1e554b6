package lifecycle

import (
	"context"
	"database/sql"
	"time"
)

var partnersDB *sql.DB

func lookupPartner(id string) error {
	_, err := partnersDB.QueryContext(context.Background(), "select 1 from partners where id = $1", id)
	return err
}

// The work after a select whose Done case returns runs while the context
// is live: the helper's own context drops it.
func redeliver(ctx context.Context, every time.Duration) {
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		lookupPartner("p") // want `call to lifecycle.lookupPartner drops the caller's context`
	}
}

// ok: the select lets the Done case through; what follows is cleanup
// after the context is done.
func drainOnStop(ctx context.Context, stop <-chan struct{}) {
	select {
	case <-ctx.Done():
	case <-stop:
	}
	lookupPartner("final")
}

// ok: a plain break leaves only the select, so what follows runs after
// the context is done too: cleanup.
func drainOnBreak(ctx context.Context, stop <-chan struct{}) {
	select {
	case <-ctx.Done():
		break
	case <-stop:
	}
	lookupPartner("final")
}
