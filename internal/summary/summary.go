// Package summary defines the analyzer that owns all of resilvet's facts.
// It computes, once per package and over SSA, a summary of every function
// that the four reporting analyzers query: how root contexts are created
// and where they flow, which functions drop their caller's context, which
// outbound work they reach, which parameters reach it with nothing bounding
// it in time, what their results are, which func parameters they call; and
// the outbound calls of the package that nothing bounds (engine.go,
// values.go, sites.go, roots.go, ctxclaims.go).
//
// The go/analysis framework lets only one analyzer register a fact type,
// and facts flow only between runs of the same analyzer on dependent
// packages, so the reporting analyzers never import facts themselves:
// they Require this analyzer and read its Result, which carries the
// summaries of the package's own functions and of every function it calls
// from other packages.
//
// Standard-library packages export no facts: some drivers never analyse
// std, so knowledge about it lives in the knowledge tables instead, and
// results do not depend on the driver. Their own findings (root contexts,
// unbounded calls) are still computed.
package summary

import (
	"go/token"
	"go/types"
	"reflect"
	"slices"
	"sync"

	"golang.org/x/tools/go/analysis"

	"github.com/resilvet/resilvet/internal/analysisutil"
	"github.com/resilvet/resilvet/internal/knowledge"
)

// Config holds the options that change the engine's claims, and so the
// facts: the names a user adds to the knowledge tables and how much an
// http.Transport's own timeouts count. The zero value is the default.
// Options that only filter reports (include-tests) are the reporting
// analyzers'.
type Config struct {
	// Outbound lists extra outbound functions by full name
	// ("(*example.com/kv.Client).Get").
	Outbound []string
	// TimeoutInterceptors lists the functions that build gRPC client
	// interceptors setting a deadline.
	TimeoutInterceptors []string
	// IgnoreTransportTimeouts stops counting an http.Transport with
	// ResponseHeaderTimeout and a dialer with Timeout as bounding its
	// client (they bound everything but reading the body).
	IgnoreTransportTimeouts bool
	// KeyHeaders lists the request headers that carry an idempotency key
	// (nil: knowledge.DefaultKeyHeaders).
	KeyHeaders []string
	// GRPCPrefixes lists the gRPC method-name prefixes of methods that
	// are not idempotent (nil: knowledge.DefaultGRPCPrefixes).
	GRPCPrefixes []string
	// IdempotentMethods lists gRPC methods ("/shop.Orders/CreateOrder" or
	// "Orders/CreateOrder") that are idempotent whatever their names.
	IdempotentMethods []string
	// Map makes the engine record the resilience map's claims in the
	// Result (MapFuncs, MapEntries): the map driver's run sets it. The
	// facts and findings are the same either way. MapModule is the path
	// of the module mapped: calls into its other packages are followed
	// whether they have a summary or not (drivers that say which module a
	// package belongs to, Pass.Module, need not set it).
	Map       bool
	MapModule string
}

func (c Config) keyHeaders() []string {
	if len(c.KeyHeaders) == 0 {
		return knowledge.DefaultKeyHeaders
	}
	return c.KeyHeaders
}

func (c Config) grpcPrefixes() []string {
	if len(c.GRPCPrefixes) == 0 {
		return knowledge.DefaultGRPCPrefixes
	}
	return c.GRPCPrefixes
}

// Analyzer is the summary analyzer with the default configuration, which
// the reporting analyzers' default instances require.
var Analyzer = New(func() Config { return Config{} })

// New returns a summary analyzer whose configuration is config(), read
// when each package's run starts: drivers build their analyzers before
// they parse the flags that fill the options. One run must use one
// summary analyzer: the framework lets only one analyzer register a fact
// type, and facts pass only between runs of the same analyzer.
func New(config func() Config) *analysis.Analyzer {
	return &analysis.Analyzer{
		Name:       "resilvetsummary",
		Doc:        "compute per-function resilience summaries (context use, outbound I/O) shared by the resilvet analyzers",
		URL:        analysisutil.URL("summary"),
		Run:        func(pass *analysis.Pass) (any, error) { return run(pass, config()) },
		FactTypes:  []analysis.Fact{(*FuncSummary)(nil), (*ValueSummary)(nil)},
		ResultType: reflect.TypeFor[*Result](),
	}
}

// Result is what the reporting analyzers read.
type Result struct {
	// compute, when set, computes the rest on first use (std packages).
	compute func()
	once    sync.Once

	roots          []*RootUse
	rootParams     map[*types.Var]bool
	hijacked       map[token.Pos]bool
	findings       []*Finding
	boundedClients []*types.Var
	handlers       []HandlerReach
	retryNests     []*RetryNest
	retryLoops     []*RetryLoop
	openPolicies   []*OpenPolicy
	ctxless        []*CtxlessLayer
	duplicates     []*Duplicate
	// The resilience map's claims, in map mode (mapclaims.go).
	mapFuncs   []*MapFunc
	mapEntries []*MapEntry
	mapImpls   []MapImpl

	// grpcTimeoutInterceptor is set when the package builds a gRPC client
	// interceptor that puts a deadline on calls without one.
	grpcTimeoutInterceptor bool
	// localSQL is set when the package's database is in process.
	localSQL bool

	local    map[*types.Func]*FuncSummary
	imported map[*types.Func]*FuncSummary
	// dropPos holds, for local functions that drop the context, the
	// positions of the chain (each call, then the root creation), for
	// Diagnostic.Related.
	dropPos map[*types.Func][]token.Pos
	// implsIgnore holds the interface methods, declared elsewhere, that a
	// root context is handed to and whose visible implementations all
	// ignore their context.
	implsIgnore map[*types.Func]bool
	// setUp holds the SQL calls (by their opening parentheses) that are
	// schema set-up: a schema statement, or a statement prepared to be
	// kept.
	setUp map[token.Pos]bool
}

func (r *Result) ready() {
	if r.compute != nil {
		r.once.Do(r.compute)
	}
}

// Roots lists every root-context creation in the package, in source
// order, with the places its value flows to.
func (r *Result) Roots() []*RootUse { r.ready(); return r.roots }

// RootParam reports whether v is a context parameter that every call in
// the package fills with a root context (rootparams.go): no caller's
// deadline or cancellation arrives through it.
func (r *Result) RootParam(v *types.Var) bool { r.ready(); return r.rootParams[v] }

// AfterHijack reports whether the call whose opening parenthesis is at
// lparen runs after its function took the served request's connection
// over (hijacks.go): the request's context no longer ends when the
// client goes away.
func (r *Result) AfterHijack(lparen token.Pos) bool { r.ready(); return r.hijacked[lparen] }

// Findings lists the outbound calls of the package that nothing bounds in
// time, in the order the engine met them.
func (r *Result) Findings() []*Finding { r.ready(); return r.findings }

// BoundedClients lists the package-level *http.Client variables that hold
// a client with a Timeout on every store, in source order: what
// notimeout's fix rewrites http.Get to use.
func (r *Result) BoundedClients() []*types.Var { r.ready(); return r.boundedClients }

// Handlers lists the HTTP handlers (closures included) whose request's
// context reaches an outbound call unbounded: with no middleware setting
// a deadline, nothing bounds it (notimeout's edge mode).
func (r *Result) Handlers() []HandlerReach { r.ready(); return r.handlers }

// Of returns the summary of fn (a function of this package or one called
// from it), or nil when there is no claim about it.
func (r *Result) Of(fn *types.Func) *FuncSummary {
	r.ready()
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
	r.ready()
	return r.dropPos[fn.Origin()]
}

func run(pass *analysis.Pass, cfg Config) (any, error) {
	ext, err := knowledge.NewExtensions(cfg.Outbound, cfg.TimeoutInterceptors)
	if err != nil {
		return nil, err // the drivers validate the options before any run
	}
	res := &Result{
		local:       map[*types.Func]*FuncSummary{},
		imported:    map[*types.Func]*FuncSummary{},
		dropPos:     map[*types.Func][]token.Pos{},
		implsIgnore: map[*types.Func]bool{},
		setUp:       map[token.Pos]bool{},
	}
	// A package that cannot reach a context or outbound work has nothing
	// to summarise. SSA cannot be built from ill-typed code: drivers do
	// not run the summary on it, and a harness that does (the fuzz test)
	// says so in TypeErrors, as drivers do.
	// In map mode a command's main is an entry point even when all it
	// does is call into another package.
	entryOnly := cfg.Map && pass.Pkg.Name() == "main"
	if !mayReachOutbound(pass.Pkg) || len(pass.TypeErrors) > 0 || pass.TypesInfo == nil || len(pass.Files) == 0 || !mentionsClaimTypes(pass.TypesInfo) && !callsSummarised(pass) && !entryOnly {
		return res, nil
	}
	// The standard library gets findings (its own outbound calls, its
	// root contexts) but no facts: what callers need to know about it is
	// in the tables, because some drivers never analyse it. So nothing is
	// computed until a reporting analyzer asks, which happens only when
	// std is what is being checked: in a run over a module, the summary
	// runs on std for facts alone, and that costs nothing.
	if analysisutil.IsStd(pass) {
		res.compute = func() { summarise(pass, res, ext, cfg) }
		return res, nil
	}
	summarise(pass, res, ext, cfg)
	return res, nil
}

// summarise computes the package's summaries and findings into res and,
// outside std, exports the facts.
func summarise(pass *analysis.Pass, res *Result, ext *knowledge.Extensions, cfg Config) {
	pkg, funcs := buildSSA(pass)
	e := newEngine(pass, res, pkg, funcs, ext, !cfg.IgnoreTransportTimeouts)
	e.mapMode, e.mapModule = cfg.Map, cfg.MapModule
	ctxIface := contextInterface(pass.Pkg)
	res.roots = e.addReturnedRoots(findRoots(e.funcs, ctxIface), ctxIface)
	res.rootParams = e.rootParams()
	res.hijacked = e.hijackedCalls()
	e.run()
	e.keyHeaders, e.grpcPrefixes, e.idempotentMethods = cfg.keyHeaders(), cfg.grpcPrefixes(), cfg.IdempotentMethods
	e.retryClaims(e.order)
	e.duplicateClaims()
	e.importAlternatives()
	// ctxdrop's claims read the alternatives' CtxIO, local and imported.
	e.ctxClaims(res.roots)
	e.mergeInto(res)
	if e.mapMode {
		e.mapClaims()
	}
	if e.std {
		return
	}
	e.exportValueFacts()
	for fn, s := range res.local {
		if !s.empty() {
			pass.ExportObjectFact(fn, s)
		}
	}
}

// contextInterface returns the context.Context interface type, if the
// package imports context, directly or not.
func contextInterface(pkg *types.Package) *types.Interface {
	p := analysisutil.FindImport(pkg, func(path string) bool { return path == "context" })
	if p == nil {
		return nil
	}
	if tn, ok := p.Scope().Lookup("Context").(*types.TypeName); ok {
		iface, _ := tn.Type().Underlying().(*types.Interface)
		return iface
	}
	return nil
}

// mentionsClaimTypes reports whether any expression of the package has a
// type some claim is about: a context, a request, a client, a dialer, a
// database handle, or a function (a func value that may be called N times,
// or a closure that may reach outbound work). A package with none has
// nothing to summarise, whatever it imports: no value there can carry a
// deadline or be one, and SSA is not built.
func mentionsClaimTypes(info *types.Info) bool {
	for _, tv := range info.Types {
		if claimType(tv.Type, true) {
			return true
		}
	}
	// Functions declared and never used here are in Defs only.
	for _, obj := range info.Defs {
		if fn, ok := obj.(*types.Func); ok && claimType(fn.Type(), true) {
			return true
		}
	}
	return false
}

// callsSummarised reports whether the package uses a function of another
// package that has a summary: its claims (a dropped context, a func
// called N times) travel up through the package's own functions even
// when none of its expressions has a claim's type.
func callsSummarised(pass *analysis.Pass) bool {
	var fact FuncSummary
	for _, obj := range pass.TypesInfo.Uses {
		fn, ok := obj.(*types.Func)
		if !ok || fn.Pkg() == nil || fn.Pkg() == pass.Pkg || analysisutil.IsStdPath(fn.Pkg().Path()) {
			continue
		}
		if pass.ImportObjectFact(fn.Origin(), &fact) {
			return true
		}
	}
	return false
}

// claimType reports whether t is a type some claim is about; with
// signatures set, a function type taking a func value or taking or
// returning such a type is one too (one level deep: func types may be
// recursive, as a lexer's stateFn is).
func claimType(t types.Type, signatures bool) bool {
	if t == nil {
		return false
	}
	if tup, ok := t.(*types.Tuple); ok {
		for i := range tup.Len() {
			if claimType(tup.At(i).Type(), signatures) {
				return true
			}
		}
		return false
	}
	if sig, ok := t.Underlying().(*types.Signature); ok {
		if !signatures {
			return false
		}
		for i := range sig.Params().Len() {
			pt := sig.Params().At(i).Type()
			if _, ok := pt.Underlying().(*types.Signature); ok || claimType(pt, false) {
				return true
			}
		}
		return claimType(sig.Results(), false)
	}
	if p, ok := types.Unalias(t).(*types.Pointer); ok {
		t = p.Elem()
	}
	n, ok := types.Unalias(t).(*types.Named)
	if !ok || n.Obj().Pkg() == nil {
		return false
	}
	switch n.Obj().Pkg().Path() {
	case "context", "net/http", "database/sql", "net", "crypto/tls", "google.golang.org/grpc":
		return true
	}
	return false
}

// mayReachOutbound reports whether the package imports, directly or
// not, a package through which outbound work or contexts can pass:
// others cannot have a claim, and the engine skips them.
func mayReachOutbound(pkg *types.Package) bool {
	return analysisutil.FindImport(pkg, func(path string) bool {
		switch path {
		case "context", "net", "database/sql", "net/http":
			return true
		}
		return false
	}) != nil
}

// ContextAlternative names fn's context-taking alternative: a function
// or method beside it named fn+"Context", fn+"WithContext" or fn+"C"
// (hystrix.Do and hystrix.DoC) whose first parameter is a context.
func ContextAlternative(fn *types.Func) string {
	if a := contextAlternative(fn); a != nil {
		return analysisutil.FuncName(a)
	}
	return ""
}

// ContextAlternative names fn's context-taking alternative, as the
// package function does, when that alternative's context matters (its
// CtxIO claim, or the standard library's): an alternative whose context
// reaches no outbound work or wait is no reason to call it.
func (r *Result) ContextAlternative(fn *types.Func) string {
	a := contextAlternative(fn)
	if a == nil {
		return ""
	}
	if !analysisutil.IsStdPath(a.Pkg().Path()) {
		if s := r.Of(a); s == nil || !slices.Contains(s.CtxIO, 0) {
			return ""
		}
	}
	return analysisutil.FuncName(a)
}

func contextAlternative(fn *types.Func) *types.Func {
	sig, ok := fn.Type().(*types.Signature)
	if !ok || analysisutil.TakesContext(sig) {
		return nil
	}
	var recv types.Type
	if r := sig.Recv(); r != nil {
		recv = r.Type()
	}
	for _, suffix := range []string{"Context", "WithContext", "C"} {
		if a := analysisutil.Beside(fn, recv, fn.Pkg(), fn.Name()+suffix); a != nil && a.Exported() {
			if as, ok := a.Type().(*types.Signature); ok && as.Params().Len() > 0 && analysisutil.IsContext(as.Params().At(0).Type()) {
				return a.Origin()
			}
		}
	}
	return nil
}

// isExemptSink reports whether passing a root context to callee drops
// nothing: value-only consumers (log/slog) and cleanup calls made with a
// fresh context on purpose (http.Server.Shutdown).
func isExemptSink(callee *types.Func) bool {
	if callee == nil {
		return false
	}
	name := callee.FullName()
	return knowledge.IsValueOnlyContextSink(name) || knowledge.IsCleanupSink(name) || knowledge.RetainsContext(name) || knowledge.IsLoggingOrMetricsName(callee.Name()) || takesMetricOptions(callee)
}

// takesMetricOptions reports whether a function's last parameter is a
// variadic list of a metric API's recording options (OpenTelemetry's
// AddOption, RecordOption): it records a measurement, whatever its name,
// as a generic helper's constraint method (m.Add(ctx, v, opts...)) does.
func takesMetricOptions(fn *types.Func) bool {
	sig, ok := fn.Type().(*types.Signature)
	if !ok || !sig.Variadic() {
		return false
	}
	last := sig.Params().At(sig.Params().Len() - 1).Type().(*types.Slice).Elem()
	n, ok := types.Unalias(last).(*types.Named)
	return ok && n.Obj().Pkg() != nil && knowledge.IsMetricOption(n.Obj().Pkg().Path()+"."+n.Obj().Name())
}

// exemptCallee is the exemption rule, read by the engine while it
// computes the claims and by the Result after: passing a root context to
// callee drops nothing that matters when callee is a values-only consumer
// or a cleanup call (isExemptSink), when its summary says it ignores its
// context or keeps it for the life of what it builds (claims), or when it
// is an interface method whose implementations here all ignore theirs
// (implsIgnore). claims and implsIgnore are asked about the generic
// origin.
func exemptCallee(callee *types.Func, claims func(*types.Func) (ignores, retains bool), implsIgnore func(*types.Func) bool) bool {
	if callee == nil {
		return false
	}
	if isExemptSink(callee) {
		return true
	}
	origin := callee.Origin()
	ignores, retains := claims(origin)
	return ignores || retains || implsIgnore(origin)
}

// exempt applies the exemption rule with the package's summaries.
func (r *Result) exempt(callee *types.Func) bool {
	return exemptCallee(callee, func(fn *types.Func) (bool, bool) {
		s := r.Of(fn)
		return s != nil && s.IgnoresCtx, s != nil && s.RetainsCtx
	}, func(fn *types.Func) bool { return r.implsIgnore[fn] })
}

// DropsNothing reports whether the root context reaching s drops nothing
// whatever the context in scope: it is cancelled before it gets there,
// or s does only local work or schema set-up, or its callee is exempt.
// ctxdrop's rule 1 and the DropsCtx claim share it (Sink.dropsNothing).
func (r *Result) DropsNothing(s Sink) bool { return s.dropsNothing(r.exempt) }

// SetUp reports whether the database/sql call whose opening parenthesis
// is at lparen is schema set-up: it runs a schema statement (a constant,
// a format string given to fmt.Sprintf, or an element of a package-level
// list of them) or prepares a statement that is kept for later. Set-up
// is left unbounded on purpose, and its caller's context is no request's.
func (r *Result) SetUp(lparen token.Pos) bool { r.ready(); return r.setUp[lparen] }

// LocalDatabase reports whether the package's database is in process
// (SQLite): a call handed its *sql.DB, Tx, Conn or Stmt does local work.
func (r *Result) LocalDatabase() bool { r.ready(); return r.localSQL }

// LocalWork reports whether a call of callee does only local work in
// this package: an SQL call, or a function whose context reaches only
// SQL calls, where the database is in process (SQLite). Such a call
// loses nothing that matters without the caller's context.
func (r *Result) LocalWork(callee *types.Func) bool {
	r.ready()
	if !r.localSQL || callee == nil {
		return false
	}
	return isSQLFunc(callee) || onlySQL(r.Of(callee))
}
