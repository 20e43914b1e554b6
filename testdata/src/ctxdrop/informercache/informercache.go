// Package informercache reads controller-runtime's cache with root
// contexts: its Get and List read the informers' local copy, while the
// same methods on a client, and starting an informer, wait on the API
// server.
package informercache

import (
	"context"

	"sigs.k8s.io/controller-runtime/pkg/cache"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

type list struct{ items []string }

func (l *list) Len() int { return len(l.items) }

type watcher struct {
	cache  cache.Cache
	client client.Client
	obj    client.Object
}

func (w *watcher) Start(ctx context.Context) error {
	if _, err := w.cache.GetInformer(context.Background(), w.obj); err != nil { // want `context.Background\(\) passed to cache.Informers.GetInformer while ctx is available`
		return err
	}
	var l list
	if err := w.cache.List(context.Background(), &l); err != nil { // ok: the informer's local copy
		return err
	}
	return w.client.List(context.Background(), &l) // want `context.Background\(\) passed to client.Reader.List while ctx is available`
}
