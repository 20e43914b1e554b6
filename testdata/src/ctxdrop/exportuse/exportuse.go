// Package exportuse hands root contexts to an export system: one whose
// every driver ignores the context, and one that uses it.
package exportuse

import (
	"context"

	"ctxdrop/exportsys"
)

func Audit(ctx context.Context) error {
	if err := exportsys.Publish(context.Background(), "dapr", "audit", nil); err != nil { // ok: every driver ignores the context
		return err
	}
	return exportsys.Fetch(context.Background(), "http://x") // want `context.Background\(\) passed to exportsys.Fetch while ctx is available`
}
