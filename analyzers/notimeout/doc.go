// Package notimeout defines an Analyzer that reports outbound calls that
// nothing bounds in time: no deadline on the context that reaches them, no
// Timeout on the client that sends them, no dial timeout. The analyzer's
// documentation, shown by `resilvet help notimeout`, is the doc variable
// below; the user guide is docs/analyzers/notimeout.md.
package notimeout

import "github.com/resilvet/resilvet/internal/analysisutil"

var doc = analysisutil.Doc{
	Title: "notimeout: report outbound calls that can run with no deadline or timeout",
	Text: `A slow dependency takes a healthy service down when calls to it can wait
forever: workers pile up behind them until nothing else runs. notimeout
follows contexts, HTTP clients, requests and dialers through locals, struct
fields, closures, helpers and packages (the shared SSA summaries) and reports
an outbound call when every value that could bound it is unbounded:

- net/http: http.Get/Head/Post/PostForm (http.DefaultClient has no
  Timeout); Client.Do, Get, Head, Post, PostForm on a client without Timeout
  when the request's context has no deadline;
- gRPC: ClientConn.Invoke/NewStream and every generated client method, when
  the context has no deadline and the call's connection has no timeout
  interceptor (followed across packages; where it cannot be, the package
  building none decides);
- database/sql: the Context methods of DB, Conn, Tx and Stmt with a context
  without deadline, and the methods without a context (db.Query) where no
  context is in scope (where one is, ctxdrop reports them);
- net and crypto/tls: net.Dial, net.DialTCP, tls.Dial, a net.Dialer without
  Timeout or Deadline (Unix sockets and UDP are never reported);
- AWS SDK v2, MongoDB, NATS, Elasticsearch, controller-runtime writes by
  table, and any function named
  with -resilvet.outbound;
- any helper, in this package or another, whose summary says a context,
  request or client parameter reaches one of these unbounded.

A context parameter is the caller's responsibility: the finding is where the
unbounded context is made (context.Background(), context.TODO(),
context.WithoutCancel), as many helpers and packages up as it travels, with
each hop in the related positions.

Not reported: calls that a deadline or timeout bounds on every path; values
the analysis cannot follow (it stays silent); roots made where a context is
in scope (ctxdrop's finding); _test.go files unless -resilvet.include-tests;
package main of a one-shot tool (one that starts no server) unless
-notimeout.main; r.Context() of an HTTP handler unless -notimeout.edge.`,
	Example: `func refresh() error {
	resp, err := http.Get(pricesURL) // reported
	...
	ctx := context.Background() // reported: reaches db.QueryContext with no deadline
	rows, err := db.QueryContext(ctx, q)
}`,
	Fix: `Bound the call: give the client a Timeout (the suggested fix adds
Timeout: 10 * time.Second to the client's literal, or, where the package
already has a client variable with a Timeout in scope, rewrites http.Get to
that client's Get), or bound the context where it is made
(the suggested fix writes ctx, cancel := context.WithTimeout(ctx,
10*time.Second) and defer cancel(), or the runtime's deadline.Ensure when
the module already uses github.com/resilvet/resilvet/runtime). The root
is bounded only when every use of it is the outbound work reported; when
it also serves, shuts a server down, is handed to a goroutine, a loop or
a call that is not the finding's, waits on Done, or is stored or
returned, the fix bounds a context derived for the one outbound call
(callCtx, cancel := context.WithTimeout(ctx, 10*time.Second) before its
statement), or no fix is offered.
-notimeout.client-timeout changes the duration written. Silence a deliberate case
with //resilvet:ignore notimeout <reason>.`,
}

// Documentation returns the analyzer's documentation in parts, for
// drivers that lay it out themselves (resilvet -explain).
func Documentation() analysisutil.Doc { return doc }
