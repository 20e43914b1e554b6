package twins

import (
	"context"
	"crypto/tls"
	"database/sql"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"os/exec"
	"sync"
	"time"

	"example.com/kv"
	"github.com/miekg/dns"
)

func queries(ctx context.Context, db *sql.DB, tx *sql.Tx, st *sql.Stmt) {
	db.Query("SELECT 1")           // want `sql.DB.Query ignores the caller's context while ctx is available.*use QueryContext with ctx`
	db.Exec("DELETE FROM t", 1, 2) // want `sql.DB.Exec ignores`
	db.QueryRow("SELECT 1")        // want `sql.DB.QueryRow ignores`
	db.Ping()                      // want `sql.DB.Ping ignores`
	db.Begin()                     // want `sql.DB.Begin ignores.*use BeginTx with ctx`
	db.Prepare("SELECT 1")         // want `sql.DB.Prepare ignores`
	tx.Exec("UPDATE t SET a = 1")  // want `sql.Tx.Exec ignores`
	tx.Stmt(st)                    // want `sql.Tx.Stmt ignores`
	st.Query()                     // want `sql.Stmt.Query ignores`
	db.Query(                      // want `sql.DB.Query ignores`
		"SELECT 2",
		3,
	)
	db.QueryContext(ctx, "SELECT 1") // ok
}

func handler(w http.ResponseWriter, r *http.Request) {
	http.NewRequest("GET", "http://x", nil)      // want `http.NewRequest ignores the caller's context while r.Context\(\) is available.*use http.NewRequestWithContext with r.Context\(\)`
	http.Get("http://x")                         // want `http.Get ignores.*use http.NewRequestWithContext and Client.Do with r.Context\(\)`
	http.DefaultClient.Post("http://x", "", nil) // want `http.Client.Post ignores`
	exec.Command("ls", "-l")                     // want `exec.Command ignores`
}

func dialsForRequest(w http.ResponseWriter, r *http.Request) {
	net.DialTimeout("tcp", "x:1", time.Second) // want `net.DialTimeout ignores`
}

func dials(ctx context.Context) {
	net.Dial("tcp", "x:1")                     // want `net.Dial ignores.*\(\*net.Dialer\).DialContext`
	net.DialTimeout("tcp", "x:1", time.Second) // ok: its author chose a bound, and ctx is not a request's
	net.Dial("unix", "/run/app.sock")          // a local socket: nothing to wait for
	net.LookupHost("x")                        // want `net.LookupHost ignores.*net.DefaultResolver.LookupHost`
	net.LookupIP("x")                          // want `net.LookupIP ignores`
	tls.Dial("tcp", "x:1", nil)                // want `tls.Dial ignores.*\(\*tls.Dialer\).DialContext`
	var d net.Dialer
	d.Dial("tcp", "x:1") // want `net.Dialer.Dial ignores.*DialContext`
}

func thirdParty(ctx context.Context, c *kv.Client) {
	c.Get("k")      // want `kv.Client.Get ignores.*use GetContext with ctx`
	c.Put("k", "v") // want `kv.Client.Put ignores.*use PutWithContext with ctx`
	c.Scan("p")     // ok: ScanContext is not a twin
	kv.Ping()       // want `kv.Ping ignores.*use PingContext with ctx`
	slog.Info("x")  // ok: slog
	c.Close()       // ok: no twin, cleanup by name
	kv.Start()      // ok: background work has its own lifetime
}

// ok: no context in scope.
func plain(db *sql.DB) {
	db.Query("SELECT 1")
	http.Get("http://x")
}

// ok: the request gets the context later.
func later(ctx context.Context) {
	req, _ := http.NewRequest("GET", "http://x", nil)
	req = req.WithContext(ctx)
	cmd := exec.Command("go", "env")
	runWithContext(ctx, cmd)
}

func runWithContext(ctx context.Context, cmd *exec.Cmd) {}

// ok: net.Listen's context would bound only the bind.
func listen(ctx context.Context) {
	net.Listen("tcp", ":0")
}

type future struct{ done chan struct{} }

func (f *future) Wait() error { <-f.done; return nil }
func (f *future) WaitContext(ctx context.Context) error {
	select {
	case <-f.done:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func submit(ctx context.Context) *future { return &future{} }

// ok: the future was made with ctx; Wait only waits for that work.
func waits(ctx context.Context) {
	f := submit(ctx)
	f.Wait()
	g := &future{}
	g.Wait() // want `twins.future.Wait ignores the caller's context.*use WaitContext with ctx`
}

// A Tx's context only rolls it back, and PrepareContext's bounds only the
// preparation: the plain methods run with context.Background().
func txAndStmt(ctx context.Context, db *sql.DB) {
	tx, _ := db.BeginTx(ctx, nil)
	tx.Exec("UPDATE t SET a = 1") // want `sql.Tx.Exec ignores the caller's context.*use ExecContext with ctx`
	st, _ := db.PrepareContext(ctx, "SELECT 1")
	st.Query() // want `sql.Stmt.Query ignores`
}

// The result meets the context later, but the call did its I/O already.
func ioBeforeContext(ctx context.Context, db *sql.DB, c *kv.Client) {
	st, _ := db.Prepare("SELECT 1") // want `sql.DB.Prepare ignores`
	st.QueryContext(ctx)
	v, _ := c.Get("user") // want `kv.Client.Get ignores`
	c.PutWithContext(ctx, "copy", v)
}

type scraper struct {
	req    *http.Request
	client *http.Client
}

// ok: the request is kept in a field and sent with a context derived from
// the one in scope.
func (s *scraper) scrape(ctx context.Context) (*http.Response, error) {
	if s.req == nil {
		req, err := http.NewRequest("GET", "http://x", nil)
		if err != nil {
			return nil, err
		}
		s.req = req
	}
	ctx, cancel := context.WithTimeout(ctx, time.Second)
	defer cancel()
	return s.client.Do(s.req.WithContext(ctx))
}

// ok: the request gets the context in scope in the same expression.
func attachedAtOnce(ctx context.Context, h http.Handler) {
	r := httptest.NewRequest("GET", "/", nil).WithContext(ctx)
	h.ServeHTTP(httptest.NewRecorder(), r)
}

func notAttached(ctx context.Context, h http.Handler) {
	r := httptest.NewRequest("GET", "/", nil) // want `httptest.NewRequest ignores the caller's context`
	h.ServeHTTP(httptest.NewRecorder(), r)
}

// store's PrimaryInfo reads what is known now; PrimaryInfoWithContext
// waits until a primary is known. The plain getter is not the variant
// without a context, and the swap would make the caller wait: silent.
type store struct {
	mu      sync.Mutex
	primary string
	ready   chan struct{}
}

func (s *store) PrimaryInfo() (bool, string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.primary == "", s.primary
}

func (s *store) PrimaryInfoWithContext(ctx context.Context) (bool, string) {
	if ok, p := s.PrimaryInfo(); ok || p != "" {
		return ok, p
	}
	select {
	case <-s.ready:
		return s.PrimaryInfo()
	case <-ctx.Done():
		return false, ""
	}
}

func usePrimary(ctx context.Context, s *store) string {
	_, p := s.PrimaryInfo()
	return p
}

// dialTLS copies the context's deadline into the dialer: the caller's
// deadline travels, and only cancellation is lost.
func dialTLS(ctx context.Context, addr string) (*tls.Conn, error) {
	d := &net.Dialer{Timeout: 30 * time.Second}
	if t, ok := ctx.Deadline(); ok {
		d.Deadline = t
	}
	return tls.DialWithDialer(d, "tcp", addr, nil) // ok: the dialer carries the deadline
}

// dialTLSLoose does not.
func dialTLSLoose(ctx context.Context, addr string) (*tls.Conn, error) {
	d := &net.Dialer{Timeout: 30 * time.Second}
	return tls.DialWithDialer(d, "tcp", addr, nil) // want `tls.DialWithDialer ignores the caller's context`
}

// handshake sets the context's deadline on the connection a TLS
// connection wraps: the handshake is bounded by the caller's deadline.
func handshake(ctx context.Context, conn net.Conn) error {
	deadline, _ := ctx.Deadline()
	if err := conn.SetDeadline(deadline); err != nil {
		return err
	}
	tlsConn := tls.Client(conn, &tls.Config{})
	return tlsConn.Handshake() // ok: the connection carries the deadline
}

// handshakeFixed sets a deadline of its own, not the caller's.
func handshakeFixed(ctx context.Context, conn net.Conn) error {
	if err := conn.SetDeadline(time.Now().Add(time.Minute)); err != nil {
		return err
	}
	tlsConn := tls.Client(conn, &tls.Config{})
	return tlsConn.Handshake() // want `tls.Conn.Handshake ignores the caller's context`
}

// handshakeOther bounds another connection than the one handshaking.
func handshakeOther(ctx context.Context, conn, other net.Conn) error {
	deadline, _ := ctx.Deadline()
	other.SetDeadline(deadline)
	tlsConn := tls.Client(conn, &tls.Config{})
	return tlsConn.Handshake() // want `tls.Conn.Handshake ignores the caller's context`
}

// exchange gives the DNS client the deadline's remainder as its Timeout.
func exchange(ctx context.Context, m *dns.Msg, server string) error {
	client := &dns.Client{}
	deadline, _ := ctx.Deadline()
	client.Timeout = time.Until(deadline)
	_, _, err := client.Exchange(m, server) // ok: the client carries the deadline
	return err
}

// exchangeFixed gives it a Timeout of its own.
func exchangeFixed(ctx context.Context, m *dns.Msg, server string) error {
	client := &dns.Client{}
	client.Timeout = 2 * time.Second
	_, _, err := client.Exchange(m, server) // want `dns.Client.Exchange ignores the caller's context`
	return err
}

// shadowCopy copies the incoming request for a shadow backend and returns
// the copy unsent: its caller decides the copy's context.
func shadowCopy(req *http.Request, backend string) (*http.Request, error) {
	clone, err := http.NewRequest(req.Method, backend+req.URL.Path, nil) // ok: returned unsent
	if err != nil {
		return nil, err
	}
	clone.Header = req.Header.Clone()
	return clone, nil
}

// shadowSend sends the copy itself.
func shadowSend(req *http.Request, backend string) error {
	clone, err := http.NewRequest(req.Method, backend+req.URL.Path, nil) // want `http.NewRequest ignores the caller's context while req.Context\(\) is available`
	if err != nil {
		return err
	}
	_, err = http.DefaultClient.Do(clone)
	return err
}

// newAPIRequest ignores the context parameter it is given.
func newAPIRequest(ctx context.Context, path string) (*http.Request, error) {
	req, err := http.NewRequest("GET", "https://api.example.com"+path, nil) // want `http.NewRequest ignores the caller's context while ctx is available`
	if err != nil {
		return nil, err
	}
	return req, nil
}

// shadowDirect returns the copy as it is built.
func shadowDirect(req *http.Request) (*http.Request, error) {
	return http.NewRequest(req.Method, "http://shadow"+req.URL.Path, nil) // ok: returned unsent
}

// ok: a process started to outlive the call (a browser kept open), reaped
// by a goroutine: exec.CommandContext would kill it when ctx ends.
func keepOpen(ctx context.Context) error {
	cmd := exec.Command("chromium", "--headless")
	if err := cmd.Start(); err != nil {
		return err
	}
	go func() { cmd.Wait() }()
	<-ctx.Done()
	return nil
}

// A process started and waited for here is the call's own work.
func startWait(ctx context.Context) error {
	cmd := exec.Command("go", "env") // want `exec.Command ignores`
	if err := cmd.Start(); err != nil {
		return err
	}
	return cmd.Wait()
}

// A command run to completion, however it is named.
func runs(ctx context.Context) ([]byte, error) {
	var cmd = exec.Command("go", "version") // want `exec.Command ignores`
	return cmd.Output()
}
