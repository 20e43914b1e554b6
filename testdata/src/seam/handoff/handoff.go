// Package handoff holds the cases ctxdrop and notimeout divide between
// them. Each root context says who reports it: "seam: ctxdrop" (a context
// is in scope and the fix is to pass it), "seam: notimeout" (ctxdrop
// declines by design, and nothing bounds the call), "seam: silent" (both
// stay silent on purpose, and why).
package handoff

import (
	"context"
	"database/sql"
	"net"
	"net/http"
	"os"
	"os/exec"
	"sync"
	"time"

	"github.com/miekg/dns"
	"sigs.k8s.io/controller-runtime/pkg/cache"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

var db *sql.DB

func inScope(ctx context.Context) error {
	_, err := db.QueryContext(context.Background(), "select 1") // seam: ctxdrop
	return err
}

func unnamed(_ context.Context) error {
	_, err := db.QueryContext(context.Background(), "select 1") // seam: notimeout (the unnamed parameter is ignored on purpose)
	return err
}

func watcher(ctx context.Context) {
	go func() {
		<-ctx.Done()
		_, _ = db.QueryContext(context.Background(), "delete from sessions") // seam: notimeout (the goroutine only watches ctx)
	}()
}

func explained(ctx context.Context) error {
	// The audit record must be written even when the request is cancelled, because the ledger is the source of truth.
	_, err := db.ExecContext(context.Background(), "insert into audit values (1)") // seam: notimeout (the comment explains the detachment)
	return err
}

func afterDone(ctx context.Context) error {
	for i := 0; i < 3; i++ {
		if ctx.Err() != nil {
			ctx = context.Background() // seam: notimeout (ctxdrop counts it as cleanup; the retries have no deadline)
		}
		if _, err := db.QueryContext(ctx, "select 1"); err == nil {
			return nil
		}
	}
	return nil
}

func boundedDetached(w http.ResponseWriter, r *http.Request) error {
	c, cancel := context.WithTimeout(context.Background(), time.Second) // seam: ctxdrop (detached from the request, though bounded)
	defer cancel()
	_, err := db.QueryContext(c, "select 1")
	return err
}

func boundedNotRequest(ctx context.Context) error {
	c, cancel := context.WithTimeout(context.Background(), time.Second) // seam: silent (bounded where made, and the context in scope is not a request's)
	defer cancel()
	_, err := db.QueryContext(c, "select 1")
	return err
}

func noCtx() error {
	ctx, cancel := context.WithTimeout(context.Background(), time.Second) // seam: silent (no context in scope, and bounded)
	defer cancel()
	_, err := db.QueryContext(ctx, "select 1")
	return err
}

func deferredCleanup(ctx context.Context) {
	defer func() {
		_, _ = db.ExecContext(context.WithoutCancel(ctx), "unlock") // seam: silent (cleanup deferred on a detached context, exempt for both)
	}()
}

// NewStore checks the schema version once at start-up.
func NewStore() error {
	_, err := db.QueryContext(context.Background(), "select version from schema_info") // seam: silent (start-up work, once, with no caller's deadline to carry)
	return err
}

// NewStoreFrom has a context and drops it, start-up or not.
func NewStoreFrom(ctx context.Context) error {
	_, err := db.QueryContext(context.Background(), "select version from schema_info") // seam: ctxdrop
	return err
}

// NewSweeper sweeps on every tick from start-up on: not start-up work.
func NewSweeper() {
	ctx := context.Background() // seam: notimeout (a loop started at start-up outlives it)
	go func() {
		for range time.Tick(time.Minute) {
			_, _ = db.ExecContext(ctx, "delete from sessions where expired")
		}
	}()
}

// openJournal makes its own context for local work only.
func openJournal(path string) error {
	return replay(context.Background(), path) // seam: silent (the root reaches only local file work)
}

func replay(ctx context.Context, path string) error {
	for _, seg := range []string{path + ".1", path + ".2"} {
		if err := ctx.Err(); err != nil {
			return err
		}
		if err := os.Remove(seg); err != nil {
			return err
		}
	}
	return nil
}

// handle has a context and calls the helper: the helper drops no bound on
// a dependency, so neither reports the call.
func handle(ctx context.Context) error {
	return openJournal("/var/lib/app/journal") // seam: silent (openJournal's root reaches only local work)
}

// fireAndForget leaves a goroutine running: the caller's context would be
// cancelled under it, so ctxdrop accepts the fresh one; it has no deadline.
func fireAndForget(ctx context.Context) {
	bg := context.Background() // seam: notimeout (a goroutine left running: no deadline, and no drop)
	go func() {
		_, _ = db.ExecContext(bg, "insert into audit values (1)")
	}()
}

// notifyAll makes the context inside goroutines it leaves running: the
// same as handing them a fresh one, so ctxdrop accepts it; it has no
// deadline.
func notifyAll(w http.ResponseWriter, r *http.Request, urls []string) {
	send := func(u string) {
		req, err := http.NewRequestWithContext(context.Background(), http.MethodPost, u, nil)
		if err != nil {
			return
		}
		resp, err := http.DefaultClient.Do(req) // seam: notimeout (the context is made in a goroutine left running, which drops nothing; neither it nor the client has a deadline)
		if err == nil {
			resp.Body.Close()
		}
	}
	for _, u := range urls {
		go send(u)
	}
}

// fanOut waits for its goroutines: their work is the caller's.
func fanOut(ctx context.Context) {
	var wg sync.WaitGroup
	bg := context.Background() // seam: ctxdrop
	wg.Add(1)
	go func() {
		defer wg.Done()
		_, _ = db.ExecContext(bg, "update stats set n = n + 1")
	}()
	wg.Wait()
}

// worker keeps its context for the life of the loop it starts.
type worker struct{ ctx context.Context }

func startWorker(ctx context.Context) *worker {
	w := &worker{ctx: ctx}
	go w.loop()
	return w
}

func (w *worker) loop() {
	for range time.Tick(time.Minute) {
		_, _ = db.ExecContext(w.ctx, "delete from sessions")
	}
}

func startsWorker(w http.ResponseWriter, r *http.Request) {
	startWorker(context.Background()) // seam: silent (the worker outlives the request, so a root is the right context; its loop's statements are reached through a field, which notimeout does not follow)
}

func (w *worker) restart(ctx context.Context) {
	w.ctx = context.Background() // seam: silent (kept in the receiver for the worker's life, where the context in scope would be cancelled under it; notimeout does not follow the field to the loop's statements)
}

func dialBounded(ctx context.Context) {
	c, err := net.DialTimeout("tcp", "peer:1", time.Second) // seam: silent (its author chose a bound and ctx is not a request's: only cancellation is lost)
	if err == nil {
		c.Close()
	}
}

func dialBoundedForRequest(w http.ResponseWriter, r *http.Request) {
	c, err := net.DialTimeout("tcp", "peer:1", time.Second) // seam: ctxdrop (a request's cancellation is lost)
	if err == nil {
		c.Close()
	}
}

// probe bounds the root it makes itself.
func probe() error {
	c, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	_, err := db.QueryContext(c, "select 1")
	return err
}

func probesInLoop(ctx context.Context) error {
	return probe() // seam: silent (the helper bounds its own root and ctx is not a request's: only cancellation is lost)
}

func probesForRequest(w http.ResponseWriter, r *http.Request) error {
	return probe() // seam: ctxdrop (a request's deadline does not reach the helper's query)
}

func exchangeWithDeadline(ctx context.Context, m *dns.Msg, server string) error {
	client := &dns.Client{}
	deadline, _ := ctx.Deadline()
	client.Timeout = time.Until(deadline)
	_, _, err := client.Exchange(m, server) // seam: silent (the client carries the caller's deadline, and the library bounds it)
	return err
}

// shadowCopy copies an incoming request for a shadow backend.
func shadowCopy(r *http.Request) (*http.Request, error) {
	return http.NewRequest(r.Method, "http://shadow"+r.URL.Path, nil) // seam: silent (a copy returned unsent: its caller chooses its context)
}

func mirror(r *http.Request) {
	clone, err := shadowCopy(r)
	if err != nil {
		return
	}
	go http.DefaultClient.Do(clone) // seam: notimeout (detached on purpose, and nothing bounds the send)
}

type lister struct {
	cache  cache.Cache
	client client.Client
}

type names struct{ items []string }

func (n *names) Len() int { return len(n.items) }

func (l *lister) sync(ctx context.Context) error {
	var n names
	if err := l.cache.List(context.Background(), &n); err != nil { // seam: silent (the informer cache's local copy)
		return err
	}
	return l.client.List(context.Background(), &n) // seam: ctxdrop
}

// freshCtx makes a context for its callers.
func freshCtx() context.Context { return context.TODO() }

func usesFresh(ctx context.Context) error {
	_, err := db.QueryContext(freshCtx(), "select 1") // seam: ctxdrop (the helper's fresh root replaces ctx; its fix, ctx, has the caller's deadline)
	return err
}

func usesFreshNoCtx() error {
	_, err := db.QueryContext(freshCtx(), "select 1") // seam: notimeout (no context in scope, and the helper's has no deadline)
	return err
}

// acceptConns makes each connection's context from context.Background()
// and hands it to serveConn, which nothing else calls.
func acceptConns(l net.Listener) {
	for {
		c, err := l.Accept()
		if err != nil {
			return
		}
		go serveConn(context.Background(), c) // seam: notimeout (no context in scope; the root reaches serveConn's query with no deadline)
	}
}

func serveConn(ctx context.Context, c net.Conn) {
	defer c.Close()
	_, _ = db.QueryContext(ctx, "select 1")
	_, _ = db.QueryContext(context.Background(), "select 1") // seam: notimeout (serveConn's context is a root at every call: no caller's to pass, and nothing bounds the query)
}

// tunnel hijacks the connection, then dials: the request's context no
// longer ends with the client's connection.
func tunnel(w http.ResponseWriter, r *http.Request) {
	hj, ok := w.(http.Hijacker)
	if !ok {
		return
	}
	c, _, err := hj.Hijack()
	if err != nil {
		return
	}
	defer c.Close()
	up, err := net.Dial("tcp", r.URL.Host) // seam: notimeout (after Hijack the request's context no longer ends with the client's connection; the dial has no timeout)
	if err == nil {
		up.Close()
	}
}

// A process started to outlive the call: exec.CommandContext would kill
// it when ctx ends, and a process is no outbound call for notimeout.
func keepBrowserOpen(ctx context.Context) error {
	cmd := exec.Command("chromium", "--headless") // seam: silent (a process started and not waited for outlives the call)
	if err := cmd.Start(); err != nil {
		return err
	}
	go cmd.Wait()
	<-ctx.Done()
	return nil
}
