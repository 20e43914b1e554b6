package closures

import (
	"context"
	"net/http"
	"sync"
)

// work calls a backend with the context it is given.
func work(ctx context.Context) error {
	req, err := http.NewRequestWithContext(ctx, "GET", "http://backend/", nil)
	if err != nil {
		return err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

func captures(ctx context.Context) {
	f := func() error {
		_ = ctx
		return work(context.Background()) // want `context.Background\(\) passed to closures.work while ctx is available`
	}
	_ = f()
}

// ok: a goroutine the handler does not wait for outlives the request,
// whose context would be cancelled under it: a fresh context there is
// deliberate, as in go work(context.Background()). What it lacks is a
// deadline, which notimeout reports (seam/handoff).
func capturesRequest(w http.ResponseWriter, r *http.Request) {
	go func() {
		_ = r.URL
		work(context.TODO())
	}()
}

func capturesLocal(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	send := func(n int) {
		_ = ctx
		work(context.Background())
	}
	for i := range 3 {
		go send(i)
	}
}

// A goroutine the handler waits for does the request's work.
func capturesLocalJoined(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		_ = ctx
		work(context.Background()) // want `passed to closures.work while ctx is available`
	}()
	wg.Wait()
}

// A closure the handler calls itself, not as a goroutine.
func capturesLocalCalled(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	send := func() {
		_ = ctx
		work(context.Background()) // want `passed to closures.work while ctx is available`
	}
	send()
	go func() { _ = ctx }()
}

func ownParam(ctx context.Context) {
	f := func(inner context.Context) {
		work(context.Background()) // want `while inner is available`
	}
	f(ctx)
}

// ok: the closure captures no context: a one-time initialisation shared by
// all requests must not use the first request's context.
var once sync.Once

func initOnce(ctx context.Context) {
	once.Do(func() {
		work(context.Background())
	})
}

// ok: a closure in main captures main's own root context.
func main() {
	ctx := context.Background()
	func() {
		_ = ctx
		work(context.TODO())
	}()
}

// ok: a root context made outside and only used in a closure of a function
// without context.
func outer() {
	bg := context.Background()
	go func() { work(bg) }()
}

// A root context captured by a goroutine closure the function waits for is
// reported where it is made.
func capturedRoot(ctx context.Context) {
	var wg sync.WaitGroup
	bg := context.Background() // want `context.Background\(\) passed to closures.work while ctx is available`
	wg.Add(1)
	go func() { defer wg.Done(); work(bg) }()
	wg.Wait()
}

// ok: the goroutine is left running.
func capturedRootDetached(ctx context.Context) {
	bg := context.Background()
	go func() { work(bg) }()
}

type Repo[T any] struct{}

func (r *Repo[T]) Get(ctx context.Context, id T) error {
	return work(context.Background()) // want `context.Background\(\) passed to closures.work while ctx is available`
}

func Generic[T any](ctx context.Context, v T) error {
	return work(context.TODO()) // want `context.TODO\(\) passed to closures.work while ctx is available`
}

func (r *Repo[T]) Fetch(id T) error { return work(context.Background()) }

func (r *Repo[T]) Find(id T) error { return r.FindContext(context.Background(), id) }
func (r *Repo[T]) FindContext(ctx context.Context, id T) error {
	<-ctx.Done()
	return ctx.Err()
}

func useRepo(ctx context.Context, r *Repo[string]) {
	r.Find("x")  // want `closures.Repo.Find ignores the caller's context.*use FindContext with ctx`
	r.Fetch("y") // want `call to closures.Repo.Fetch drops the caller's context`
}

func flush() error { return work(context.Background()) }

// ok: the goroutine watches ctx only to know when to stop; its periodic
// work runs on its own schedule.
func ticker(ctx context.Context, tick chan struct{}) {
	go func() {
		for {
			select {
			case <-ctx.Done():
				flush()
				return
			case <-tick:
				flush()
			}
		}
	}()
}
