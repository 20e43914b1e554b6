package lib

import (
	"context"
	"database/sql"
	"net"
	"net/http"
)

var db *sql.DB

// Load makes its own context for a query.
func Load(id string) error { // want Load:`^dropsCtx\(context.Background\)$`
	_, err := db.QueryContext(context.Background(), "SELECT ?", id)
	return err
}

// Wrapped reaches a root context through an unexported helper.
func Wrapped() error { // want Wrapped:`dropsCtx\(context.TODO via lib.inner\)`
	return inner()
}

func inner() error { // want inner:`^dropsCtx\(context.TODO\)$`
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
func Good(ctx context.Context) error { // want Good:`^reaches\(ctx0->sql.DB.QueryContext\) ctxIO\(0\)$`
	_, err := db.QueryContext(ctx, "SELECT 1")
	return err
}

// Background work with its own lifetime is not a drop.
func StartWorker() {
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
func Die() {
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

// Resolve calls net.LookupHost, which has a context-taking twin: it runs
// with context.Background() inside, and its callers cannot hand theirs.
func Resolve(host string) ([]string, error) { // want Resolve:`^dropsCtx\(context.Background in net.LookupHost\)$`
	return net.LookupHost(host)
}

// Health pings through Resolve: the drop travels up.
func Health() error { // want Health:`^dropsCtx\(context.Background via lib.Resolve in net.LookupHost\)$`
	_, err := Resolve("db")
	return err
}

// NewReq builds a request the caller may still give a context: no claim.
func NewReq(u string) (*http.Request, error) { // want NewReq:`^returns\(request0:unbounded\)$`
	return http.NewRequest("GET", u, nil)
}
