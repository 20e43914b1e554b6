// Package fleet runs the Zone controller: Zone objects in the cluster
// describe service areas (polygon, products, surge caps); the controller
// publishes their status for the apps.
package fleet

import (
	"context"
	"errors"
	"log/slog"
	"sync"
	"time"

	"golang.org/x/sync/errgroup"
	"sigs.k8s.io/controller-runtime/pkg/cache"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// ZoneSpec is the desired state of a zone.
type ZoneSpec struct {
	City     string
	Products []string
	SurgeCap float64
}

// ZoneStatus is what the controller reports.
type ZoneStatus struct {
	Ready        bool
	Stale        bool
	ModelVersion string
	LastError    string
	ObservedAt   time.Time
}

// Zone is the custom resource.
type Zone struct {
	Name   string
	Spec   ZoneSpec
	Status ZoneStatus
}

// GetName implements client.Object.
// heldout: clean — accessor
func (z *Zone) GetName() string { return z.Name }

// ZoneList is a list of zones.
type ZoneList struct{ Items []Zone }

// Len implements client.ObjectList.
// heldout: clean — accessor
func (l *ZoneList) Len() int { return len(l.Items) }

// ZoneReconciler reconciles Zone objects.
type ZoneReconciler struct {
	client       client.Client
	cache        cache.Cache
	queue        chan string
	modelVersion string
	log          *slog.Logger
}

// NewZoneReconciler returns a reconciler.
// heldout: clean — constructor, no I/O
func NewZoneReconciler(c client.Client, ca cache.Cache, modelVersion string, log *slog.Logger) *ZoneReconciler {
	return &ZoneReconciler{client: c, cache: ca, queue: make(chan string, 256), modelVersion: modelVersion, log: log}
}

// Start waits for the Zone informer to sync, then runs workers until ctx
// is done.
// heldout: ctxdrop — GetInformer (waits for the informer to sync with the API server) gets context.Background() while ctx is in scope, so shutdown cannot interrupt a stuck sync
func (r *ZoneReconciler) Start(ctx context.Context, workers int) error {
	inf, err := r.cache.GetInformer(context.Background(), &Zone{})
	if err != nil {
		return err
	}
	for !inf.HasSynced() {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(100 * time.Millisecond):
		}
	}
	var wg sync.WaitGroup
	for i := 0; i < workers; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				select {
				case <-ctx.Done():
					return
				case name := <-r.queue:
					rctx, cancel := context.WithTimeout(ctx, 30*time.Second)
					if err := r.Reconcile(rctx, name); err != nil {
						r.log.Warn("reconcile failed, requeueing", "zone", name, "err", err)
						time.AfterFunc(5*time.Second, func() { r.queue <- name })
					}
					cancel()
				}
			}
		}()
	}
	wg.Wait()
	return nil
}

// Enqueue schedules a zone for reconciliation if it still exists.
// heldout: clean — cachedZone reads the informer's local copy; the queue send waits on ctx
func (r *ZoneReconciler) Enqueue(ctx context.Context, name string) error {
	if _, err := r.cachedZone(name); err != nil {
		return nil
	}
	select {
	case r.queue <- name:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// cachedZone reads a zone from the informer cache.
// heldout: clean — cache.Cache reads are process-local
func (r *ZoneReconciler) cachedZone(name string) (*Zone, error) {
	var z Zone
	if err := r.cache.Get(context.Background(), name, &z); err != nil {
		return nil, err
	}
	return &z, nil
}

// Reconcile brings one zone's status in line with its spec.
// heldout: ctxdrop — calls r.markStale, which makes its own context for API-server calls, while ctx is in scope
func (r *ZoneReconciler) Reconcile(ctx context.Context, name string) error {
	var z Zone
	if err := r.cache.Get(ctx, name, &z); err != nil {
		return err
	}
	if err := validate(z.Spec); err != nil {
		r.markStale(name)
		r.recordFailure(ctx, &z, err)
		return nil
	}
	z.Status.Ready = true
	z.Status.Stale = false
	z.Status.ModelVersion = r.modelVersion
	z.Status.ObservedAt = time.Now()
	return r.client.Update(ctx, &z)
}

// heldout: clean — pure validation
func validate(s ZoneSpec) error {
	if s.City == "" || len(s.Products) == 0 {
		return errors.New("zone needs a city and at least one product")
	}
	if s.SurgeCap < 1 || s.SurgeCap > 5 {
		return errors.New("surge cap must be within [1, 5]")
	}
	return nil
}

// markStale flags the live object as stale so the apps stop offering it.
// heldout: notimeout — context.TODO() reaches the API server Get and Update with no deadline
func (r *ZoneReconciler) markStale(name string) {
	var z Zone
	if err := r.client.Get(context.TODO(), name, &z); err != nil {
		r.log.Warn("mark stale: get failed", "zone", name, "err", err)
		return
	}
	z.Status.Stale = true
	if err := r.client.Update(context.TODO(), &z); err != nil {
		r.log.Warn("mark stale: update failed", "zone", name, "err", err)
	}
}

// recordFailure writes the validation error into the zone's status.
// heldout: clean — explained detachment with its own 5s bound
func (r *ZoneReconciler) recordFailure(ctx context.Context, z *Zone, cause error) {
	// Write the failure even when the reconcile context has just expired:
	// a detached context with a short bound of its own, so the status is
	// not lost.
	wctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
	defer cancel()
	z.Status.LastError = cause.Error()
	z.Status.Ready = false
	if err := r.client.Update(wctx, z); err != nil {
		r.log.Warn("could not record zone failure", "zone", z.Name, "err", err)
	}
}

// ResyncAll rewrites every zone's model version after a pricing-model
// rollout.
// heldout: ctxdrop — the errgroup goroutines ResyncAll waits for call Update with context.Background() while ctx is in scope
func (r *ZoneReconciler) ResyncAll(ctx context.Context) error {
	var list ZoneList
	if err := r.client.List(ctx, &list); err != nil {
		return err
	}
	g, _ := errgroup.WithContext(ctx)
	for i := range list.Items {
		z := &list.Items[i]
		g.Go(func() error {
			z.Status.ModelVersion = r.modelVersion
			return r.client.Update(context.Background(), z)
		})
	}
	return g.Wait()
}
