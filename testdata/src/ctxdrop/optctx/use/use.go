// Package use calls lib's functions that hand their variants a nil
// context: checking in memory drops nothing, fetching drops the caller's
// context.
package use

import (
	"context"

	"ctxdrop/optctx/lib"
)

type order struct{ id string }

func (o order) Validate(any) error { return nil }

func check(ctx context.Context, o order) error {
	return lib.Check(o, o)
}

func fetch(ctx context.Context) error {
	resp, err := lib.Fetch("http://inventory/items") // want `lib.Fetch ignores the caller's context while ctx is available`
	if err != nil {
		return err
	}
	return resp.Body.Close()
}
