// Package ctxdrop defines an Analyzer that reports request contexts that
// are dropped on the way to outbound or context-taking work: root contexts
// made while a context is in scope, calls to non-context twins, and
// callees that mint their own context. The analyzer's documentation, shown
// by `resilvet help ctxdrop`, is the doc variable below; the user guide is
// docs/analyzers/ctxdrop.md.
package ctxdrop

import "github.com/resilvet/resilvet/internal/analysisutil"

var doc = analysisutil.Doc{
	Title: "ctxdrop: report request contexts dropped on the way to outbound work",
	Text: `A deadline only protects a service if it travels with the request. In a
function that has a context (a context.Context parameter, an *http.Request
parameter, or a closure that captures one), ctxdrop reports:

1. context.Background() or context.TODO() flowing into a call, a goroutine,
   a struct field or a variable later passed on;
2. a call without a context where a context-taking twin exists (db.Query,
   http.NewRequest, http.Get, exec.Command, net.Dial, net.LookupHost,
   tls.Dial, and any M whose type also has MContext or MWithContext);
3. a call to a function that takes no context but makes its own root context
   for context-taking work, directly or through its callees (the chain is
   in the finding's related positions).

Not reported: functions with no context in scope; _test.go files unless
-resilvet.include-tests; contexts derived from the one in scope such as
context.WithoutCancel(ctx); a fresh context made after the in-scope one is
done (after <-ctx.Done(), in deferred cleanup, or for http.Server.Shutdown);
log/slog calls; nil-context fallbacks (if ctx == nil { ctx = ... }); a
process started and not waited for (exec.CommandContext would kill it).`,
	Example: `func handle(w http.ResponseWriter, r *http.Request) {
	rows, err := db.QueryContext(context.Background(), q) // reported
	rows, err = db.Query(q)                               // reported
}`,
	Fix: `Pass the context in scope: the suggested fix replaces the root context with
ctx (or r.Context()), or calls the twin with the context inserted
(db.QueryContext(ctx, q)) when the rewrite is mechanical. Silence a
deliberate case with //resilvet:ignore ctxdrop <reason>.`,
}

// Documentation returns the analyzer's documentation in parts, for
// drivers that lay it out themselves (resilvet -explain).
func Documentation() analysisutil.Doc { return doc }
