// Package relay has no expression of a context, client or request type:
// it only calls a helper of another package that drops its callers'
// context, and the claim travels through it.
package relay

import "ctxdrop/lib"

func Relay(id string) error { return lib.Load(id) } // want Relay:`^dropsCtx\(context.Background via lib.Load\)$`
