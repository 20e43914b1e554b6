// Package basic holds notimeout's single-package cases: every API family,
// every bound, and the cases nothing reports.
package basic

import (
	"context"
	"crypto/tls"
	"database/sql"
	"net"
	"net/http"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/elastic/go-elasticsearch/v8/esapi"
	"github.com/nats-io/nats.go"
	"github.com/resilvet/resilvet/runtime/deadline"
	"go.mongodb.org/mongo-driver/v2/mongo"
)

var db *sql.DB

// --- net/http ---

func defaultClient(u string) {
	http.Get(u)               // want `http.Get uses http.DefaultClient, which has no timeout; use a client with Timeout or a request context with a deadline`
	http.Post(u, "", nil)     // want `http.Post uses http.DefaultClient`
	http.DefaultClient.Get(u) // want `http.Client.Get has no timeout: it sends its request without a context and http.DefaultClient has no Timeout, so a slow server holds the caller forever; set Timeout on the client`
}

func literalWithoutTimeout(u string) {
	c := &http.Client{}
	req, _ := http.NewRequest("GET", u, nil)
	c.Do(req) // want `http.Client.Do has no deadline: the request's context \(http.NewRequest's context.Background\(\) at basic.go:\d+:\d+\) has none and the client \(a client without Timeout at basic.go:\d+:\d+\) has no Timeout`
}

func literalWithTimeout(u string) {
	c := &http.Client{Timeout: 5 * time.Second}
	req, _ := http.NewRequest("GET", u, nil)
	c.Do(req)
	c.Get(u)
}

func timeoutSetLater(u string) {
	c := &http.Client{}
	c.Timeout = time.Second
	c.Get(u)
}

func timeoutZero(u string) {
	c := &http.Client{Timeout: 0}
	c.Get(u) // want `http.Client.Get has no timeout: it sends its request without a context and a client without Timeout at basic.go:\d+:\d+ has no Timeout`
}

func boundedRequest(u string) error {
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, "GET", u, nil)
	if err != nil {
		return err
	}
	_, err = http.DefaultClient.Do(req)
	return err
}

func unboundedRequest(u string) error {
	req, err := http.NewRequestWithContext(context.Background(), "GET", u, nil)
	if err != nil {
		return err
	}
	_, err = http.DefaultClient.Do(req) // want `http.Client.Do has no deadline: the request's context \(context.Background\(\) at basic.go:\d+:\d+\) has none and the client \(http.DefaultClient\) has no Timeout`
	return err
}

func requestWithContextLater(u string) {
	req, _ := http.NewRequest("GET", u, nil)
	ctx, cancel := deadline.Ensure(context.Background(), time.Second)
	defer cancel()
	req = req.WithContext(ctx)
	http.DefaultClient.Do(req)
}

// configure may set a timeout: the client is handed elsewhere.
func configure(c *http.Client) {}

func escapes(u string) {
	c := &http.Client{}
	configure(c)
	c.Get(u)
}

// --- contexts ---

func rootToSQL(q string) {
	ctx := context.Background() // want `context.Background\(\) reaches sql.DB.QueryContext with no deadline, so the call can wait forever on a slow dependency; bound it with context.WithTimeout or deadline.Ensure`
	db.QueryContext(ctx, q)
}

func todoInline(q string) {
	db.ExecContext(context.TODO(), q) // want `context.TODO\(\) reaches sql.DB.ExecContext with no deadline`
}

func withoutCancel(parent context.Context, q string) {
	db.ExecContext(context.WithoutCancel(parent), q) // want `context.WithoutCancel\(…\), which drops the deadline, reaches sql.DB.ExecContext`
}

func boundedOnEveryPath(q string, slow bool) {
	var ctx context.Context
	var cancel context.CancelFunc
	if slow {
		ctx, cancel = context.WithTimeout(context.Background(), time.Minute)
	} else {
		ctx, cancel = context.WithTimeout(context.Background(), time.Second)
	}
	defer cancel()
	db.QueryContext(ctx, q)
}

func unboundedOnOnePath(q string, fast bool) {
	ctx := context.Background() // want `context.Background\(\) reaches sql.DB.QueryContext with no deadline`
	if fast {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, time.Second)
		defer cancel()
	}
	db.QueryContext(ctx, q)
}

// The probe case: a cancel() in an earlier if does not make the context
// bounded or pre-cancelled on the other path.
func cancelInEarlierIf(q string, abort bool) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	if abort {
		cancel()
		return
	}
	defer cancel()
	db.QueryContext(ctx, q)
}

// A context parameter is the caller's responsibility.
func param(ctx context.Context, q string) {
	db.QueryContext(ctx, q)
}

// Calling the helper with a root context is reported at the root.
func callsParam(q string) {
	param(context.Background(), q) // want `context.Background\(\) reaches sql.DB.QueryContext \(via basic.param -> sql.DB.QueryContext\) with no deadline`
}

// nil fallback: the caller's context decides.
func nilFallback(ctx context.Context, q string) {
	if ctx == nil {
		ctx = context.Background()
	}
	db.QueryContext(ctx, q)
}

// Roots made where a context is in scope are ctxdrop's finding.
func handler(w http.ResponseWriter, r *http.Request) {
	db.QueryContext(context.Background(), "q")
}

// --- struct fields ---

type poller struct {
	ctx context.Context
	hc  *http.Client
}

func newPoller() *poller {
	return &poller{ctx: context.Background(), hc: &http.Client{Timeout: time.Second}} // want `context.Background\(\) reaches sql.DB.QueryContext with no deadline`
}

func (p *poller) poll(q string) {
	db.QueryContext(p.ctx, q) // reported where the context is made
	p.hc.Get(q)
}

// --- closures, method values, generics ---

func closure(q string) {
	ctx := context.Background() // want `context.Background\(\) reaches sql.DB.QueryContext with no deadline`
	run := func() {
		db.QueryContext(ctx, q)
	}
	run()
}

func methodValue(u string) {
	c := &http.Client{}
	get := c.Get
	get(u) // want `http.Client.Get has no timeout`
}

func generic[T any](ctx context.Context, q string, v T) {
	db.QueryContext(ctx, q)
}

func callsGeneric(q string) {
	generic(context.Background(), q, 1) // want `context.Background\(\) reaches sql.DB.QueryContext \(via basic.generic -> sql.DB.QueryContext\)`
}

// --- database/sql without a context ---

func noCtx(q string) {
	db.Query(q) // want `sql.DB.Query runs with context.Background\(\) and no deadline, so a slow database holds the caller forever; use QueryContext with a context that has a deadline`
}

func noCtxButInScope(ctx context.Context, q string) {
	db.Query(q) // ctxdrop's
}

// --- net and tls ---

func dials(addr string) {
	net.Dial("tcp", addr) // want `net.Dial has no dial timeout, so an unreachable peer holds the caller for minutes; use net.DialTimeout or a net.Dialer with Timeout`
	net.Dial("unix", "/run/x.sock")
	net.Dial("udp", addr)
	net.DialTimeout("tcp", addr, time.Second)
	tls.Dial("tcp", addr, nil) // want `tls.Dial has no timeout`
	d := &net.Dialer{}
	d.Dial("tcp", addr) // want `net.Dialer.Dial has no timeout: a net.Dialer without Timeout or Deadline at basic.go:\d+:\d+ is unbounded`
	d2 := &net.Dialer{Timeout: time.Second}
	d2.Dial("tcp", addr)
	tls.DialWithDialer(&net.Dialer{Timeout: time.Second}, "tcp", addr, nil)
}

// --- third-party tables ---

func mongoFind(c *mongo.Collection) {
	c.FindOne(context.TODO(), nil) // want `context.TODO\(\) reaches mongo.Collection.FindOne with no deadline`
	c.Name()
}

func natsRequest(nc *nats.Conn) {
	nc.Request("orders", nil, time.Second)
	nc.RequestWithContext(context.Background(), "orders", nil) // want `context.Background\(\) reaches nats.Conn.RequestWithContext with no deadline`
}

func search(tr esapi.Transport) {
	esapi.SearchRequest{}.Do(context.Background(), tr) // want `context.Background\(\) reaches esapi.SearchRequest.Do with no deadline`
}

func aws(c *s3.Client) {
	c.GetObject(context.Background(), &s3.GetObjectInput{}) // want `context.Background\(\) reaches s3.Client.GetObject with no deadline`
	c.Options()
}

// A convenience wrapper of a context-taking twin documents that it uses
// no deadline: the callers of Load are the ones to report.
type store struct{ db *sql.DB }

func (s *store) Load(id string) error { return s.LoadContext(context.Background(), id) }

func (s *store) LoadContext(ctx context.Context, id string) error {
	_, err := s.db.QueryContext(ctx, id)
	return err
}

// The network may be a Unix socket: not judged.
func dialVar(network, addr string) {
	net.Dial(network, addr)
}
