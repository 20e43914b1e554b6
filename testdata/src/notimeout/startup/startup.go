// Package startup holds start-up work: a call made once by a function
// named for start-up, with a context it makes itself, is not reported (a
// hang fails the start; there is no caller's deadline to carry). Loops,
// goroutines and values made elsewhere are.
package startup

import (
	"context"
	"database/sql"
	"flag"
	"net"
	"time"
)

var db *sql.DB

type API struct{ tree int64 }

// createTree reaches the database once.
func createTree(ctx context.Context) (int64, error) {
	var id int64
	err := db.QueryRowContext(ctx, "INSERT INTO trees DEFAULT VALUES RETURNING id").Scan(&id)
	return id, err
}

// poll reaches the database on every tick.
func poll(ctx context.Context) {
	for range time.Tick(time.Minute) {
		db.ExecContext(ctx, "DELETE FROM sessions WHERE expired")
	}
}

// NewAPI creates the tree at start-up: silent.
func NewAPI() (*API, error) {
	ctx := context.Background()
	id, err := createTree(ctx) // ok: start-up work, once
	if err != nil {
		return nil, err
	}
	return &API{tree: id}, nil
}

// Init checks the schema version once: silent.
func (a *API) Init() error {
	ctx := context.TODO()
	_, err := db.QueryContext(ctx, "SELECT version FROM schema_info") // ok: start-up work, once
	return err
}

// NewPoller starts a goroutine: it outlives the start.
func NewPoller() {
	ctx := context.Background() // want `context.Background\(\) reaches sql.DB.ExecContext`
	go poll(ctx)
}

// Configure polls from a helper that loops: not start-up.
func Configure() {
	poll(context.Background()) // want `context.Background\(\) reaches sql.DB.ExecContext \(via startup.poll`
}

// OpenAll connects in a loop: each round is work of its own.
func OpenAll(names []string) {
	for _, n := range names {
		createTree(context.Background()) // want `context.Background\(\) reaches sql.DB.QueryRowContext`
		_ = n
	}
}

// NewsFeed is not named for start-up ("News", not "New").
func NewsFeed() {
	createTree(context.Background()) // want `context.Background\(\) reaches sql.DB.QueryRowContext`
}

// Setup starts a closure that runs later, in a goroutine.
func Setup() {
	ctx := context.Background() // want `context.Background\(\) reaches sql.DB.QueryRowContext`
	go func() {
		createTree(ctx)
	}()
}

var rootCtx = context.Background() // want `context.Background\(\) reaches sql.DB.QueryRowContext`

// Bootstrap uses a context made elsewhere: the package's, which every
// caller shares.
func Bootstrap() {
	createTree(rootCtx)
}

// NewProxy dials with no timeout at all: constructors are also called per
// connection, and the fix is a timeout whoever calls it.
func NewProxy(addr string) (net.Conn, error) {
	return net.Dial("tcp", addr) // want `net.Dial has no dial timeout`
}

// Open checks the version with the database's own context.Background():
// the call has no bound of its own either.
func Open() error {
	_, err := db.Exec("SELECT 1") // want `sql.DB.Exec runs with context.Background\(\) and no deadline`
	return err
}

// Run is the program's entry point in a library package (main calls it):
// it parses the command line, and its one-shot probe mode is start-up
// work like main's.
func Run() {
	ctx := context.Background() // ok: once, from the program's entry point
	probe := flag.Bool("healthcheck", false, "check the server's health and exit")
	flag.Parse()
	if *probe {
		createTree(ctx)
		return
	}
}

// RunLoop parses the command line too, but polls: reported.
func RunLoop() {
	ctx := context.Background() // want `context.Background\(\) reaches sql.DB.QueryRowContext`
	flag.Parse()
	for {
		createTree(ctx)
	}
}

// Serve has no command line: not an entry point.
func Serve() {
	ctx := context.Background() // want `context.Background\(\) reaches sql.DB.QueryRowContext`
	createTree(ctx)
}
