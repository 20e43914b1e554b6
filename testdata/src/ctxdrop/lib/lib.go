package lib

import (
	"context"
	"database/sql"
	"net"
	"net/http"
	"os"
	"time"

	"ctxdrop/hooks"
)

var db *sql.DB

// Load makes its own context for a query.
func Load(id string) error { // want Load:`^dropsCtx\(context.Background\) outbound$`
	_, err := db.QueryContext(context.Background(), "SELECT ?", id)
	return err
}

// Wrapped reaches a root context through an unexported helper.
func Wrapped() error { // want Wrapped:`dropsCtx\(context.TODO via lib.inner\)`
	return inner()
}

func inner() error { // want inner:`^dropsCtx\(context.TODO\) outbound$`
	req, err := http.NewRequestWithContext(context.TODO(), "GET", "http://x", nil)
	if err != nil {
		return err
	}
	_, err = http.DefaultClient.Do(req)
	return err
}

type Store struct{}

// Fetch is a method that drops the context.
func (s *Store) Fetch() error { // want Fetch:`dropsCtx\(context.Background via lib.Load\)`
	return Load("x")
}

// Generic drops the context in a generic function.
func Generic[T any](v T) error { // want Generic:`dropsCtx\(context.Background via lib.Load\)`
	return Load("g")
}

// Box is a generic type whose method drops the context.
type Box[T any] struct{ v T }

func (b *Box[T]) Save() error { // want Save:`dropsCtx\(context.Background via lib.Load\)`
	return Load("b")
}

// Good takes a context: no drop.
func Good(ctx context.Context) error { // want Good:`^reaches\(ctx0->sql.DB.QueryContext\) ctxIO\(0\) outbound$`
	_, err := db.QueryContext(ctx, "SELECT 1")
	return err
}

// Background work with its own lifetime is not a drop.
func StartWorker() { // want StartWorker:`^outbound$`
	go Good(context.Background())
}

// Closures are not summarised into their enclosing function.
func Lazy() func() error {
	return func() error { return Good(context.Background()) }
}

// Recursion terminates.
func Ping(n int) error { // want Ping:`dropsCtx\(context.Background via lib.Load\)`
	if n > 0 {
		return Ping(n - 1)
	}
	return Load("p")
}

// Die closes with an already-cancelled context: not a drop.
func Die() { // want Die:`^outbound$`
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_ = Good(ctx)
}

// Callback hands a root context to a function value: unknown work, no claim.
func Callback(f func(context.Context)) { // want Callback:`^calls\(0,x1\)$`
	f(context.Background())
}

// Logs passes a root context to a logger only.
func Logs() {
	logger{}.Infof(context.Background(), "x")
}

type logger struct{}

func (logger) Infof(ctx context.Context, format string, args ...any) {} // want Infof:`ignoresCtx`

// Connect calls net.Dial, which has a context-taking twin: it runs with
// context.Background() inside, and its callers cannot hand theirs.
func Connect(addr string) (net.Conn, error) { // want Connect:`^dropsCtx\(context.Background in net.Dial\) outbound$`
	return net.Dial("tcp", addr)
}

// Health connects through Connect: the drop travels up.
func Health() error { // want Health:`^dropsCtx\(context.Background via lib.Connect in net.Dial\) outbound$`
	c, err := Connect("db:5432")
	if err == nil {
		c.Close()
	}
	return err
}

// Resolve calls net.LookupHost, whose resolver times out on its own: a
// caller's context would add cancellation, not a bound, so no claim.
func Resolve(host string) ([]string, error) { // want Resolve:`^outbound$`
	return net.LookupHost(host)
}

// Open makes its own context for work on local files and in-process
// channels only (recovering a journal): no dependency loses a bound, so
// no claim.
func Open(path string) error {
	return recoverJournal(context.Background(), path)
}

func recoverJournal(ctx context.Context, path string) error { // want recoverJournal:`^ctxIO\(0:local\)$`
	for _, step := range []string{path + "-wal", path + "-journal"} {
		if err := ctx.Err(); err != nil {
			return err
		}
		if err := os.Remove(step); err != nil {
			return err
		}
	}
	return nil
}

// Start makes its own context for a worker pool that waits on
// in-process channels: the wait can last forever, and a caller's context
// would end it. The claim stands.
func Start(jobs chan string) { // want Start:`^dropsCtx\(context.Background\)$`
	consume(context.Background(), jobs)
}

func consume(ctx context.Context, jobs chan string) { // want consume:`^ctxIO\(0\)$`
	for {
		select {
		case <-ctx.Done():
			return
		case j, ok := <-jobs:
			if !ok {
				return
			}
			_ = j
		}
	}
}

// Sync makes its own context for local work and a remote call: the
// claim stands.
func Sync(path string) error { // want Sync:`^dropsCtx\(context.Background\) outbound$`
	return syncRemote(context.Background(), path)
}

func syncRemote(ctx context.Context, path string) error { // want syncRemote:`^reaches\(ctx0->sql.DB.ExecContext\) ctxIO\(0\) outbound$`
	if err := recoverJournal(ctx, path); err != nil {
		return err
	}
	_, err := db.ExecContext(ctx, "UPDATE files SET synced = true WHERE path = ?", path)
	return err
}

// NewReq builds a request the caller may still give a context: no claim.
func NewReq(u string) (*http.Request, error) { // want NewReq:`^returns\(request0:unbounded\)$`
	return http.NewRequest("GET", u, nil)
}

type ctxKey struct{}

// RequestID reads a value from its context: its deadline and cancellation
// are not used, so it ignores the context.
func RequestID(ctx context.Context) string { // want RequestID:`^ignoresCtx$`
	id, _ := ctx.Value(ctxKey{}).(string)
	return id
}

// LogPrefix hands its context only to RequestID: it ignores it too.
func LogPrefix(ctx context.Context) string { // want LogPrefix:`^ignoresCtx$`
	return "[" + RequestID(ctx) + "]"
}

// Cache's one implementation here ignores the context it is given and
// uses one of its own.
type Cache interface {
	Load(ctx context.Context, id string) (string, error)
}

type cacheStore struct{ ctx context.Context } // want ctx:"ctx:unbounded"

func NewCacheStore() Cache { return &cacheStore{ctx: context.TODO()} }

func (s *cacheStore) Load(_ context.Context, id string) (string, error) { // want Load:`^ignoresCtx$`
	return id, s.ctx.Err()
}

// Fetcher's implementation here uses its context for a request.
type Fetcher interface {
	Fetch(ctx context.Context, url string) error // want Fetch:`^reaches\(ctx0->http.Client.Do\) ctxIO\(0\) outbound$`
}

type httpFetcher struct{}

func NewFetcher() Fetcher { return httpFetcher{} }

func (httpFetcher) Fetch(ctx context.Context, url string) error { // want Fetch:`^reaches\(ctx0->http.Client.Do\) ctxIO\(0\) outbound$`
	req, err := http.NewRequestWithContext(ctx, "GET", url, nil)
	if err != nil {
		return err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

// OnEvent is a hook the program sets: what it does is not known here.
var OnEvent func(ctx context.Context, name string)

// Emit makes its own context for a func value: only a statically known
// callee is evidence, so no claim (notimeout is silent too: no outbound
// call is in sight).
func Emit(name string) {
	OnEvent(context.Background(), name)
}

// Announce makes its own context for an interface declared elsewhere
// with no implementation in sight: its work is not known and may reach a
// dependency (a schema resolver fetching over HTTPS), so the claim
// stands.
func Announce(p hooks.Publisher) error { // want Announce:`^dropsCtx\(context.Background\)$`
	return p.Publish(context.Background(), "up")
}

// Waiter makes its own context for a wait on another goroutine that may
// last forever (as circuit-breaker libraries do around a callback): the
// wait is known, so the claim stands.
func Waiter(run func() error) error { // want Waiter:`^dropsCtx\(context.Background\) calls\(0,x1\)$`
	return waitFor(context.Background(), run)
}

func waitFor(ctx context.Context, run func() error) error { // want waitFor:`^ctxIO\(0\) calls\(1,x1\)$`
	done := make(chan error, 1)
	go func() { done <- run() }()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Probe bounds its own root where it makes it: the claim stands, marked
// bounded (ctxdrop reports it only on an HTTP request's path).
func Probe() error { // want Probe:`^dropsCtx\(context.Background, bounded\) outbound$`
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	return db.PingContext(ctx)
}
