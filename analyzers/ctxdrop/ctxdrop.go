package ctxdrop

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/passes/inspect"
	"golang.org/x/tools/go/ast/edge"
	"golang.org/x/tools/go/ast/inspector"

	"github.com/resilvet/resilvet/internal/analysisutil"
	"github.com/resilvet/resilvet/internal/knowledge"
	"github.com/resilvet/resilvet/internal/report"
	"github.com/resilvet/resilvet/internal/summary"
)

const name = "ctxdrop"

// Config holds ctxdrop's options. The zero value is the default.
type Config struct {
	// IncludeTests reports findings in _test.go files too.
	IncludeTests bool
}

// Analyzer reports request contexts dropped on the way to outbound work,
// with the default configuration.
var Analyzer = New(summary.Analyzer, func() Config { return Config{} })

// New returns a ctxdrop analyzer that reads the summaries of sum (a
// summary analyzer) and whose configuration is config(), read when each
// package's run starts. Drivers build their analyzers through
// analyzers.Suite, which fills both from one options struct.
func New(sum *analysis.Analyzer, config func() Config) *analysis.Analyzer {
	return &analysis.Analyzer{
		Name:     name,
		Doc:      doc.Render(),
		URL:      analysisutil.URL(name),
		Requires: []*analysis.Analyzer{inspect.Analyzer, sum},
		Run:      func(pass *analysis.Pass) (any, error) { return run(pass, sum, config()) },
	}
}

// Categories of findings, one per rule.
const (
	categoryRoot = "rootctx"  // rule 1
	categoryTwin = "twin"     // rule 2
	categoryDrop = "dropsctx" // rule 3
	maxRelated   = 4
)

type checker struct {
	pass  *analysis.Pass
	sum   *summary.Result
	rep   *report.Reporter
	fixes *fixer
	scope map[ast.Node]*inScope // memoized ctxOf
	// deferred holds the function literals called by defer statements:
	// cleanup that may run after the request context is done.
	deferred map[*ast.FuncLit]bool
	// callAt maps a call's opening parenthesis, the position the SSA
	// summaries keep, to the call expression.
	callAt map[token.Pos]*ast.CallExpr
	// drops holds rule 3's findings until the package is done
	// (flushDrops).
	drops []pendingDrop
}

// inScope is the context a function can pass on.
type inScope struct {
	obj  *types.Var // the context.Context or *http.Request variable
	expr string     // how to write it: "ctx" or "r.Context()"
}

func run(pass *analysis.Pass, summaries *analysis.Analyzer, cfg Config) (any, error) {
	sum := pass.ResultOf[summaries].(*summary.Result)
	// Fast path: a function can only have a context in scope if its
	// package names context.Context or *http.Request.
	if !analysisutil.Imports(pass, "context", "net/http") {
		return nil, nil
	}
	ins := pass.ResultOf[inspect.Analyzer].(*inspector.Inspector)
	c := newChecker(pass, sum, ins, cfg.IncludeTests)
	roots := map[token.Pos]*summary.RootUse{}
	for _, u := range sum.Roots() {
		roots[u.Pos] = u
	}
	for cur := range ins.Root().Preorder((*ast.CallExpr)(nil)) {
		call := cur.Node().(*ast.CallExpr)
		if u := roots[call.Lparen]; u != nil {
			c.checkRoot(cur, call, u)
			continue
		}
		c.checkCall(cur, call)
	}
	c.flushDrops()
	return nil, nil
}

func newChecker(pass *analysis.Pass, sum *summary.Result, ins *inspector.Inspector, includeTests bool) *checker {
	c := &checker{
		pass:     pass,
		sum:      sum,
		rep:      report.New(pass, name, includeTests, "contextcheck"),
		fixes:    newFixer(pass),
		scope:    map[ast.Node]*inScope{},
		deferred: map[*ast.FuncLit]bool{},
		callAt:   map[token.Pos]*ast.CallExpr{},
	}
	for cur := range ins.Root().Preorder((*ast.DeferStmt)(nil), (*ast.CallExpr)(nil)) {
		switch n := cur.Node().(type) {
		case *ast.DeferStmt:
			if lit, ok := ast.Unparen(n.Call.Fun).(*ast.FuncLit); ok {
				c.deferred[lit] = true
			}
		case *ast.CallExpr:
			c.callAt[n.Lparen] = n
		}
	}
	return c
}

// Reported returns the calls (by their opening parentheses) whose missing
// deadline ctxdrop reports in the package, or would report but for the
// user's //resilvet:ignore or //nolint directive: root-context creations
// (rule 1) and calls of functions with a context-taking twin (rule 2).
// This is the hand-off between the analyzers: notimeout leaves exactly
// these to ctxdrop, whose fix (pass the context in scope) is the right one
// there, and reports every other root or twin that reaches a call with no
// deadline, including the ones ctxdrop declines by design: a goroutine
// that only watches ctx.Done(), an unnamed context parameter, a
// detachment whose comment explains it, work after the context is done.
func Reported(pass *analysis.Pass, sum *summary.Result, ins *inspector.Inspector) map[token.Pos]bool {
	out := map[token.Pos]bool{}
	if !analysisutil.Imports(pass, "context", "net/http") {
		return out
	}
	roots := map[token.Pos]*summary.RootUse{}
	for _, u := range sum.Roots() {
		roots[u.Pos] = u
	}
	// Test files count: whether they are reported is the include-tests
	// option's business, the same for both analyzers.
	c := newChecker(pass, sum, ins, true)
	for cur := range ins.Root().Preorder((*ast.CallExpr)(nil)) {
		call := cur.Node().(*ast.CallExpr)
		if u := roots[call.Lparen]; u != nil {
			if _, sinks := c.rootVerdict(cur, call, u); len(sinks) > 0 {
				out[call.Lparen] = true
			}
			continue
		}
		if callee, sc, ok := c.plainCallWithCtx(cur, call); ok {
			if twin, isTwin := c.twinOf(call, callee); isTwin && c.twinVerdict(cur, call, twin, sc) {
				out[call.Lparen] = true
			}
		}
	}
	return out
}

// rootVerdict decides rule 1 for a root-context creation: the context in
// scope and the sinks ctxdrop reports (none: no finding).
func (c *checker) rootVerdict(cur inspector.Cursor, rootCall *ast.CallExpr, u *summary.RootUse) (*inScope, []summary.Sink) {
	owner, ok := enclosingFunc(cur)
	if !ok {
		return nil, nil
	}
	sc := c.ctxOf(owner)
	if sc == nil || c.isCleanup(cur, owner) || explainsDetachment(c.rep.CommentsNear(rootCall.Pos())) || c.explainedEarlier(owner, rootCall) || c.hijacked(sc, rootCall) {
		return nil, nil
	}
	if u.InGoroutine {
		// Made inside a goroutine nobody waits for: the context in scope
		// would be cancelled under it, so a fresh one is deliberate, and
		// what it lacks is a deadline of its own (notimeout's finding).
		return nil, nil
	}
	if u.Bounded && !c.servesRequest(owner, sc) {
		// context.WithTimeout(context.Background(), 5*time.Second) where
		// the context in scope is not a request's (start-up, a health
		// probe, a background loop): a deliberate detachment with its
		// own bound.
		return nil, nil
	}
	var sinks []summary.Sink
	for _, s := range u.Sinks {
		if s.Kind == summary.SinkDefer || s.PreCancelled || s.Local || s.SetUp || c.sum.Exempt(s.Callee) || s.InDeferredClosure || s.BuildsContext || s.StoresCancel || s.Unsent {
			continue
		}
		if s.Kind == summary.SinkStore && s.Outlives {
			// Kept in the receiver or a package variable: it serves
			// something that outlives the call, and the context in scope
			// would be cancelled under it.
			continue
		}
		if (s.Kind == summary.SinkGo || s.InGoroutine) && !u.Joins {
			// A goroutine the function does not wait for outlives it: the
			// caller's context would be cancelled under it, so a fresh
			// one is deliberate, and what it lacks is a deadline of its
			// own, which is notimeout's finding.
			continue
		}
		sinks = append(sinks, s)
	}
	return sc, sinks
}

// servesRequest reports whether the context in scope is an HTTP
// request's: the function, or one it is inside, is handed an
// *http.Request.
func (c *checker) servesRequest(owner inspector.Cursor, sc *inScope) bool {
	if analysisutil.IsHTTPRequestPtr(sc.obj.Type()) {
		return true
	}
	for e := range owner.Enclosing((*ast.FuncDecl)(nil), (*ast.FuncLit)(nil)) {
		var ft *ast.FuncType
		switch n := e.Node().(type) {
		case *ast.FuncDecl:
			ft = n.Type
		case *ast.FuncLit:
			ft = n.Type
		}
		for _, f := range ft.Params.List {
			if analysisutil.IsHTTPRequestPtr(c.pass.TypesInfo.TypeOf(f.Type)) {
				return true
			}
		}
	}
	return false
}

// hijacked reports whether the context in scope is a served request's
// and call runs after the handler took the connection over (Hijack, a
// websocket upgrade): the request's context then ends when the handler
// returns, not when the client goes away, so passing it would change
// nothing; what has no deadline there is notimeout's.
func (c *checker) hijacked(sc *inScope, call *ast.CallExpr) bool {
	return analysisutil.IsHTTPRequestPtr(sc.obj.Type()) && c.sum.AfterHijack(call.Lparen)
}

// checkRoot applies rule 1 to a root-context creation.
func (c *checker) checkRoot(cur inspector.Cursor, rootCall *ast.CallExpr, u *summary.RootUse) {
	sc, sinks := c.rootVerdict(cur, rootCall, u)
	// A directive on the line the root flows to (ctx := context.Background()
	// … use(ctx) //nolint:contextcheck) marks that detachment as the
	// author's choice.
	sinks = slices.DeleteFunc(sinks, func(s summary.Sink) bool { return c.rep.Marked(s.Pos) })
	if len(sinks) == 0 {
		return
	}
	root := shortRoot(u.Root)
	var msg string
	switch s := sinks[0]; {
	case u.Maker != "":
		// A helper's fresh root (ctx, cancel := httpx.Detached(d)): the
		// fix is in what the helper is given, not a one-token swap.
		target := "its work"
		if s.Kind == summary.SinkCall && s.Callee != nil {
			target = analysisutil.FuncName(s.Callee)
		}
		msg = fmt.Sprintf("%s makes a fresh context from %s, used for %s while %s is available, so the call ignores the caller's deadline and cancellation; derive the context from %s instead", u.Maker, root, target, sc.expr, sc.expr)
	case s.Kind == summary.SinkCall:
		target := "a call"
		if s.Callee != nil {
			target = analysisutil.FuncName(s.Callee)
		}
		msg = fmt.Sprintf("%s passed to %s while %s is available, so the call ignores the caller's deadline and cancellation; pass %s instead", root, target, sc.expr, sc.expr)
	case s.Kind == summary.SinkGo:
		msg = fmt.Sprintf("%s passed to a goroutine while %s is available, so its work ignores the caller's deadline and cancellation; pass %s, or context.WithoutCancel(%s) if it must outlive the request", root, sc.expr, sc.expr, sc.expr)
	default:
		msg = fmt.Sprintf("%s stored while %s is available, so work using it later ignores the caller's deadline and cancellation; store %s instead", root, sc.expr, sc.expr)
	}
	var related []analysis.RelatedInformation
	for i, s := range sinks {
		if i == maxRelated {
			break
		}
		ri := analysis.RelatedInformation{Pos: s.Pos, Message: "the root context flows here"}
		if call := c.callAt[s.Pos]; call != nil {
			ri.Pos, ri.End = call.Pos(), call.End()
		}
		related = append(related, ri)
	}
	d := analysis.Diagnostic{
		Pos:      rootCall.Pos(),
		End:      rootCall.End(),
		Category: categoryRoot,
		Message:  msg,
		Related:  related,
	}
	if fix, ok := c.fixes.replaceRoot(rootCall, sc, root); ok && u.Maker == "" {
		d.SuggestedFixes = []analysis.SuggestedFix{fix}
	}
	c.rep.Report(d)
}

// explainsDetachment reports whether a comment on the root context's
// line or just above it gives the reason for a fresh context ("the
// checker is given a fresh background context because the Start context
// is cancelled when Start returns"): it speaks of the context, gives a
// reason, and does not call it a mistake. The finding would tell the
// author what they already know.
func explainsDetachment(text string) bool {
	// "should still wait" states the intent; a bare "should" (we should
	// pass ctx) calls the code wrong.
	text = strings.ReplaceAll(text, "should still", "still")
	if text == "" || containsAny(text, "mistake", "bug", "todo", "fixme", "wrong", "should") {
		return false
	}
	return containsAny(text, "context", "ctx", "detach") &&
		containsAny(text, "because", "since ", "so that", "so it", "must ", "needs to", "on purpose", "deliberately", "intentionally", "otherwise", "outlive",
			"therefore", "still wait", "even when", "even if", "regardless", "do not want", "don't want", "avoid", "so the ", "so a ", "so we ", "so they ")
}

// explainedEarlier reports whether the comment nearest above the root in
// its function that speaks of a background or fresh context, not of
// contexts in general, explains it ("use a background context so the
// declaration isn't abandoned if this caller disconnects"), however far
// above the call it is, as long as no other root context is made between
// the two: the comment is about this one.
func (c *checker) explainedEarlier(owner inspector.Cursor, rootCall *ast.CallExpr) bool {
	var file *ast.File
	for f := range owner.Enclosing((*ast.File)(nil)) {
		file = f.Node().(*ast.File)
	}
	if file == nil {
		return false
	}
	var nearest *ast.CommentGroup
	var text string
	for _, cg := range file.Comments {
		if cg.Pos() < owner.Node().Pos() || cg.End() > rootCall.Pos() {
			continue
		}
		t := strings.ToLower(strings.Join(strings.Fields(cg.Text()), " "))
		if containsAny(t, "background context", "context.background", "detached context", "fresh context", "new context") {
			nearest, text = cg, t
		}
	}
	if nearest == nil || !explainsDetachment(text) {
		return false
	}
	for call := range owner.Preorder((*ast.CallExpr)(nil)) {
		n := call.Node().(*ast.CallExpr)
		if n == rootCall || n.Pos() < nearest.End() || n.Pos() > rootCall.Pos() {
			continue
		}
		if fn := analysisutil.CalleeFunc(c.pass.TypesInfo, n); fn != nil && knowledge.IsRootContext(fn.FullName()) {
			return false
		}
	}
	return true
}

func containsAny(s string, words ...string) bool {
	for _, w := range words {
		if strings.Contains(s, w) {
			return true
		}
	}
	return false
}

// ctxAppliedLater reports whether the result of the call at cur is later
// handed, together with the context in scope, to another call: the
// context then reaches the work by another path, as in
//
//	req, _ := http.NewRequest(…); req = req.WithContext(ctx)
//	cmd := exec.Command(…); runWithContext(ctx, cmd)
func (c *checker) ctxAppliedLater(cur, owner inspector.Cursor, sc *inScope) bool {
	// Only deferred work can have the context applied later: a request
	// or a command built now and sent later. A call that does its I/O now
	// (u, _ := c.LoadUser(id); stmt, _ := db.Prepare(q)) has already
	// ignored the context by the time its result meets it.
	if !analysisutil.IsDeferredWork(c.pass.TypesInfo.TypeOf(cur.Node().(*ast.CallExpr))) {
		return false
	}
	var result *types.Var
	switch as := cur.Parent().Node().(type) {
	case *ast.ReturnStmt:
		// return http.NewRequest(…): built and returned unsent.
		return analysisutil.IsHTTPRequestPtr(sc.obj.Type())
	case *ast.AssignStmt:
		if cur.ParentEdgeKind() == edge.AssignStmt_Rhs && len(as.Rhs) == 1 && len(as.Lhs) > 0 {
			if id, ok := as.Lhs[0].(*ast.Ident); ok {
				result, _ = c.pass.TypesInfo.ObjectOf(id).(*types.Var)
			}
		}
	case *ast.ValueSpec:
		if len(as.Values) == 1 && len(as.Names) > 0 {
			result, _ = c.pass.TypesInfo.Defs[as.Names[0]].(*types.Var)
		}
	}
	if result == nil {
		return false
	}
	if analysisutil.IsHTTPRequestPtr(sc.obj.Type()) && c.returnedUnsent(owner, result) {
		return true
	}
	// The result may be kept in a field first (s.req = req) and sent
	// later from there (s.client.Do(s.req.WithContext(ctx))).
	holders := map[types.Object]bool{result: true}
	for a := range owner.Preorder((*ast.AssignStmt)(nil)) {
		as := a.Node().(*ast.AssignStmt)
		for i, r := range as.Rhs {
			if id, ok := ast.Unparen(r).(*ast.Ident); ok && c.pass.TypesInfo.Uses[id] == result && i < len(as.Lhs) {
				if sel, ok := as.Lhs[i].(*ast.SelectorExpr); ok {
					if s, ok := c.pass.TypesInfo.Selections[sel]; ok && s.Kind() == types.FieldVal {
						holders[s.Obj()] = true
					}
				}
			}
		}
	}
	for other := range owner.Preorder((*ast.CallExpr)(nil)) {
		call := other.Node().(*ast.CallExpr)
		if call.Pos() < cur.Node().End() {
			continue
		}
		usesResult, usesCtx := false, false
		ast.Inspect(call, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.Ident:
				obj := c.pass.TypesInfo.Uses[n]
				switch {
				case holders[obj]:
					usesResult = true
				case obj == sc.obj:
					usesCtx = true
				case obj != nil && analysisutil.IsContext(obj.Type()) && obj.Pos() > owner.Node().Pos():
					// A context derived from the one in scope
					// (ctx, span := tracer.Start(ctx, …)).
					usesCtx = true
				}
			case *ast.SelectorExpr:
				if s, ok := c.pass.TypesInfo.Selections[n]; ok && holders[s.Obj()] {
					usesResult = true
				}
			}
			return true
		})
		if usesResult && usesCtx {
			return true
		}
	}
	return false
}

// returnedUnsent reports whether the function returns the deferred work
// it built (a request, a command) and hands it to no call. Where the
// context in scope is an incoming request's, that is a copy of the
// request for another destination (a proxy cloning it for a shadow
// backend) whose caller attaches the context it wants or sends it
// detached on purpose; where the caller sends it with no deadline,
// notimeout reports the send. A builder that ignores a context
// parameter is still reported.
func (c *checker) returnedUnsent(owner inspector.Cursor, result *types.Var) bool {
	returned := false
	for r := range owner.Preorder((*ast.ReturnStmt)(nil), (*ast.CallExpr)(nil)) {
		if fn, ok := enclosingFunc(r); !ok || fn.Node() != owner.Node() {
			continue
		}
		switch n := r.Node().(type) {
		case *ast.ReturnStmt:
			for _, e := range n.Results {
				if id, ok := ast.Unparen(e).(*ast.Ident); ok && c.pass.TypesInfo.Uses[id] == result {
					returned = true
				}
			}
		case *ast.CallExpr:
			for _, a := range n.Args {
				if id, ok := ast.Unparen(a).(*ast.Ident); ok && c.pass.TypesInfo.Uses[id] == result {
					return false
				}
			}
		}
	}
	return returned
}

// receiverCarriesCtx reports whether the method's receiver is a local
// variable made by a call that was given the context in scope
// (f := p.submit(ctx, cmd); f.Wait()): the work already carries the
// context, and the plain method only waits for it.
func (c *checker) receiverCarriesCtx(call *ast.CallExpr, owner inspector.Cursor, sc *inScope) bool {
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok {
		return false
	}
	// database/sql documents that a Tx's context only rolls it back and
	// PrepareContext's bounds only the preparation: tx.Exec and
	// stmt.Query run with context.Background() whatever made them.
	if t := c.pass.TypesInfo.TypeOf(sel.X); t != nil && analysisutil.IsSQLTxOrStmt(t) {
		return false
	}
	id, ok := ast.Unparen(sel.X).(*ast.Ident)
	if !ok {
		return false
	}
	v, ok := c.pass.TypesInfo.Uses[id].(*types.Var)
	if !ok {
		return false
	}
	for cur := range owner.Preorder((*ast.AssignStmt)(nil)) {
		as := cur.Node().(*ast.AssignStmt)
		if len(as.Rhs) != 1 || len(as.Lhs) == 0 {
			continue
		}
		lid, ok := as.Lhs[0].(*ast.Ident)
		if !ok || c.pass.TypesInfo.ObjectOf(lid) != v {
			continue
		}
		made, ok := ast.Unparen(as.Rhs[0]).(*ast.CallExpr)
		if !ok {
			continue
		}
		for _, a := range made.Args {
			if c.mentions(a, sc.obj) {
				return true
			}
		}
	}
	return false
}

// mentions reports whether the expression refers to obj.
func (c *checker) mentions(e ast.Expr, obj types.Object) bool {
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && c.pass.TypesInfo.Uses[id] == obj {
			found = true
		}
		return !found
	})
	return found
}

// insideFunc reports whether the call at cur is in the body of the named
// function (closures included).
func (c *checker) insideFunc(cur inspector.Cursor, fullName string) bool {
	for e := range cur.Enclosing((*ast.FuncDecl)(nil)) {
		fn, ok := c.pass.TypesInfo.Defs[e.Node().(*ast.FuncDecl).Name].(*types.Func)
		return ok && fn.FullName() == fullName
	}
	return false
}

// checkCall applies rules 2 and 3 to a call.
func (c *checker) checkCall(cur inspector.Cursor, call *ast.CallExpr) {
	callee, sc, ok := c.plainCallWithCtx(cur, call)
	if !ok {
		return
	}
	if twin, isTwin := c.twinOf(call, callee); isTwin {
		if c.twinVerdict(cur, call, twin, sc) {
			c.reportTwin(call, callee, twin, sc)
		}
		return
	}
	owner, _ := enclosingFunc(cur)
	s := c.sum.Of(callee)
	if s == nil || s.DropsCtx == nil || c.isCleanup(cur, owner) || knowledge.IsMigrationName(analysisutil.FuncName(callee)) || c.handsLocalDB(call) {
		return
	}
	// A goroutine or deferred call runs on its own lifetime, not the
	// caller's request (the summary makes the same choice inside callees).
	switch cur.ParentEdgeKind() {
	case edge.GoStmt_Call, edge.DeferStmt_Call:
		return
	}
	if s.DropsCtx.Bounded && !c.servesRequest(owner, sc) {
		// The helper bounds its own root (a 2-second probe, a start-up
		// fetch): as for a root bounded where it is made in the caller,
		// a deliberate detachment unless a request is being served.
		return
	}
	c.drops = append(c.drops, pendingDrop{call, callee, s.DropsCtx, sc})
}

// pendingDrop is a rule-3 finding waiting for the others of its callee.
type pendingDrop struct {
	call   *ast.CallExpr
	callee *types.Func
	drop   *summary.Drop
	sc     *inScope
}

// flushDrops reports rule 3 once per callee: the fix is in the callee (a
// context parameter), not at each of its call sites, so the first call
// that is not silenced carries the finding and the others are counted in
// the message and listed as related positions. A storage layer without
// contexts called from a hundred handlers is one finding per storage
// method, not per handler.
func (c *checker) flushDrops() {
	byCallee := map[*types.Func][]pendingDrop{}
	var order []*types.Func
	for _, d := range c.drops {
		if c.rep.Silenced(d.call.Pos()) {
			continue
		}
		if byCallee[d.callee] == nil {
			order = append(order, d.callee)
		}
		byCallee[d.callee] = append(byCallee[d.callee], d)
	}
	for _, callee := range order {
		ds := byCallee[callee]
		first := ds[0]
		var more []*ast.CallExpr
		for _, d := range ds[1:] {
			more = append(more, d.call)
		}
		c.reportDrop(first.call, callee, first.drop, first.sc, more)
	}
}

// plainCallWithCtx returns the callee of a call that takes no context,
// made where a context is in scope, and that context.
func (c *checker) plainCallWithCtx(cur inspector.Cursor, call *ast.CallExpr) (*types.Func, *inScope, bool) {
	callee := analysisutil.CalleeFunc(c.pass.TypesInfo, call)
	if callee == nil {
		return nil, nil, false
	}
	sig, ok := callee.Type().(*types.Signature)
	if !ok || analysisutil.TakesContext(sig) {
		return nil, nil, false
	}
	owner, ok := enclosingFunc(cur)
	if !ok {
		return nil, nil, false
	}
	sc := c.ctxOf(owner)
	return callee, sc, sc != nil && !c.hijacked(sc, call)
}

// twinVerdict decides rule 2 for a call of a function that has a
// context-taking twin, made where sc is in scope.
func (c *checker) twinVerdict(cur inspector.Cursor, call *ast.CallExpr, twin knowledge.Twin, sc *inScope) bool {
	owner, _ := enclosingFunc(cur)
	// The twin's own implementation may call the plain function
	// (exec.CommandContext calls Command, then sets the context).
	if callee := analysisutil.CalleeFunc(c.pass.TypesInfo, call); callee != nil && c.sum.LocalWork(callee) {
		return false // db.Query on an in-process database
	}
	if c.setUp(call) || c.localDial(call) || c.deadlineCopied(cur, call) {
		return false
	}
	if twin.Bounded && c.takesDuration(call) && !c.servesRequest(owner, sc) {
		// net.DialTimeout(n, a, 5*time.Second) where the context in scope
		// is not a request's: the author chose a bound for the call, as
		// with a root bounded where it is made; only cancellation is
		// lost.
		return false
	}
	return !c.isCleanup(cur, owner) && !c.insideFunc(cur, twin.Name) && !attachedAtOnce(cur) && !c.ctxAppliedLater(cur, owner, sc) && !c.receiverCarriesCtx(call, owner, sc) && !c.workGetsCtx(call) && !c.processOutlives(cur, owner)
}

// processOutlives reports whether the call at cur makes an *exec.Cmd
// that its function starts and does not wait for: the process is meant
// to outlive the call (a browser kept open, a daemon), and
// exec.CommandContext would kill it when the context ends. A command run
// to completion (Run, Output, CombinedOutput, or Start then Wait in the
// function itself, not in a goroutine) is the caller's work and keeps
// the finding.
func (c *checker) processOutlives(cur, owner inspector.Cursor) bool {
	if !isExecCmd(c.pass.TypesInfo.TypeOf(cur.Node().(*ast.CallExpr))) {
		return false
	}
	var cmd types.Object
	switch as := cur.Parent().Node().(type) {
	case *ast.AssignStmt:
		if cur.ParentEdgeKind() == edge.AssignStmt_Rhs && len(as.Rhs) == 1 && len(as.Lhs) == 1 {
			if id, ok := as.Lhs[0].(*ast.Ident); ok {
				cmd = c.pass.TypesInfo.ObjectOf(id)
			}
		}
	case *ast.ValueSpec:
		if len(as.Values) == 1 && len(as.Names) == 1 {
			cmd = c.pass.TypesInfo.Defs[as.Names[0]]
		}
	}
	if cmd == nil {
		return false
	}
	started, completed := false, false
	for sel := range owner.Preorder((*ast.SelectorExpr)(nil)) {
		x, ok := sel.Node().(*ast.SelectorExpr)
		if !ok || sel.ParentEdgeKind() != edge.CallExpr_Fun {
			continue
		}
		if id, ok := ast.Unparen(x.X).(*ast.Ident); !ok || c.pass.TypesInfo.Uses[id] != cmd {
			continue
		}
		switch x.Sel.Name {
		case "Start":
			started = true
		case "Run", "Output", "CombinedOutput", "Wait":
			// Waited for in a closure or a go statement (a goroutine
			// reaping it) is not waited for by the function.
			if fn, _ := enclosingFunc(sel); fn == owner && sel.Parent().ParentEdgeKind() != edge.GoStmt_Call {
				completed = true
			}
		}
	}
	return started && !completed
}

// isExecCmd reports whether t is *os/exec.Cmd.
func isExecCmd(t types.Type) bool {
	ptr, ok := t.(*types.Pointer)
	if !ok {
		return false
	}
	named, ok := ptr.Elem().(*types.Named)
	return ok && named.Obj().Pkg() != nil && named.Obj().Pkg().Path() == "os/exec" && named.Obj().Name() == "Cmd"
}

// takesDuration reports whether a call is given a time.Duration: the
// bound its author chose (net.DialTimeout's timeout).
func (c *checker) takesDuration(call *ast.CallExpr) bool {
	for _, a := range call.Args {
		if t := c.pass.TypesInfo.TypeOf(a); t != nil && analysisutil.IsDuration(t) {
			return true
		}
	}
	return false
}

// deadlineCopied reports whether the I/O object a call works on gets the
// context's deadline by hand in the same function: the dialer a dial is
// made with (tls.DialWithDialer's first argument), or the receiver of the
// call (a *net.Dialer, a DNS client, a connection), or the connection a
// TLS connection wraps (tls.Client(conn, cfg)), is given a Deadline or a
// Timeout field, or SetDeadline, in a function that reads ctx.Deadline():
//
//	if t, ok := ctx.Deadline(); ok { d.Deadline = t }
//	return tls.DialWithDialer(d, network, addr, cfg)
//
//	dl, _ := ctx.Deadline()
//	client.Timeout = time.Until(dl)
//	client.Exchange(msg, server)
//
// The caller's deadline travels; only cancellation is lost (crypto/tls's
// dialer had no context-taking form before Go 1.15, and a DNS client's
// Timeout is the deadline's remainder).
func (c *checker) deadlineCopied(cur inspector.Cursor, call *ast.CallExpr) bool {
	callee := analysisutil.CalleeFunc(c.pass.TypesInfo, call)
	owner, ok := enclosingFunc(cur)
	if callee == nil || !ok {
		return false
	}
	var target ast.Expr
	if callee.FullName() == "crypto/tls.DialWithDialer" {
		if len(call.Args) > 0 {
			target = call.Args[0]
		}
	} else if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok && callee.Type().(*types.Signature).Recv() != nil {
		target = sel.X
	}
	id, ok := ast.Unparen(target).(*ast.Ident)
	if !ok {
		return false
	}
	obj := c.pass.TypesInfo.ObjectOf(id)
	if obj == nil {
		return false
	}
	// One walk: the variables given a deadline, the connection the
	// object wraps, and whether the context's deadline is read at all.
	given := map[types.Object]bool{}
	var wrapped types.Object
	readsDeadline := false
	ast.Inspect(owner.Node(), func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.AssignStmt:
			for i, l := range n.Lhs {
				if sel, ok := ast.Unparen(l).(*ast.SelectorExpr); ok && (sel.Sel.Name == "Deadline" || sel.Sel.Name == "Timeout") {
					given[c.identObj(sel.X)] = true
				}
				if len(n.Lhs) == len(n.Rhs) && c.identObj(l) == obj {
					if w := c.wrappedConn(n.Rhs[i]); w != nil {
						wrapped = w
					}
				}
			}
		case *ast.ValueSpec:
			for i, name := range n.Names {
				if c.pass.TypesInfo.ObjectOf(name) == obj && i < len(n.Values) {
					if w := c.wrappedConn(n.Values[i]); w != nil {
						wrapped = w
					}
				}
			}
		case *ast.CallExpr:
			if sel, ok := ast.Unparen(n.Fun).(*ast.SelectorExpr); ok {
				switch {
				case sel.Sel.Name == "SetDeadline":
					given[c.identObj(sel.X)] = true
				case sel.Sel.Name == "Deadline" && analysisutil.IsContext(c.pass.TypesInfo.TypeOf(sel.X)):
					readsDeadline = true
				}
			}
		}
		return true
	})
	return readsDeadline && (given[obj] || wrapped != nil && given[wrapped])
}

// wrappedConn returns the connection a TLS connection is made around
// (tls.Client(conn, cfg), tls.Server(conn, cfg)), when it is a variable.
func (c *checker) wrappedConn(e ast.Expr) types.Object {
	call, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok || len(call.Args) == 0 {
		return nil
	}
	fn := analysisutil.CalleeFunc(c.pass.TypesInfo, call)
	if fn == nil || fn.FullName() != "crypto/tls.Client" && fn.FullName() != "crypto/tls.Server" {
		return nil
	}
	if id, ok := ast.Unparen(call.Args[0]).(*ast.Ident); ok {
		return c.pass.TypesInfo.ObjectOf(id)
	}
	return nil
}

// identObj returns the object a plain identifier names, or nil.
func (c *checker) identObj(e ast.Expr) types.Object {
	if id, ok := ast.Unparen(e).(*ast.Ident); ok {
		return c.pass.TypesInfo.ObjectOf(id)
	}
	return nil
}

// handsLocalDB reports whether the call is handed the package's
// in-process database (a *sql.DB, Tx, Conn or Stmt where the database is
// SQLite): a helper given it (sqlutil.TxStmt(txn, stmt)) does local work.
func (c *checker) handsLocalDB(call *ast.CallExpr) bool {
	if !c.sum.LocalDatabase() {
		return false
	}
	for _, a := range call.Args {
		if analysisutil.IsSQLHandle(c.pass.TypesInfo.TypeOf(a)) {
			return true
		}
	}
	return false
}

// localDial reports whether a dial's network is a constant naming a
// Unix socket: it connects to a local process at once, and has nothing
// to wait for that a context would bound.
func (c *checker) localDial(call *ast.CallExpr) bool {
	callee := analysisutil.CalleeFunc(c.pass.TypesInfo, call)
	if callee == nil || len(call.Args) == 0 {
		return false
	}
	switch callee.FullName() {
	case "net.Dial", "net.DialTimeout", "crypto/tls.Dial":
	default:
		return false
	}
	tv, ok := c.pass.TypesInfo.Types[call.Args[0]]
	if !ok || tv.Value == nil || tv.Value.Kind() != constant.String {
		return false
	}
	return strings.HasPrefix(constant.StringVal(tv.Value), "unix")
}

// setUp reports whether an SQL call is schema set-up, by the engine's
// reading of its statement (Result.SetUp).
func (c *checker) setUp(call *ast.CallExpr) bool {
	return c.sum.SetUp(call.Lparen)
}

// workGetsCtx reports whether a func literal passed to the call captures
// a context of the enclosing function: the work the plain function runs
// (graceful.Graceful(func() error { return w.Run(ctx) }, …)) has the
// caller's context already, and the variant's would govern only the
// wrapper's own wait.
func (c *checker) workGetsCtx(call *ast.CallExpr) bool {
	for _, a := range call.Args {
		lit, ok := ast.Unparen(a).(*ast.FuncLit)
		if !ok {
			continue
		}
		found := false
		ast.Inspect(lit.Body, func(n ast.Node) bool {
			id, ok := n.(*ast.Ident)
			if !ok || found {
				return !found
			}
			if v, ok := c.pass.TypesInfo.Uses[id].(*types.Var); ok && !v.IsField() && (v.Pos() < lit.Pos() || v.Pos() >= lit.End()) && analysisutil.IsContext(v.Type()) {
				found = true
			}
			return true
		})
		if found {
			return true
		}
	}
	return false
}

// attachedAtOnce reports whether the call's result gets a context in the
// same expression: httptest.NewRequest(…).WithContext(ctx).
func attachedAtOnce(cur inspector.Cursor) bool {
	if cur.ParentEdgeKind() != edge.SelectorExpr_X {
		return false
	}
	sel := cur.Parent().Node().(*ast.SelectorExpr)
	if sel.Sel.Name != "WithContext" && sel.Sel.Name != "Clone" {
		return false
	}
	return cur.Parent().ParentEdgeKind() == edge.CallExpr_Fun
}

func (c *checker) reportTwin(call *ast.CallExpr, callee *types.Func, twin knowledge.Twin, sc *inScope) {
	d := analysis.Diagnostic{
		Pos:      call.Fun.Pos(),
		End:      call.End(),
		Category: categoryTwin,
		Message: fmt.Sprintf("%s ignores the caller's context while %s is available, so its work outlives the caller's deadline and cancellation; use %s with %s",
			analysisutil.FuncName(callee), sc.expr, twin.Display, sc.expr),
	}
	if fix, ok := c.fixes.callTwin(call, twin, sc); ok {
		d.SuggestedFixes = []analysis.SuggestedFix{fix}
	}
	c.rep.Report(d)
}

func (c *checker) reportDrop(call *ast.CallExpr, callee *types.Func, drop *summary.Drop, sc *inScope, more []*ast.CallExpr) {
	fname := analysisutil.FuncName(callee)
	own := analysisutil.ModulePath(c.pass)
	if drop.Module != "" && own != "" && drop.Module != own {
		// The root context is made inside a dependency: adding a
		// parameter to the user's own helper would not reach it. Report
		// only when a call on the way has a context-taking alternative,
		// and name it.
		// The user can change their own call and the calls made in their
		// own module on the way, not the dependency's.
		chain := append([]summary.Link{{Func: fname, Alt: c.sum.ContextAlternative(callee), Module: own}}, drop.Chain...)
		for _, l := range chain {
			if l.Alt == "" || l.Module != own {
				continue
			}
			c.rep.Report(analysis.Diagnostic{
				Pos:      call.Fun.Pos(),
				End:      call.End(),
				Category: categoryDrop,
				Message: fmt.Sprintf("call to %s drops the caller's context: %s makes its own %s in %s (%s); call %s with %s instead",
					fname, l.Func, shortRoot(drop.Root), drop.Module, drop.At, l.Alt, sc.expr),
				Related: []analysis.RelatedInformation{{Pos: callee.Pos(), Message: fname + " takes no context"}},
			})
			return
		}
		return
	}
	where := drop.At
	if len(drop.Chain) > 0 {
		var via []string
		for _, l := range drop.Chain {
			via = append(via, l.Func)
		}
		where += " via " + strings.Join(via, " -> ")
	}
	related := []analysis.RelatedInformation{{Pos: callee.Pos(), Message: fname + " takes no context"}}
	for i, p := range c.sum.DropPositions(callee) {
		if i == maxRelated {
			break
		}
		related = append(related, analysis.RelatedInformation{Pos: p, Message: "on the way to the root context"})
	}
	msg := fmt.Sprintf("call to %s drops the caller's context: it makes its own %s for context-taking work (%s); add a context.Context parameter to %s and pass %s",
		fname, shortRoot(drop.Root), where, fname, sc.expr)
	if drop.Via != "" {
		msg = fmt.Sprintf("call to %s drops the caller's context: it calls %s, which takes none (%s); add a context.Context parameter to %s and call %s with it",
			fname, drop.Via, where, fname, drop.Twin)
	}
	if len(more) > 0 {
		if len(more) == 1 {
			msg += " (1 more call in this package)"
		} else {
			msg += fmt.Sprintf(" (%d more calls in this package)", len(more))
		}
		for i, m := range more {
			if i == maxRelated {
				break
			}
			related = append(related, analysis.RelatedInformation{Pos: m.Fun.Pos(), End: m.End(), Message: "another call to " + fname})
		}
	}
	c.rep.Report(analysis.Diagnostic{
		Pos:      call.Fun.Pos(),
		End:      call.End(),
		Category: categoryDrop,
		Message:  msg,
		Related:  related,
	})
}

// twinOf returns the context-taking twin of callee: from the knowledge
// table, else by the naming rule (M and MContext or MWithContext with the
// same parameters after a leading context and the same results).
func (c *checker) twinOf(call *ast.CallExpr, callee *types.Func) (knowledge.Twin, bool) {
	if t, ok := knowledge.TwinOf(callee.FullName()); ok {
		return t, true
	}
	fn, recv := c.instantiated(call)
	if fn == nil {
		return knowledge.Twin{}, false
	}
	for _, suffix := range []string{"Context", "WithContext"} {
		tname := fn.Name() + suffix
		var obj types.Object
		if recv != nil {
			obj, _, _ = types.LookupFieldOrMethod(recv, true, c.pass.Pkg, tname)
		} else if fn.Pkg() != nil {
			obj = fn.Pkg().Scope().Lookup(tname)
			if obj != nil && !obj.Exported() && fn.Pkg() != c.pass.Pkg {
				obj = nil
			}
		}
		tfn, ok := obj.(*types.Func)
		// An alternative that keeps its context for later (go-oidc's
		// VerifierContext) wants a long-lived one, not the request's.
		if !ok || knowledge.IsValueOnlyContextSink(tfn.Origin().FullName()) || knowledge.RetainsContext(tfn.Origin().FullName()) || !isTwinSignature(fn, tfn) {
			continue
		}
		// Found by name, not in the table: only a context that bounds
		// outbound work or a wait makes the alternative worth its
		// context (a process-info or resource-detection variant reads
		// local state). The standard library has no facts; its
		// name-found alternatives (net.Dialer.DialContext) do I/O.
		if !analysisutil.IsStdPath(tfn.Pkg().Path()) {
			if s := c.sum.Of(tfn); s == nil || !slices.Contains(s.CtxIO, 0) {
				continue
			}
			// And the plain function is the variant without a context
			// only if it waits or makes its own context: a getter that
			// returns at once beside a variant that waits for the value
			// (PrimaryInfo, PrimaryInfoWithContext) is not, and the swap
			// would make the caller wait.
			if s := c.sum.Of(fn); s == nil || !s.Waits && s.DropsCtx == nil {
				continue
			}
		}
		if recv != nil && !c.receiverFits(recv, fn, tfn) {
			return knowledge.Twin{Name: tfn.FullName(), Display: tname}, true
		}
		return knowledge.Twin{Name: tfn.FullName(), Display: tname, Method: tname, Rewrite: knowledge.RenameInsertCtx}, true
	}
	return knowledge.Twin{}, false
}

// instantiated returns the called function as seen at the call (methods of
// instantiated generic types keep their instantiated signature) and, for
// method calls, the receiver expression's type.
func (c *checker) instantiated(call *ast.CallExpr) (*types.Func, types.Type) {
	switch f := ast.Unparen(call.Fun).(type) {
	case *ast.SelectorExpr:
		if sel, ok := c.pass.TypesInfo.Selections[f]; ok {
			if sel.Kind() != types.MethodVal {
				return nil, nil // method expressions: T.M(recv, …)
			}
			fn, _ := sel.Obj().(*types.Func)
			return fn, sel.Recv()
		}
		fn, _ := c.pass.TypesInfo.Uses[f.Sel].(*types.Func)
		if fn != nil && fn.Type().(*types.Signature).TypeParams().Len() > 0 {
			return nil, nil
		}
		return fn, nil
	case *ast.Ident:
		fn, _ := c.pass.TypesInfo.Uses[f].(*types.Func)
		if fn != nil && fn.Type().(*types.Signature).TypeParams().Len() > 0 {
			return nil, nil
		}
		return fn, nil
	}
	return nil, nil
}

// receiverFits reports whether renaming the method keeps the call valid:
// a twin with a pointer receiver needs an addressable or pointer operand,
// which the original call guarantees only if it had one too.
func (c *checker) receiverFits(recv types.Type, fn, twin *types.Func) bool {
	if _, ok := recv.Underlying().(*types.Pointer); ok {
		return true
	}
	return ptrRecv(twin) == ptrRecv(fn) || !ptrRecv(twin)
}

func ptrRecv(fn *types.Func) bool {
	r := fn.Type().(*types.Signature).Recv()
	if r == nil {
		return false
	}
	_, ok := r.Type().(*types.Pointer)
	return ok
}

// isTwinSignature reports whether twin's parameters are a context followed
// by fn's parameters, with identical results.
func isTwinSignature(fn, twin *types.Func) bool {
	s, t := fn.Type().(*types.Signature), twin.Type().(*types.Signature)
	if t.Params().Len() != s.Params().Len()+1 || !analysisutil.IsContext(t.Params().At(0).Type()) || s.Variadic() != t.Variadic() {
		return false
	}
	for i := range s.Params().Len() {
		if !types.Identical(s.Params().At(i).Type(), t.Params().At(i+1).Type()) {
			return false
		}
	}
	if s.Results().Len() != t.Results().Len() {
		return false
	}
	for i := range s.Results().Len() {
		if !types.Identical(s.Results().At(i).Type(), t.Results().At(i).Type()) {
			return false
		}
	}
	return true
}

// ctxOf returns the context a function can pass on: its first named
// context.Context parameter, else its first named *http.Request parameter
// (as r.Context()), else, for a closure, a context or request it captures
// from an enclosing function that has one. A function whose context
// parameter is blank or unnamed ignores it on purpose and gets nil.
func (c *checker) ctxOf(fn inspector.Cursor) *inScope {
	n := fn.Node()
	if sc, ok := c.scope[n]; ok {
		return sc
	}
	sc := c.computeCtxOf(fn)
	c.scope[n] = sc
	return sc
}

func (c *checker) computeCtxOf(fn inspector.Cursor) *inScope {
	ftype := analysisutil.FuncType(fn.Node())
	hasOwn := false
	for _, want := range []func(types.Type) bool{analysisutil.IsContext, analysisutil.IsHTTPRequestPtr, analysisutil.ImplementsContext} {
		for _, f := range ftype.Params.List {
			if !want(c.pass.TypesInfo.TypeOf(f.Type)) {
				continue
			}
			hasOwn = true
			for _, id := range f.Names {
				if v, ok := c.pass.TypesInfo.Defs[id].(*types.Var); ok && id.Name != "_" {
					if analysisutil.IsHTTPRequestPtr(v.Type()) && c.buildsOutgoing(fn, ftype, v) {
						return nil
					}
					if c.sum.RootParam(v) {
						continue // every caller passes a root: nothing to drop
					}
					return newInScope(v)
				}
			}
		}
	}
	lit, ok := fn.Node().(*ast.FuncLit)
	if hasOwn || !ok {
		return nil
	}
	// A closure has the context it captures.
	var found *inScope
	for cur := range fn.Preorder((*ast.Ident)(nil)) {
		v, ok := c.pass.TypesInfo.Uses[cur.Node().(*ast.Ident)].(*types.Var)
		if !ok || v.IsField() || v.Pkg() == nil || v.Parent() == v.Pkg().Scope() || lit.Pos() <= v.Pos() && v.Pos() < lit.End() {
			continue
		}
		isCtx := analysisutil.IsContext(v.Type())
		if !isCtx && !analysisutil.IsHTTPRequestPtr(v.Type()) {
			continue
		}
		if !c.capturedIsRequestScoped(fn, v) || isCtx && (c.onlyWatched(cur) || c.sum.RootParam(v)) {
			continue
		}
		if isCtx {
			return newInScope(v)
		}
		if found == nil {
			found = newInScope(v)
		}
	}
	if found == nil {
		if outer, ok := c.joinedGoroutine(fn); ok {
			// The function waits for this goroutine: its work is the
			// function's, and so is the context in scope there.
			return c.ctxOf(outer)
		}
	}
	return found
}

// joinedGoroutine reports whether the closure at fn runs as a goroutine
// that the function making it waits for (go func() { defer wg.Done(); … }()
// before wg.Wait(), wg.Go(func() { … }), or g.Go(func() error { … })
// before g.Wait()), and returns that function.
func (c *checker) joinedGoroutine(fn inspector.Cursor) (inspector.Cursor, bool) {
	var outer inspector.Cursor
	found := false
	for e := range fn.Parent().Enclosing((*ast.FuncDecl)(nil), (*ast.FuncLit)(nil)) {
		outer, found = e, true
		break
	}
	if !found {
		return outer, false
	}
	call, ok := fn.Parent().Node().(*ast.CallExpr)
	if !ok {
		return outer, false
	}
	started := false
	switch {
	case call.Fun == fn.Node():
		_, started = fn.Parent().Parent().Node().(*ast.GoStmt)
	case len(call.Args) == 1 && call.Args[0] == fn.Node():
		callee := analysisutil.CalleeFunc(c.pass.TypesInfo, call)
		started = callee != nil && knowledge.StartsGroupGoroutine(callee.FullName())
	}
	if !started {
		return outer, false
	}
	for cur := range outer.Preorder((*ast.CallExpr)(nil)) {
		if callee := analysisutil.CalleeFunc(c.pass.TypesInfo, cur.Node().(*ast.CallExpr)); callee != nil && knowledge.JoinsGoroutines(callee.FullName()) {
			return outer, true
		}
	}
	return outer, false
}

// buildsOutgoing reports whether the *http.Request parameter v of the
// function at fn is an outgoing request being built, not the caller's:
// the function serves no response (no http.ResponseWriter parameter),
// sets headers, credentials or cookies on it, and never reads its
// context. Such a request's context is whatever its builder gave it
// (http.NewRequest's is context.Background()), so it is no caller context.
func (c *checker) buildsOutgoing(fn inspector.Cursor, ftype *ast.FuncType, v *types.Var) bool {
	for _, f := range ftype.Params.List {
		if t, ok := types.Unalias(c.pass.TypesInfo.TypeOf(f.Type)).(*types.Named); ok && t.Obj().Pkg() != nil && t.Obj().Pkg().Path() == "net/http" && t.Obj().Name() == "ResponseWriter" {
			return false
		}
	}
	writes, readsCtx := false, false
	for cur := range fn.Preorder((*ast.CallExpr)(nil)) {
		sel, ok := ast.Unparen(cur.Node().(*ast.CallExpr).Fun).(*ast.SelectorExpr)
		if !ok {
			continue
		}
		// r.Context(), r.SetBasicAuth(…), r.AddCookie(…) on v; and
		// r.Header.Set(…), r.Header.Add(…) through its Header field.
		recv := ast.Unparen(sel.X)
		if inner, ok := recv.(*ast.SelectorExpr); ok && inner.Sel.Name == "Header" {
			recv = ast.Unparen(inner.X)
			if id, ok := recv.(*ast.Ident); ok && c.pass.TypesInfo.Uses[id] == v && (sel.Sel.Name == "Set" || sel.Sel.Name == "Add" || sel.Sel.Name == "Del") {
				writes = true
			}
			continue
		}
		id, ok := recv.(*ast.Ident)
		if !ok || c.pass.TypesInfo.Uses[id] != v {
			continue
		}
		switch sel.Sel.Name {
		case "Context":
			readsCtx = true
		case "SetBasicAuth", "AddCookie":
			writes = true
		}
	}
	return writes && !readsCtx
}

// onlyWatched reports whether the captured context at cur is used only
// as a lifetime signal (ctx.Done(), ctx.Err()) or to detach from it
// (context.WithoutCancel(ctx)): a goroutine that watches
// the caller's context to know when to stop runs background work on its own
// schedule, and its calls are not the caller's request. The closure still
// has the context if any other use of it appears.
func (c *checker) onlyWatched(cur inspector.Cursor) bool {
	obj := c.pass.TypesInfo.Uses[cur.Node().(*ast.Ident)]
	lit, _ := enclosingFunc(cur)
	for u := range lit.Preorder((*ast.Ident)(nil)) {
		if c.pass.TypesInfo.Uses[u.Node().(*ast.Ident)] != obj {
			continue
		}
		if u.ParentEdgeKind() == edge.CallExpr_Args {
			// context.WithoutCancel(ctx): the closure detaches on purpose.
			if fn := analysisutil.CalleeFunc(c.pass.TypesInfo, u.Parent().Node().(*ast.CallExpr)); fn != nil && fn.FullName() == "context.WithoutCancel" {
				continue
			}
			return false
		}
		sel, ok := u.Parent().Node().(*ast.SelectorExpr)
		if !ok || u.ParentEdgeKind() != edge.SelectorExpr_X || sel.Sel.Name != "Done" && sel.Sel.Name != "Err" {
			return false
		}
	}
	return true
}

// capturedIsRequestScoped reports whether a variable captured by the
// closure at fn is a parameter of an enclosing function, or a local of an
// enclosing function that itself has a context (so the local derives from
// the request rather than from a root context of main).
func (c *checker) capturedIsRequestScoped(fn inspector.Cursor, v *types.Var) bool {
	for e := range fn.Parent().Enclosing((*ast.FuncDecl)(nil), (*ast.FuncLit)(nil)) {
		n := e.Node()
		if v.Pos() < n.Pos() || v.Pos() >= n.End() {
			continue
		}
		if ftype := analysisutil.FuncType(n); ftype.Pos() <= v.Pos() && v.Pos() < ftype.End() {
			return true // a parameter
		}
		return c.ctxOf(e) != nil
	}
	return false
}

func newInScope(v *types.Var) *inScope {
	if analysisutil.IsHTTPRequestPtr(v.Type()) {
		return &inScope{obj: v, expr: v.Name() + ".Context()"}
	}
	return &inScope{obj: v, expr: v.Name()}
}

// isCleanup reports whether code at cur runs after the context in scope is
// done, where a fresh context is the right choice: inside a deferred
// closure, inside a "case <-ctx.Done():" or "if ctx.Err() != nil" block, or
// after a statement that waits for <-ctx.Done().
func (c *checker) isCleanup(cur, owner inspector.Cursor) bool {
	for a := cur; a.Index() != owner.Index(); a = a.Parent() {
		if !a.Valid() {
			return false
		}
		switch n := a.Node().(type) {
		case *ast.FuncLit:
			if c.isDeferredLit(n) {
				return true
			}
		case *ast.CommClause:
			if c.waitsDone(n.Comm) {
				return true
			}
		case *ast.IfStmt:
			if a.ParentEdgeKind() != edge.IfStmt_Else && c.checksErr(n.Cond) && cur.Node().Pos() >= n.Body.Pos() && cur.Node().End() <= n.Body.End() {
				return true
			}
		}
		switch a.ParentEdgeKind() {
		case edge.BlockStmt_List, edge.CaseClause_Body, edge.CommClause_Body:
			for p, ok := a.PrevSibling(); ok; p, ok = p.PrevSibling() {
				if c.doneBefore(p.Node()) || c.loopEndsOnDone(p.Node()) {
					return true
				}
			}
		}
	}
	return false
}

// loopEndsOnDone reports whether the statement is a loop that ends when
// the context is done: a select case on ctx.Done() in its body breaks out
// of it (break with its label) or sets a variable its condition tests
// (for err == nil { select { case <-ctx.Done(): err = ctx.Err() } }).
// What follows it is the final flush or report, run after the context
// is done.
func (c *checker) loopEndsOnDone(n ast.Node) bool {
	var label string
	if ls, ok := n.(*ast.LabeledStmt); ok {
		label, n = ls.Label.Name, ls.Stmt
	}
	loop, ok := n.(*ast.ForStmt)
	if !ok {
		return false
	}
	condVars := map[types.Object]bool{}
	if loop.Cond != nil {
		ast.Inspect(loop.Cond, func(x ast.Node) bool {
			if id, ok := x.(*ast.Ident); ok {
				if obj := c.pass.TypesInfo.Uses[id]; obj != nil {
					condVars[obj] = true
				}
			}
			return true
		})
	}
	ends := false
	ast.Inspect(loop.Body, func(x ast.Node) bool {
		cl, ok := x.(*ast.CommClause)
		if !ok || ends {
			return !ends
		}
		if !c.waitsDone(cl.Comm) {
			return true
		}
		for _, st := range cl.Body {
			switch st := st.(type) {
			case *ast.BranchStmt:
				if st.Tok == token.BREAK && st.Label != nil && st.Label.Name == label && label != "" {
					ends = true
				}
			case *ast.AssignStmt:
				for _, l := range st.Lhs {
					if id, ok := l.(*ast.Ident); ok && condVars[c.pass.TypesInfo.ObjectOf(id)] {
						ends = true
					}
				}
			}
		}
		return !ends
	})
	return ends
}

// waitsDone reports whether the statement receives from ctx.Done() (as a
// statement, an assignment, or a select case).
func (c *checker) waitsDone(n ast.Node) bool {
	switch s := n.(type) {
	case *ast.ExprStmt:
		return c.isDoneRecv(s.X)
	case *ast.AssignStmt:
		return len(s.Rhs) == 1 && c.isDoneRecv(s.Rhs[0])
	case *ast.SelectStmt:
		for _, cc := range s.Body.List {
			if cl, ok := cc.(*ast.CommClause); ok && c.waitsDone(cl.Comm) {
				return true
			}
		}
	}
	return false
}

// doneBefore reports whether the statements after n run only once the
// context is done: n waits for <-ctx.Done(), or is a select whose
// ctx.Done() case carries on past it. A select whose Done case returns
// (select { case <-ctx.Done(): return; case <-tick.C: }) lets only its
// other cases through: what follows runs while the context is live.
func (c *checker) doneBefore(n ast.Node) bool {
	sel, ok := n.(*ast.SelectStmt)
	if !ok {
		return c.waitsDone(n)
	}
	for _, cc := range sel.Body.List {
		if cl, ok := cc.(*ast.CommClause); ok && c.waitsDone(cl.Comm) && !terminates(cl.Body) {
			return true
		}
	}
	return false
}

// terminates reports whether a select case's statements end by leaving
// the flow after the select: a return, a continue, a goto, a labelled
// break, or a panic.
func terminates(list []ast.Stmt) bool {
	if len(list) == 0 {
		return false
	}
	switch s := list[len(list)-1].(type) {
	case *ast.ReturnStmt:
		return true
	case *ast.BranchStmt:
		// A plain break leaves only the select: what follows it runs.
		return s.Tok != token.BREAK || s.Label != nil
	case *ast.ExprStmt:
		if call, ok := s.X.(*ast.CallExpr); ok {
			if id, ok := call.Fun.(*ast.Ident); ok && id.Name == "panic" {
				return true
			}
		}
	case *ast.BlockStmt:
		return terminates(s.List)
	}
	return false
}

func (c *checker) isDoneRecv(e ast.Expr) bool {
	u, ok := ast.Unparen(e).(*ast.UnaryExpr)
	if !ok || u.Op != token.ARROW {
		return false
	}
	return c.isCtxMethodCall(u.X, "Done")
}

// checksErr reports whether cond calls ctx.Err().
func (c *checker) checksErr(cond ast.Expr) bool {
	found := false
	ast.Inspect(cond, func(n ast.Node) bool {
		if e, ok := n.(ast.Expr); ok && c.isCtxMethodCall(e, "Err") {
			found = true
		}
		return !found
	})
	return found
}

func (c *checker) isCtxMethodCall(e ast.Expr, method string) bool {
	call, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok {
		return false
	}
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	return ok && sel.Sel.Name == method && analysisutil.IsContext(c.pass.TypesInfo.TypeOf(sel.X))
}

// isDeferredLit reports whether n is a function literal called by a defer
// statement.
func (c *checker) isDeferredLit(n ast.Node) bool {
	lit, ok := n.(*ast.FuncLit)
	return ok && c.deferred[lit]
}

func enclosingFunc(cur inspector.Cursor) (inspector.Cursor, bool) {
	for e := range cur.Enclosing((*ast.FuncDecl)(nil), (*ast.FuncLit)(nil)) {
		return e, true
	}
	return inspector.Cursor{}, false
}

// shortRoot turns "context.Background" into "context.Background()".
func shortRoot(full string) string { return full + "()" }
