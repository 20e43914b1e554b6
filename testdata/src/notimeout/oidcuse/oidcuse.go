// Package oidcuse builds a key set with a long-lived context, as go-oidc
// asks: the key set keeps it for later fetches, and a deadline would break
// them. Not reported.
package oidcuse

import (
	"context"

	"github.com/coreos/go-oidc/v3/oidc"
)

func Keys(url string) *oidc.RemoteKeySet {
	return oidc.NewRemoteKeySet(context.Background(), url) // ok: a context-retaining constructor
}
