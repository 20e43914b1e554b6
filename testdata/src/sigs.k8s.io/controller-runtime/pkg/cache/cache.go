// Package cache is a stub of controller-runtime's cache: Get and List
// read the informers' local copy; GetInformer starts an informer and
// waits for it to sync with the API server.
package cache

import (
	"context"

	"sigs.k8s.io/controller-runtime/pkg/client"
)

type Informer interface{ HasSynced() bool }

type Informers interface {
	GetInformer(ctx context.Context, obj client.Object) (Informer, error)
}

type Cache interface {
	client.Reader
	Informers
}
