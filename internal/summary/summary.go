// Package summary defines the analyzer that owns all of resilvet's facts.
// It computes, once per package, a summary of every function that the
// four reporting analyzers query: how root contexts are created and where
// they flow, which functions drop their caller's context (directly or
// through callees, across packages), and which perform outbound I/O.
//
// The go/analysis framework lets only one analyzer register a fact type,
// and facts flow only between runs of the same analyzer on dependent
// packages, so the reporting analyzers never import facts themselves:
// they Require this analyzer and read its Result, which carries the
// summaries of the package's own functions and of every function it calls
// from other packages.
//
// Standard-library packages get no summaries: some drivers never analyse
// std, so knowledge about it lives in the knowledge tables instead, and
// results do not depend on the driver.
package summary

import (
	"go/ast"
	"go/token"
	"go/types"
	"reflect"
	"sort"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/passes/buildssa"
	"golang.org/x/tools/go/analysis/passes/inspect"
	"golang.org/x/tools/go/ast/inspector"

	"github.com/resilvet/resilvet/internal/analysisutil"
	"github.com/resilvet/resilvet/internal/knowledge"
)

// Analyzer computes function summaries and exports them as facts. Its
// flags are the options shared by all resilvet analyzers; cmd/resilvet
// lifts them to the command line as -resilvet.<flag>, because drivers only
// expose the flags of the analyzers named on the command line.
var Analyzer = &analysis.Analyzer{
	Name:       "resilvetsummary",
	Doc:        "compute per-function resilience summaries (context use, outbound I/O) shared by the resilvet analyzers",
	URL:        analysisutil.URL("summary"),
	Requires:   []*analysis.Analyzer{inspect.Analyzer, buildssa.Analyzer},
	Run:        run,
	FactTypes:  []analysis.Fact{(*FuncSummary)(nil), (*ValueSummary)(nil)},
	ResultType: reflect.TypeFor[*Result](),
}

// Shared options, set through Analyzer.Flags.
var (
	includeTests bool
	outboundList listFlag
)

func init() {
	Analyzer.Flags.BoolVar(&includeTests, "include-tests", false, "report findings in _test.go files too")
	Analyzer.Flags.Var(&outboundList, "outbound", "comma-separated full names of extra outbound functions, e.g. (*example.com/kv.Client).Get")
}

// listFlag is a comma-separated list of function names, validated and
// added to the knowledge tables as it is set, so a typo fails at start-up.
type listFlag struct{ names []string }

func (l *listFlag) String() string {
	if l == nil {
		return ""
	}
	return strings.Join(l.names, ",")
}

func (l *listFlag) Set(v string) error {
	if err := knowledge.AddOutbound(v); err != nil {
		return err
	}
	l.names = append(l.names, v)
	return nil
}

// Result is what the reporting analyzers read.
type Result struct {
	// IncludeTests is the shared option: report in _test.go files too.
	IncludeTests bool

	// Roots lists every root-context creation in the package, in source
	// order, with the places its value flows to.
	Roots []*RootUse

	// Findings lists the outbound calls of the package that nothing
	// bounds in time, in the order the engine met them.
	Findings []*Finding

	// Handlers lists the HTTP handlers (closures included) whose
	// request's context reaches an outbound call unbounded: with no
	// middleware setting a deadline, nothing bounds it (notimeout's edge
	// mode).
	Handlers []HandlerReach

	// grpcTimeoutInterceptor is set when the package builds a gRPC client
	// interceptor that puts a deadline on calls without one.
	grpcTimeoutInterceptor bool

	local    map[*types.Func]*FuncSummary
	imported map[*types.Func]*FuncSummary
	// dropPos holds, for local functions that drop the context, the
	// positions of the chain (each call, then the root creation), for
	// Diagnostic.Related.
	dropPos map[*types.Func][]token.Pos
}

// Of returns the summary of fn (a function of this package or one called
// from it), or nil when there is no claim about it.
func (r *Result) Of(fn *types.Func) *FuncSummary {
	if fn == nil {
		return nil
	}
	fn = fn.Origin()
	if s := r.local[fn]; s != nil {
		return s
	}
	return r.imported[fn]
}

// DropPositions returns, for a function of this package whose summary has
// DropsCtx, the positions of its chain: each call on the way, then the
// root-context creation.
func (r *Result) DropPositions(fn *types.Func) []token.Pos {
	return r.dropPos[fn.Origin()]
}

func run(pass *analysis.Pass) (any, error) {
	ins := pass.ResultOf[inspect.Analyzer].(*inspector.Inspector)
	res := &Result{
		IncludeTests: includeTests,
		local:        map[*types.Func]*FuncSummary{},
		imported:     map[*types.Func]*FuncSummary{},
		dropPos:      map[*types.Func][]token.Pos{},
	}
	std := analysisutil.IsStd(pass)

	type edgeTo struct {
		callee *types.Func
		pos    token.Pos
	}
	type decl struct {
		fn   *types.Func
		cur  inspector.Cursor
		uses []*RootUse
	}
	var (
		decls []decl
		edges = map[*types.Func][]edgeTo{}
	)
	// First the facts that need nothing from other functions.
	for cur := range ins.Root().Preorder((*ast.FuncDecl)(nil)) {
		fd := cur.Node().(*ast.FuncDecl)
		if fd.Body == nil {
			continue
		}
		uses := rootUses(pass.TypesInfo, cur)
		res.Roots = append(res.Roots, uses...)
		fn, _ := pass.TypesInfo.Defs[fd.Name].(*types.Func)
		if fn == nil || std {
			continue
		}
		decls = append(decls, decl{fn, cur, uses})
		res.local[fn] = &FuncSummary{
			Outbound:   outboundKinds(pass.TypesInfo, cur),
			IgnoresCtx: ignoresCtx(pass.TypesInfo, fd),
		}
	}

	// Import the facts of every function called from another package, for
	// the chains below and for the reporting analyzers' call sites.
	if !std {
		for cur := range ins.Root().Preorder((*ast.CallExpr)(nil)) {
			callee := analysisutil.CalleeFunc(pass.TypesInfo, cur.Node().(*ast.CallExpr))
			if callee == nil || callee.Pkg() == nil || callee.Pkg() == pass.Pkg {
				continue
			}
			if _, seen := res.imported[callee]; seen {
				continue
			}
			var s FuncSummary
			if pass.ImportObjectFact(callee, &s) {
				res.imported[callee] = &s
			} else {
				res.imported[callee] = nil
			}
		}
	}

	// Then the direct drops and the call edges of functions without a
	// context.
	for _, d := range decls {
		fd := d.cur.Node().(*ast.FuncDecl)
		sig := d.fn.Type().(*types.Signature)
		if analysisutil.TakesContext(sig) || knowledge.IsCleanupFuncName(d.fn.Name()) {
			continue
		}
		if drop, pos := directDrop(pass, res, fd, d.uses); drop != nil {
			res.local[d.fn].DropsCtx = drop
			res.dropPos[d.fn] = pos
		}
		edges[d.fn] = nil
		for c := range d.cur.Preorder((*ast.CallExpr)(nil)) {
			call := c.Node().(*ast.CallExpr)
			if !runsNow(c, fd) {
				continue
			}
			callee := analysisutil.CalleeFunc(pass.TypesInfo, call)
			if callee == nil || callee == d.fn {
				continue
			}
			if csig, ok := callee.Type().(*types.Signature); !ok || analysisutil.TakesContext(csig) {
				continue
			}
			edges[d.fn] = append(edges[d.fn], edgeTo{callee, call.Lparen})
		}
	}

	// Propagate drops from callees to callers until nothing changes. Each
	// round visits functions in source order and takes the first dropping
	// callee, so chains are deterministic; a function that drops directly
	// keeps its own evidence.
	for changed := true; changed; {
		changed = false
		for _, d := range decls {
			fn := d.fn
			s := res.local[fn]
			if s.DropsCtx != nil {
				continue
			}
			for _, e := range edges[fn] {
				cs := res.Of(e.callee)
				if cs == nil || cs.DropsCtx == nil {
					continue
				}
				chain := append([]Link{{Func: analysisutil.FuncName(e.callee), At: analysisutil.ShortPos(pass.Fset, e.pos), Alt: ContextAlternative(e.callee)}}, cs.DropsCtx.Chain...)
				if len(chain) > maxChain {
					chain = chain[:maxChain]
				}
				s.DropsCtx = &Drop{Root: cs.DropsCtx.Root, At: cs.DropsCtx.At, Chain: chain, Module: cs.DropsCtx.Module}
				res.dropPos[fn] = append([]token.Pos{e.pos}, res.dropPos[e.callee]...)
				changed = true
				break
			}
		}
	}

	// The SSA pass is always there under a driver; a harness that runs
	// the summary on ill-typed code (the fuzz test) leaves it out.
	// The standard library gets findings (its own outbound calls) but no
	// facts: what callers need to know about it is in the tables.
	if ssaRes, ok := pass.ResultOf[buildssa.Analyzer].(*buildssa.SSA); ok && mayReachOutbound(pass.Pkg) {
		e := newEngine(pass, res, ssaRes.Pkg, ssaRes.SrcFuncs)
		e.run()
		e.mergeInto(res)
		if !std {
			e.exportValueFacts()
		}
	}
	if std {
		return res, nil
	}
	for fn, s := range res.local {
		if !s.empty() {
			pass.ExportObjectFact(fn, s)
		}
	}
	return res, nil
}

// mayReachOutbound reports whether the package imports, directly or
// not, a package through which outbound work or contexts can pass:
// others cannot have a claim, and the engine skips them.
func mayReachOutbound(pkg *types.Package) bool {
	seen := map[*types.Package]bool{}
	var visit func(p *types.Package) bool
	visit = func(p *types.Package) bool {
		if seen[p] {
			return false
		}
		seen[p] = true
		switch p.Path() {
		case "context", "net", "database/sql", "net/http":
			return true
		}
		for _, q := range p.Imports() {
			if visit(q) {
				return true
			}
		}
		return false
	}
	return visit(pkg)
}

// directDrop returns the evidence that the function creates a root context
// that reaches context-taking or outbound work synchronously, in its own
// body (not in closures, goroutines or deferred calls, whose lifetime is
// deliberately not the caller's).
func directDrop(pass *analysis.Pass, res *Result, fd *ast.FuncDecl, uses []*RootUse) (*Drop, []token.Pos) {
	for _, u := range uses {
		if u.Owner != fd {
			continue
		}
		for _, s := range u.Sinks {
			// Only a statically known callee is evidence: a callback
			// (a func field or parameter) may do anything or nothing.
			if s.Kind != SinkCall || s.Owner != fd || s.Callee == nil || s.PreCancelled || res.Exempt(s.Callee) {
				continue
			}
			d := &Drop{Root: u.Root, At: analysisutil.ShortPos(pass.Fset, u.Call.Pos())}
			if pass.Module != nil {
				d.Module = pass.Module.Path
			}
			return d, []token.Pos{u.Call.Pos()}
		}
	}
	return nil, nil
}

// ContextAlternative names fn's context-taking alternative: a function
// or method beside it named fn+"Context", fn+"WithContext" or fn+"C"
// (hystrix.Do and hystrix.DoC) whose first parameter is a context.
func ContextAlternative(fn *types.Func) string {
	sig, ok := fn.Type().(*types.Signature)
	if !ok || analysisutil.TakesContext(sig) {
		return ""
	}
	for _, suffix := range []string{"Context", "WithContext", "C"} {
		var alt types.Object
		if recv := sig.Recv(); recv != nil {
			alt, _, _ = types.LookupFieldOrMethod(recv.Type(), true, fn.Pkg(), fn.Name()+suffix)
		} else if fn.Pkg() != nil {
			alt = fn.Pkg().Scope().Lookup(fn.Name() + suffix)
		}
		if a, ok := alt.(*types.Func); ok && a.Exported() {
			if as, ok := a.Type().(*types.Signature); ok && as.Params().Len() > 0 && analysisutil.IsContext(as.Params().At(0).Type()) {
				return analysisutil.FuncName(a)
			}
		}
	}
	return ""
}

// isExemptSink reports whether passing a root context to callee drops
// nothing: value-only consumers (log/slog) and cleanup calls made with a
// fresh context on purpose (http.Server.Shutdown).
func isExemptSink(callee *types.Func) bool {
	if callee == nil {
		return false
	}
	name := callee.FullName()
	return knowledge.IsValueOnlyContextSink(name) || knowledge.IsCleanupSink(name) || knowledge.RetainsContext(name) || knowledge.IsLoggingOrMetricsName(callee.Name())
}

// Exempt reports whether passing a root context to callee drops nothing
// that matters: a values-only consumer, a cleanup call, or a function
// whose summary says it ignores its context.
func (r *Result) Exempt(callee *types.Func) bool {
	if isExemptSink(callee) {
		return true
	}
	s := r.Of(callee)
	return s != nil && s.IgnoresCtx
}

// ignoresCtx reports whether the function has context parameters and
// none of them is used except as an argument to a values-only call
// (logging, metrics): such a function drops nothing when handed a root
// context.
func ignoresCtx(info *types.Info, fd *ast.FuncDecl) bool {
	params := map[types.Object]bool{}
	for _, f := range fd.Type.Params.List {
		if !analysisutil.IsContext(info.TypeOf(f.Type)) {
			continue
		}
		if len(f.Names) == 0 {
			return true // unnamed: cannot be used
		}
		for _, id := range f.Names {
			if obj := info.Defs[id]; obj != nil {
				params[obj] = true
			}
		}
	}
	if len(params) == 0 {
		return false
	}
	used := false
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		if used {
			return false
		}
		switch n := n.(type) {
		case *ast.CallExpr:
			if fn := analysisutil.CalleeFunc(info, n); fn != nil && isExemptSink(fn) {
				// Look only at the callee expression; the arguments go
				// to a values-only consumer.
				ast.Inspect(n.Fun, func(m ast.Node) bool {
					if id, ok := m.(*ast.Ident); ok && params[info.Uses[id]] {
						used = true
					}
					return !used
				})
				return false
			}
		case *ast.Ident:
			if params[info.Uses[n]] {
				used = true
			}
		}
		return !used
	})
	return !used
}

// runsNow reports whether the call at cur runs as part of fd's own body:
// not in a closure, a go statement or a deferred call.
func runsNow(cur inspector.Cursor, fd *ast.FuncDecl) bool {
	if enclosingFunc(cur) != fd {
		return false
	}
	switch cur.Parent().Node().(type) {
	case *ast.GoStmt, *ast.DeferStmt:
		return false
	}
	return true
}

// outboundKinds lists the outbound kinds called directly in the function
// (closures included), sorted and unique.
func outboundKinds(info *types.Info, decl inspector.Cursor) []string {
	seen := map[string]bool{}
	for cur := range decl.Preorder((*ast.CallExpr)(nil)) {
		fn := analysisutil.CalleeFunc(info, cur.Node().(*ast.CallExpr))
		if fn == nil {
			continue
		}
		if o, ok := knowledge.OutboundOf(fn.FullName()); ok {
			seen[o.Kind.String()] = true
		}
	}
	var kinds []string
	for k := range seen {
		kinds = append(kinds, k)
	}
	sort.Strings(kinds)
	return kinds
}
