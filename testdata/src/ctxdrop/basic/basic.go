package basic

import (
	"context"
	"database/sql"
	"log/slog"
	"net/http"
	"sync"
	"time"

	"github.com/gin-gonic/gin"
	"golang.org/x/oauth2"
)

type job struct {
	ctx context.Context
}

func work(ctx context.Context) error { return ctx.Err() }

func handler(w http.ResponseWriter, r *http.Request) {
	work(context.Background()) // want `context.Background\(\) passed to basic.work while r.Context\(\) is available`
}

func direct(ctx context.Context, db *sql.DB) {
	db.QueryContext(context.TODO(), "SELECT 1") // want `context.TODO\(\) passed to sql.DB.QueryContext while ctx is available`
}

// A root bounded where it is made, in a handler: the request's deadline
// is lost (a caller with 200 ms left waits a second).
func derived(w http.ResponseWriter, r *http.Request) {
	tctx, cancel := context.WithTimeout(context.Background(), time.Second) // want `context.Background\(\) passed to basic.work while r.Context\(\) is available`
	defer cancel()
	work(tctx)
}

// ok: bounded where it is made, and the context in scope is not a
// request's (start-up, a health probe, a background loop): a deliberate
// detachment with its own bound.
func derivedNotRequest(ctx context.Context) {
	tctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	work(tctx)
}

// A goroutine the function waits for does the caller's work: reported.
func goroutine(ctx context.Context) {
	var wg sync.WaitGroup
	wg.Add(1)
	go work(context.Background()) // want `context.Background\(\) passed to a goroutine while ctx is available`
	wg.Wait()
}

// ok: a goroutine left running outlives the function; the caller's
// context would be cancelled under it, and its missing deadline is
// notimeout's to report.
func fireAndForget(ctx context.Context) {
	go work(context.Background())
}

func stored(ctx context.Context) *job {
	return &job{ctx: context.Background()} // want `context.Background\(\) stored while ctx is available`
}

func storedField(ctx context.Context, j *job) {
	j.ctx = context.Background() // want `context.Background\(\) stored while ctx is available`
}

// ok: kept in the receiver for the life of the object; the context in
// scope would be cancelled under it.
func (j *job) reset(ctx context.Context) {
	j.ctx = context.Background()
}

var defaultJob job

// ok: the same in a package variable.
func resetDefault(ctx context.Context) {
	defaultJob.ctx = context.Background()
}

func variableLater(ctx context.Context) {
	bg := context.Background() // want `context.Background\(\) passed to basic.work while ctx is available`
	_ = ctx
	work(bg)
}

func grpcMethod(ctx context.Context, req *struct{}) (*struct{}, error) {
	return nil, work(context.Background()) // want `context.Background\(\) passed to basic.work while ctx is available`
}

// ok: no context in scope.
func noCtx() {
	work(context.Background())
}

func main() {
	work(context.Background())
}

func init() {
	work(context.TODO())
}

// ok: deliberate detachment keeps the request's values.
func detach(ctx context.Context) {
	go work(context.WithoutCancel(ctx))
}

// ok: nil fallback.
func fallback(ctx context.Context) {
	if ctx == nil {
		ctx = context.Background()
	}
	work(ctx)
}

// ok: slog's context carries values only.
func logs(ctx context.Context) {
	slog.InfoContext(context.Background(), "hi")
	slog.Default().InfoContext(context.Background(), "hi")
}

// ok: graceful shutdown after the context is done.
func shutdown(ctx context.Context, srv *http.Server) {
	<-ctx.Done()
	sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	work(sctx)
}

// ok: shutdown sink.
func shutdownSink(ctx context.Context, srv *http.Server) error {
	sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	return srv.Shutdown(sctx)
}

// ok: cleanup in a select case on Done.
func selectDone(ctx context.Context, errc chan error) {
	select {
	case <-ctx.Done():
		work(context.Background())
	case <-errc:
	}
}

// ok: after checking ctx.Err().
func errCheck(ctx context.Context) {
	if ctx.Err() != nil {
		work(context.Background())
	}
}

// ok: deferred cleanup.
func deferred(ctx context.Context) {
	defer func() {
		work(context.Background())
	}()
	defer work(context.Background())
}

// ok: the context is not passed anywhere.
func unused(ctx context.Context) context.Context {
	return context.Background()
}

// ok: a blank context parameter is ignored on purpose.
func blank(_ context.Context) {
	work(context.Background())
}

// ok: silenced with a reason.
func silenced(ctx context.Context) {
	work(context.Background()) //resilvet:ignore ctxdrop the audit log must be written even after the client goes away
}

//resilvet:ignore ctxdrop this whole function detaches on purpose
func silencedFunc(ctx context.Context) {
	work(context.Background())
}

func noReason(ctx context.Context) {
	//resilvet:ignore ctxdrop // want `resilvet:ignore directive has no reason`
	work(context.Background()) // want `context.Background\(\) passed to basic.work`
}

// ok: fmt-like any parameters are not context-taking work.
func anyParam(ctx context.Context) {
	println(context.Background() != nil)
	take(context.Background())
}

func take(v any) {}

// ok: a custom context that keeps the values of ctx and never expires is
// deliberate detachment (the standard library's net package does this).
type valuesOnly struct {
	context.Context
	values context.Context
}

func (v valuesOnly) Value(key any) any { return v.values.Value(key) }

func detachValues(ctx context.Context) context.Context {
	return &valuesOnly{Context: context.Background(), values: ctx}
}

// ok: the twin's own implementation calls the plain function.
func Fetch(id string) error { return nil }

func FetchContext(ctx context.Context, id string) error {
	return Fetch(id)
}

// A directive for another analyzer does not silence ctxdrop.
func otherAnalyzer(ctx context.Context) {
	work(context.Background()) //resilvet:ignore notimeout not this one // want `context.Background\(\) passed to basic.work`
}

type logger struct{}

func (logger) Printf(ctx context.Context, format string, args ...any) {}

func recordConnectionMetrics(ctx context.Context, n int) {}

// ok: loggers and metrics take a context for its values.
func logsAndMetrics(ctx context.Context, l logger) {
	l.Printf(context.Background(), "x")
	recordConnectionMetrics(context.TODO(), 1)
}

type waiter struct {
	ctx    context.Context
	cancel context.CancelFunc
}

// ok: the stored context's lifetime is managed by the cancel stored with it.
func managed(ctx context.Context) *waiter {
	wctx, cancel := context.WithCancel(context.Background())
	return &waiter{ctx: wctx, cancel: cancel}
}

// ok: an already-cancelled context means "do not wait at all".
func hardClose(ctx context.Context) {
	cctx, cancel := context.WithCancel(context.Background())
	cancel()
	work(cctx)
}

// A cancel deferred is not a pre-cancelled context.
func deferredCancel(ctx context.Context) {
	cctx, cancel := context.WithCancel(context.Background()) // want `context.Background\(\) passed to basic.work`
	defer cancel()
	work(cctx)
}

func track(ctx context.Context, id string) error { return nil }

func trackLogs(ctx context.Context, id string) error {
	logger{}.Printf(ctx, "tracking %s", id)
	return nil
}

// ok: the callees never use their context.
func ignoring(ctx context.Context) {
	track(context.Background(), "a")
	trackLogs(context.Background(), "b")
}

type checker struct{}

func (checker) Run(ctx context.Context) { <-ctx.Done() }

// The author explains the detachment: not reported.
func start(ctx context.Context, c checker) {
	// The checker is given a fresh background context because the Start
	// context is cancelled when Start returns.
	go c.Run(context.Background())
	c.Run(context.Background()) //nolint:contextcheck // runs after Start returns, see above
	// Mistake: a fresh context cuts the run loose from the caller.
	c.Run(context.Background()) // want `context.Background\(\) passed to basic.checker.Run`
	// A peer linter's mark silences with or without a reason: the
	// author's word that the detachment is deliberate.
	c.Run( //nolint:contextcheck
		context.Background(),
	)
	// Also on the line the root context flows to.
	bg := context.Background()
	c.Run(bg) //nolint:contextcheck
	// Our own name without a reason silences nothing.
	c.Run( //nolint:ctxdrop
		context.Background(), // want `context.Background\(\) passed to basic.checker.Run`
	)
	// When the context is canceled, the run should still wait for its
	// peers. Therefore, we use [context.Background] here.
	c.Run(context.Background())
	// We do not want to propagate the context: a cancelled request must
	// not stop the flush.
	c.Run(context.Background())
	// We should pass the context here.
	c.Run(context.Background()) // want `context.Background\(\) passed to basic.checker.Run`
}

type service struct{}

func (service) StopAndAwaitTerminated(ctx context.Context) error { <-ctx.Done(); return nil }
func (service) StartAsync(ctx context.Context) error             { return ctx.Err() }

// Cleanup after a failed start uses a fresh context on purpose.
func startService(ctx context.Context, s service) error {
	if err := s.StartAsync(ctx); err != nil {
		_ = s.StopAndAwaitTerminated(context.Background())
		return err
	}
	return nil
}

// A constructor that keeps its context for the client's lifetime must not
// get the request's.
func authClient(ctx context.Context, ts oauth2.TokenSource) *http.Client {
	return oauth2.NewClient(context.Background(), ts)
}

type flusher struct{}

func (flusher) write() error { return upload() }

var snapshots *sql.DB

func upload() error {
	_, err := snapshots.ExecContext(context.Background(), "insert into snapshots values (1)")
	return err
}

// The final flush after a loop that ends when the context is done runs on
// purpose without it.
func serveFlush(ctx context.Context, f flusher, tick <-chan struct{}) error {
loop:
	for {
		select {
		case <-tick:
			_ = f.write() // want `call to basic.flusher.write drops the caller's context`
		case <-ctx.Done():
			break loop
		}
	}
	return f.write() // ok: the context is done
}

func reportFinal(ctx context.Context, tick <-chan struct{}) error {
	var err error
	for err == nil {
		select {
		case <-tick:
		case <-ctx.Done():
			err = ctx.Err()
		}
	}
	_ = upload() // ok: the context is done
	return err
}

// A copy of the request made only to match a route does no outbound work
// with its context.
func matchSlash(mux *http.ServeMux, req *http.Request) bool {
	c := req.Clone(context.Background()) // ok: never sent
	c.URL.Path += "/"
	_, pattern := mux.Handler(c)
	return pattern != ""
}

// A copy that is sent drops the caller's context.
func forwardCopy(hc *http.Client, req *http.Request) {
	c := req.Clone(context.Background()) // want `context.Background\(\) passed to http.Request.Clone while req.Context\(\) is available`
	hc.Do(c)
}

// A framework's request context is a context.Context: it is in scope.
func ginHandler(c *gin.Context) {
	_, _ = snapshots.QueryContext(context.Background(), "select 1") // want `context.Background\(\) passed to sql.DB.QueryContext while c is available`
}

// A caller handing ginHandler a gin context is reported nowhere else: the
// root is ginHandler's finding, where its context is in scope.
func ginRoute(w http.ResponseWriter, r *http.Request) {
	ginHandler(&gin.Context{Request: r})
}

// So is a struct that embeds one.
type reqCtx struct {
	context.Context
	user string
}

func withReqCtx(rc reqCtx) {
	_, _ = snapshots.QueryContext(context.Background(), "select 1") // want `context.Background\(\) passed to sql.DB.QueryContext while rc is available`
}

// declare is shared by callers that wait for the first one's outcome.
type declarer struct {
	mu      sync.Mutex
	waiters map[int]chan struct{}
}

func (d *declarer) Declare(ctx context.Context, code int) {
	d.mu.Lock()
	done, found := d.waiters[code]
	if !found {
		done = make(chan struct{})
		d.waiters[code] = done
	}
	d.mu.Unlock()
	if found {
		select {
		case <-done:
		case <-ctx.Done():
		}
		return
	}

	// We are the first caller and declare while the others wait. Use a
	// background context so the declaration is not abandoned if this
	// caller disconnects: the waiters depend on it.
	finished := false
	defer func() {
		if !finished {
			close(done)
		}
	}()

	checker{}.Run(context.Background())
	finished = true
	close(done)
}

// The explanation covers the root it stands above, not every later one.
func (d *declarer) Redeclare(ctx context.Context) {
	// A background context so the declaration outlives this caller.
	checker{}.Run(context.Background())
	d.mu.Lock()
	d.mu.Unlock()
	checker{}.Run(context.Background()) // want `context.Background\(\) passed to basic.checker.Run while ctx is available`
}

// A comment that calls the fresh context wrong explains nothing.
func (d *declarer) Undeclare(ctx context.Context) {
	// This makes a new context because we lost ctx in the refactor; it
	// should use the caller's.
	d.mu.Lock()
	d.mu.Unlock()
	checker{}.Run(context.Background()) // want `context.Background\(\) passed to basic.checker.Run while ctx is available`
}
