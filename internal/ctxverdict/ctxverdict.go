// Package ctxverdict decides ctxdrop's rules for a package, once, for the
// analyzers that read them: which root-context creations (rule 1) and
// which calls of functions with a context-taking twin (rule 2) drop the
// context in scope, and which calls of functions that make their own root
// context do (rule 3).
//
// ctxdrop reports the verdicts. notimeout leaves to ctxdrop exactly the
// roots and twin calls of rules 1 and 2 (Result.HandedOff), whose fix is
// to pass the context in scope, and reports every other one that reaches
// a call with no deadline. Both Require the one analyzer For returns for
// their summary analyzer, so the rules run once per package whether one
// or both of them run, the two cannot disagree, and neither imports the
// other.
//
// The verdicts are decided on the syntax tree, with the summary's claims
// for what only SSA sees (where a root context flows, DropsCtx, set-up
// and local work). No option changes them: which verdicts are reported
// (include-tests, generated files, directives) is the reporting
// analyzers' business, so test files count here whatever the options.
package ctxverdict

import (
	"go/ast"
	"go/token"
	"go/types"
	"reflect"
	"sync"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/passes/inspect"
	"golang.org/x/tools/go/ast/edge"
	"golang.org/x/tools/go/ast/inspector"

	"github.com/resilvet/resilvet/internal/analysisutil"
	"github.com/resilvet/resilvet/internal/knowledge"
	"github.com/resilvet/resilvet/internal/report"
	"github.com/resilvet/resilvet/internal/summary"
)

// Analyzer is the verdict analyzer of the default summary analyzer,
// which the reporting analyzers' default instances require.
var Analyzer = For(summary.Analyzer)

// shared holds the one verdict analyzer of each summary analyzer.
var shared struct {
	sync.Mutex
	bySum map[*analysis.Analyzer]*analysis.Analyzer
}

// For returns the verdict analyzer that reads the summaries of sum (a
// summary analyzer): the same analyzer on every call, so analyzers built
// one at a time (the golangci-lint plugin builds each linter's own) share
// it whenever they share their summary analyzer, and a package's
// verdicts are decided once in a run.
func For(sum *analysis.Analyzer) *analysis.Analyzer {
	shared.Lock()
	defer shared.Unlock()
	if a := shared.bySum[sum]; a != nil {
		return a
	}
	a := &analysis.Analyzer{
		Name:       "resilvetctxverdict",
		Doc:        "decide, once per package, which root contexts and calls drop the context in scope (ctxdrop's rules), for ctxdrop and notimeout",
		URL:        analysisutil.URL("ctxdrop"),
		Requires:   []*analysis.Analyzer{inspect.Analyzer, sum},
		Run:        func(pass *analysis.Pass) (any, error) { return run(pass, sum), nil },
		ResultType: reflect.TypeFor[*Result](),
	}
	if shared.bySum == nil {
		shared.bySum = map[*analysis.Analyzer]*analysis.Analyzer{}
	}
	shared.bySum[sum] = a
	return a
}

// Result holds a package's verdicts. They are decided on first use, once,
// and are safe to read from analyzers running at the same time: notimeout
// asks only when one of its findings comes from a root context, so
// without ctxdrop most packages never decide them.
type Result struct {
	compute func()
	once    sync.Once

	calls   []Verdict
	drops   []*Drop
	handoff map[token.Pos]bool
	// callAt maps a call's opening parenthesis, the position the SSA
	// summaries keep, to the call expression.
	callAt map[token.Pos]*ast.CallExpr
}

// Verdict is the verdict on a call that drops the context in scope by
// rule 1 (*Root) or rule 2 (*Twin).
type Verdict interface{ verdict() }

// Scope is the context a function can pass on.
type Scope struct {
	Var  *types.Var // the context.Context or *http.Request variable
	Expr string     // how to write it: "ctx" or "r.Context()"
}

// Root is rule 1's verdict: a root-context creation whose context reaches
// Sinks (at least one), where Scope could have been passed instead.
// Directives on a sink's line are not applied: what the author marked is
// the reporting analyzer's to read.
type Root struct {
	Call  *ast.CallExpr
	Use   *summary.RootUse
	Scope *Scope
	Sinks []summary.Sink
}

// Twin is rule 2's verdict: a call of Callee, which has the
// context-taking Twin, where Scope is available.
type Twin struct {
	Call   *ast.CallExpr
	Callee *types.Func
	Twin   knowledge.Twin
	Scope  *Scope
}

// Drop is rule 3's verdict: a call, where Scope is available, of Callee,
// which takes no context and makes its own for context-taking work
// (Drop, its DropsCtx claim).
type Drop struct {
	Call   *ast.CallExpr
	Callee *types.Func
	Drop   *summary.Drop
	Scope  *Scope
}

func (*Root) verdict() {}
func (*Twin) verdict() {}

// Calls returns the verdicts of rules 1 and 2, in source order.
func (r *Result) Calls() []Verdict { r.ready(); return r.calls }

// Drops returns the verdicts of rule 3, in source order.
func (r *Result) Drops() []*Drop { r.ready(); return r.drops }

// HandedOff reports whether the call whose opening parenthesis is at
// lparen is a root-context creation or a twin call that rules 1 and 2
// judge dropped, whether or not a directive silences ctxdrop there: the
// hand-off between the analyzers. notimeout leaves exactly these to
// ctxdrop, and reports every other root or twin that reaches a call with
// no deadline, including the ones the rules decline by design: a
// goroutine that only watches ctx.Done(), an unnamed context parameter, a
// detachment whose comment explains it, work after the context is done.
func (r *Result) HandedOff(lparen token.Pos) bool { r.ready(); return r.handoff[lparen] }

// CallAt returns the call whose opening parenthesis is at lparen, or nil.
func (r *Result) CallAt(lparen token.Pos) *ast.CallExpr { r.ready(); return r.callAt[lparen] }

func (r *Result) ready() {
	if r.compute != nil {
		r.once.Do(r.compute)
	}
}

func run(pass *analysis.Pass, summaries *analysis.Analyzer) *Result {
	// Fast path: a function can only have a context in scope if its
	// package names context.Context or *http.Request.
	if !analysisutil.Imports(pass, "context", "net/http") {
		return &Result{}
	}
	sum := pass.ResultOf[summaries].(*summary.Result)
	ins := pass.ResultOf[inspect.Analyzer].(*inspector.Inspector)
	res := &Result{}
	res.compute = func() { newJudge(pass, sum, ins).decide(ins, res) }
	return res
}

// judge decides the rules in one package.
type judge struct {
	pass     *analysis.Pass
	sum      *summary.Result
	comments *report.Comments
	scope    map[ast.Node]*Scope // memoized ctxOf
	// deferred holds the function literals called by defer statements:
	// cleanup that may run after the request context is done.
	deferred map[*ast.FuncLit]bool
	callAt   map[token.Pos]*ast.CallExpr
}

func newJudge(pass *analysis.Pass, sum *summary.Result, ins *inspector.Inspector) *judge {
	j := &judge{
		pass:     pass,
		sum:      sum,
		comments: report.NewComments(pass),
		scope:    map[ast.Node]*Scope{},
		deferred: map[*ast.FuncLit]bool{},
		callAt:   map[token.Pos]*ast.CallExpr{},
	}
	for cur := range ins.Root().Preorder((*ast.DeferStmt)(nil), (*ast.CallExpr)(nil)) {
		switch n := cur.Node().(type) {
		case *ast.DeferStmt:
			if lit, ok := ast.Unparen(n.Call.Fun).(*ast.FuncLit); ok {
				j.deferred[lit] = true
			}
		case *ast.CallExpr:
			j.callAt[n.Lparen] = n
		}
	}
	return j
}

// decide applies the rules to every call of the package, in source
// order: rule 1 to root-context creations, rules 2 and 3 to calls that
// take no context made where one is in scope.
func (j *judge) decide(ins *inspector.Inspector, res *Result) {
	res.callAt, res.handoff = j.callAt, map[token.Pos]bool{}
	roots := map[token.Pos]*summary.RootUse{}
	for _, u := range j.sum.Roots() {
		roots[u.Pos] = u
	}
	for cur := range ins.Root().Preorder((*ast.CallExpr)(nil)) {
		call := cur.Node().(*ast.CallExpr)
		if u := roots[call.Lparen]; u != nil {
			if sc, sinks := j.rootVerdict(cur, call, u); len(sinks) > 0 {
				res.calls = append(res.calls, &Root{Call: call, Use: u, Scope: sc, Sinks: sinks})
				res.handoff[call.Lparen] = true
			}
			continue
		}
		callee, sc, ok := j.plainCallWithCtx(cur, call)
		if !ok {
			continue
		}
		if twin, isTwin := j.twinOf(call, callee); isTwin {
			if j.twinVerdict(cur, call, twin, sc) {
				res.calls = append(res.calls, &Twin{Call: call, Callee: callee, Twin: twin, Scope: sc})
				res.handoff[call.Lparen] = true
			}
			continue
		}
		if d := j.dropVerdict(cur, call, callee, sc); d != nil {
			res.drops = append(res.drops, d)
		}
	}
}

// dropVerdict decides rule 3 for a call of a function that takes no
// context and has no context-taking twin, made where sc is in scope: the
// callee makes its own root context for context-taking work (DropsCtx).
func (j *judge) dropVerdict(cur inspector.Cursor, call *ast.CallExpr, callee *types.Func, sc *Scope) *Drop {
	owner, _ := enclosingFunc(cur)
	s := j.sum.Of(callee)
	if s == nil || s.DropsCtx == nil || j.isCleanup(cur, owner) || knowledge.IsMigrationName(analysisutil.FuncName(callee)) || j.handsLocalDB(call) {
		return nil
	}
	// A goroutine or deferred call runs on its own lifetime, not the
	// caller's request (the summary makes the same choice inside callees).
	switch cur.ParentEdgeKind() {
	case edge.GoStmt_Call, edge.DeferStmt_Call:
		return nil
	}
	if s.DropsCtx.Bounded && !j.servesRequest(owner, sc) {
		// The helper bounds its own root (a 2-second probe, a start-up
		// fetch): as for a root bounded where it is made in the caller,
		// a deliberate detachment unless a request is being served.
		return nil
	}
	return &Drop{Call: call, Callee: callee, Drop: s.DropsCtx, Scope: sc}
}
