// Package k8swrites writes to the Kubernetes API server through
// controller-runtime's client, whose REST client has no timeout by
// default: a write on a context without a deadline can wait forever.
package k8swrites

import (
	"context"
	"time"

	"sigs.k8s.io/controller-runtime/pkg/client"
)

type zone struct{ name string }

func (z *zone) GetName() string { return z.name }

type Reconciler struct{ c client.Client }

func (r *Reconciler) markStale(name string) {
	z := &zone{name: name}
	// ok: a manager's client serves reads from its informer cache.
	if err := r.c.Get(context.TODO(), name, z); err != nil {
		return
	}
	_ = r.c.Update(context.TODO(), z) // want `context.TODO\(\) reaches client.Writer.Update with no deadline`
}

// ok: bounded.
func (r *Reconciler) cleanup(name string) error {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	return r.c.Delete(ctx, &zone{name: name})
}

// ok: the caller's context decides.
func (r *Reconciler) Reconcile(ctx context.Context, name string) error {
	return r.c.Create(ctx, &zone{name: name})
}
