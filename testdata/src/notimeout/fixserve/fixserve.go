// Package fixserve holds the shapes where bounding a root context would
// also bound long-lived work that shares it (serving, shutting down, a
// goroutine, a poller): the fix bounds a context derived at the outbound
// call instead, or is not offered. fixserve.go.golden is the result of
// applying the fixes.
package fixserve

import (
	"context"
	"database/sql"
	"log/slog"
	"net/http"
	"os"
	"os/signal"
	"time"
)

var db *sql.DB

// onlyQueries: every use of ctx is outbound work the finding is about
// (or a log line): the root is bounded.
func onlyQueries(q string) error {
	ctx := context.Background() // want `context.Background\(\) reaches sql.DB.PingContext with no deadline`
	if err := db.PingContext(ctx); err != nil {
		return err
	}
	slog.InfoContext(ctx, "pinged")
	_, err := db.ExecContext(ctx, q)
	return err
}

// count reads its rows before it returns: the deferred cancel ends
// nothing still in use.
func count(q string) (int, error) {
	ctx := context.Background() // want `context.Background\(\) reaches sql.DB.QueryContext with no deadline`
	rows, err := db.QueryContext(ctx, q)
	if err != nil {
		return 0, err
	}
	defer rows.Close()
	n := 0
	for rows.Next() {
		n++
	}
	return n, rows.Err()
}

// viaHelper: the helper only queries.
func viaHelper(q string) error {
	ctx := context.Background() // want `context.Background\(\) reaches sql.DB.ExecContext \(via fixserve.exec -> sql.DB.ExecContext\) with no deadline`
	return exec(ctx, q)
}

func exec(ctx context.Context, q string) error {
	_, err := db.ExecContext(ctx, q)
	return err
}

// serveCmd is the shape: the context that pings the database
// also shuts the server down. Bounding it would leave Shutdown an expired
// context after 10s of serving; the ping gets a context of its own.
func serveCmd(srv *http.Server) error {
	ctx := context.Background() // want `context.Background\(\) reaches sql.DB.PingContext with no deadline`
	if err := db.PingContext(ctx); err != nil {
		return err
	}
	go srv.ListenAndServe()
	return srv.Shutdown(ctx)
}

// goroutine: ctx is handed to a goroutine that outlives the call.
func goroutine(q string) {
	ctx := context.Background() // want `context.Background\(\) reaches sql.DB.ExecContext with no deadline`
	db.ExecContext(ctx, q)
	go watch(ctx)
}

func watch(ctx context.Context) {
	<-ctx.Done()
}

// Server is the module's own server: Start blocks until ctx is done.
type Server struct {
	srv *http.Server
}

func (s *Server) Start(ctx context.Context) error {
	go s.srv.ListenAndServe()
	<-ctx.Done()
	return s.srv.Shutdown(context.Background())
}

func start(s *Server, q string) error {
	ctx := context.Background() // want `context.Background\(\) reaches sql.DB.QueryRowContext with no deadline`
	db.QueryRowContext(ctx, q)
	return s.Start(ctx)
}

// Boot pings, then serves with the same context: the finding's call is
// Boot itself, which blocks, so nothing can be bounded at it.
func (s *Server) Boot(ctx context.Context) error {
	if err := db.PingContext(ctx); err != nil {
		return err
	}
	return s.Start(ctx)
}

func boot(s *Server) error {
	ctx := context.Background() // want `context.Background\(\) reaches sql.DB.PingContext`
	return s.Boot(ctx)
}

// poll: the outbound call repeats in a loop for as long as the process
// runs: no bound fits all of it, and a deferred cancel in the loop would
// pile up.
func poll(q string) {
	ctx := context.Background() // want `context.Background\(\) reaches sql.DB.ExecContext with no deadline`
	for {
		db.ExecContext(ctx, q)
		time.Sleep(time.Minute)
	}
}

// selectDone: ctx also ends a wait.
func selectDone(q string, done chan struct{}) {
	ctx := context.Background() // want `context.Background\(\) reaches sql.DB.ExecContext with no deadline`
	db.ExecContext(ctx, q)
	select {
	case <-ctx.Done():
	case <-done:
	}
}

type worker struct {
	ctx context.Context
}

// stored: ctx is kept in a struct for later.
func stored(w *worker, q string) {
	ctx := context.Background() // want `context.Background\(\) reaches sql.DB.ExecContext with no deadline`
	w.ctx = ctx
	db.ExecContext(ctx, q)
}

// twoCallsAndShutdown: two outbound calls share ctx with Shutdown: one
// derived context would not fit both, and no fix is offered.
func twoCallsAndShutdown(srv *http.Server, q string) error {
	ctx := context.Background() // want `context.Background\(\) reaches sql.DB.PingContext with no deadline`
	db.PingContext(ctx)
	db.ExecContext(ctx, q)
	return srv.Shutdown(ctx)
}

// rowsReturned: the rows outlive the function, and a deferred cancel
// would close them.
func rowsReturned(q string) (*sql.Rows, error) {
	ctx := context.Background() // want `context.Background\(\) reaches sql.DB.QueryContext with no deadline`
	return db.QueryContext(ctx, q)
}

// signals: a derived context carries the root's bound; it also serves,
// so the ping gets a context of its own.
func signals(srv *http.Server) error {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt) // want `context.Background\(\) reaches sql.DB.PingContext with no deadline`
	defer stop()
	if err := db.PingContext(ctx); err != nil {
		return err
	}
	go srv.ListenAndServe()
	<-ctx.Done()
	return srv.Shutdown(context.WithoutCancel(ctx))
}

// cancelTaken: cancel names the root's own cancel function; the derived
// context's is callCancel.
func cancelTaken(q string) {
	ctx, cancel := context.WithCancel(context.Background()) // want `context.Background\(\) reaches sql.DB.ExecContext with no deadline`
	defer cancel()
	db.ExecContext(ctx, q)
	go watch(ctx)
}

// pollAll's helper runs its query once per item: the bound would cover
// them all, and its context is handed on too.
func pollAll(s *Server, qs []string) error {
	ctx := context.Background() // want `context.Background\(\) reaches sql.DB.ExecContext`
	execAll(ctx, qs)
	return s.Start(ctx)
}

func execAll(ctx context.Context, qs []string) {
	for _, q := range qs {
		db.ExecContext(ctx, q)
	}
}

// closure: a closure captures ctx and waits on it: the exec gets a
// context of its own.
func closure(srv *http.Server, q string) {
	ctx := context.Background() // want `context.Background\(\) reaches sql.DB.ExecContext with no deadline`
	go func() {
		<-ctx.Done()
		srv.Close()
	}()
	db.ExecContext(ctx, q)
}

// inClosure: the only outbound use is in a closure, which may run at any
// time: no fix.
func inClosure(q string) func() {
	ctx := context.Background() // want `context.Background\(\) reaches sql.DB.ExecContext with no deadline`
	return func() {
		db.ExecContext(ctx, q)
	}
}
