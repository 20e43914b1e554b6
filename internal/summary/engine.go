package summary

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"slices"
	"sort"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"

	"github.com/resilvet/resilvet/internal/analysisutil"
	"github.com/resilvet/resilvet/internal/knowledge"
)

// The engine computes, over SSA, the claims of every function of the
// package: which kinds of outbound work it reaches, which parameters
// reach outbound calls unbounded, what its results are, which func
// parameters it calls. It goes bottom-up over the package's call graph
// (callees, and closures, before callers), iterating strongly connected
// components to a fixed point with a cap, and reads facts for callees in
// other packages.

// maxRounds caps the iterations of one strongly connected component;
// past it the component's functions make no claims.
const maxRounds = 6

// fnInfo is what the engine knows about one SSA function.
type fnInfo struct {
	fn      *ssa.Function
	obj     *types.Func // nil for closures and package initialisers
	ix      *funcIndex
	reaches []Reach
	results []ValueClaim
	// resultsDone is set once results has been computed: before that,
	// in the first round of the fixed point, a call of the function
	// stands for no value at all (bottom), not for an unknown one.
	resultsDone bool
	calls       []FuncCall
	// ctxIO lists the context parameters reaching outbound work, a wait
	// or a callback, and ctxRemote those reaching remote work (ctxio.go).
	ctxIO, ctxRemote []int
	// freeCalls counts, for a closure, the calls of each free variable
	// holding a func (freeCalled says which are called at all).
	freeCalls  map[*ssa.FreeVar]times
	freeCalled map[*ssa.FreeVar]bool
	// ctxdrop's claims (ctxclaims.go).
	ignoresCtx bool
	waits      bool
	retains    bool
	drop       *Drop
	// returnsRoot is the ReturnsRoot claim (returned.go).
	returnsRoot *ReturnedRoot
	dropPos     []token.Pos
	// The retry claim (retries.go): retry is what travels, retryChain
	// its path with positions, retryAt where that path's call into
	// retrying code is; retryLoops the function's retry loops.
	retry      *Retries
	retryChain retryChain
	// retryUnder is the path with the most attempts for callers inside a
	// runtime layer, when it is not retryChain (Retries.UnderRuntime).
	retryUnder   retryChain
	retryUnderAt token.Pos
	retryAt      token.Pos
	retryLoops   map[*loop]*loopLayer
	retryDone    bool
	// retriedFree holds, for a closure, the free variables holding a func
	// that it calls, with the layers around each call (possibly none).
	retriedFree map[*ssa.FreeVar]retryChain
	// remote is set when the function does outbound work on a remote
	// peer (Retries.Outbound).
	remote bool
	// sets is the option claim (options.go), computed on demand.
	sets     []FieldSet
	setsDone bool
	// conn is the ReturnsConn claim (grpcretries.go), computed on demand.
	conn     *ConnRetry
	connDone bool
	// effects is the Effects claim (effects.go), computed on demand.
	effects     []effect
	effectsDone bool
	// sendDups lists the request parameters the function sends through a
	// hedge or retry layer, with the layer (hedges.go).
	sendDups []effect
	// client is the ReturnsClient claim (httpclients.go), computed on
	// demand.
	client     retryChain
	clientDone bool
}

type engine struct {
	// mapMode is Config.Map: the engine also records the resilience
	// map's claims (mapclaims.go), for the module mapModule.
	mapMode   bool
	mapModule string
	pass      *analysis.Pass
	res       *Result
	funcs     []*ssa.Function
	local     map[*ssa.Function]*fnInfo
	byObj     map[*types.Func]*fnInfo
	// ext holds the user's additions to the knowledge tables.
	ext *knowledge.Extensions
	// transportTimeouts is the option of that name (Config).
	transportTimeouts bool
	// ifaceSums holds the claims of the package's interface methods.
	ifaceSums map[*types.Func]*FuncSummary
	// ifaceImpls lists, per interface method of the package, the
	// implementations the package has (set by interfaceClaims).
	ifaceImpls map[*types.Func][]*fnInfo
	// ifaceRetries holds the retry claims of the package's interface
	// methods (interfaceRetries).
	ifaceRetries map[*types.Func]*Retries
	// optionDefaults memoises callOptionDefaults.
	optionDefaults map[*types.TypeName]map[string]token.Pos
	// remoteCalls memoises callRemote.
	remoteCalls map[*ssa.CallCommon]bool
	// stores lists, per struct field and package-level variable, every
	// value the package stores there.
	stores map[*types.Var][]ssa.Value
	// varMemo caches varValue; varBusy guards cycles through fields.
	varMemo map[varKey]value
	varBusy map[*types.Var]bool
	// clientBusy guards cycles through the stores of client fields
	// (a.Client = b.Client).
	clientBusy map[*types.Var]bool
	// configuredLater lists the fields and variables whose client or
	// dialer has its Timeout or Deadline set after it is stored
	// (s.hc.Timeout = d).
	configuredLater map[*types.Var]bool
	// seen dedups findings: a call is visited again in each round of its
	// component.
	seen map[findingKey]bool
	ev   *evaluator
	// starts maps calls' opening parentheses to their starts (callStart).
	starts map[token.Pos]token.Pos
	// std is set for standard-library packages: they read no facts (some
	// drivers never analyse std, so none are written).
	std bool
	// grpc is set for packages that depend on grpc: their results and
	// fields may carry a connection (conns.go).
	grpc bool
	// selfCalls holds the functions that call themselves (set by sccs).
	selfCalls map[*ssa.Function]bool
	// pending holds claims found in closures about their enclosing
	// functions' parameters, merged when the enclosing function is done.
	pending map[*ssa.Function][]Reach
	// pendingIO holds ctx-I/O claims found in closures about their
	// enclosing functions' parameters.
	pendingIO map[*ssa.Function]ioParams
	// blocking caches blocks.
	blocking map[*ssa.Function]bool
	// implSums caches visibleImpls (nil: no claim).
	implSums map[*types.Func]*FuncSummary
	// constMemo caches varConst (nil: not a constant).
	constMemo map[*types.Var]constant.Value
	// dynRecv holds, while an interface call is judged by one known
	// implementation, the concrete value that is its receiver.
	dynRecv map[*ssa.CallCommon]ssa.Value
	// embeddedSQL is set when the package's database is in-process
	// (embeddedSQL): its SQL calls wait on no remote peer.
	embeddedSQL bool
	// dials memoises the retries of the package's gRPC dials
	// (grpcretries.go).
	dials map[*ssa.Call]*ConnRetry
	// keyHeaders, grpcPrefixes and idempotentMethods are the effects
	// module's options (Config).
	keyHeaders, grpcPrefixes, idempotentMethods []string
	// order is the package's functions in strongly connected components
	// of the call graph, callees first (set by run).
	order [][]*ssa.Function
}

func newEngine(pass *analysis.Pass, res *Result, pkg *ssa.Package, srcFuncs []*ssa.Function, ext *knowledge.Extensions, transportTimeouts bool) *engine {
	e := &engine{
		pass: pass,
		res:  res,
		ext:  ext,

		transportTimeouts: transportTimeouts,
		local:             map[*ssa.Function]*fnInfo{},
		byObj:             map[*types.Func]*fnInfo{},
		ifaceSums:         map[*types.Func]*FuncSummary{},
		ifaceRetries:      map[*types.Func]*Retries{},
		remoteCalls:       map[*ssa.CallCommon]bool{},
		stores:            map[*types.Var][]ssa.Value{},
		varMemo:           map[varKey]value{},
		varBusy:           map[*types.Var]bool{},
		clientBusy:        map[*types.Var]bool{},
		seen:              map[findingKey]bool{},

		configuredLater: map[*types.Var]bool{},
		pending:         map[*ssa.Function][]Reach{},
		selfCalls:       map[*ssa.Function]bool{},
		dynRecv:         map[*ssa.CallCommon]ssa.Value{},
		constMemo:       map[*types.Var]constant.Value{},
		implSums:        map[*types.Func]*FuncSummary{},
		pendingIO:       map[*ssa.Function]ioParams{},
		blocking:        map[*ssa.Function]bool{},
		dials:           map[*ssa.Call]*ConnRetry{},
	}
	e.funcs = append(e.funcs, srcFuncs...)
	if init := pkg.Func("init"); init != nil {
		e.funcs = append(e.funcs, init)
		e.funcs = append(e.funcs, init.AnonFuncs...)
	}
	for _, fn := range e.funcs {
		info := &fnInfo{fn: fn, ix: indexFunc(fn)}
		if obj, ok := fn.Object().(*types.Func); ok {
			info.obj = obj
			e.byObj[obj] = info
		}
		e.local[fn] = info
		e.index(fn)
	}
	e.ev = &evaluator{e: e, memo: map[evalKey]value{}}
	e.std = analysisutil.IsStd(pass)
	e.grpc = !e.std && dependsOnGRPC(pass.Pkg)
	e.countLoops()
	e.embeddedSQL = embeddedSQL(pass.Pkg, e.funcs)
	return e
}

// mergeInto records the engine's claims in the package's summaries: the
// ones the reporting analyzers read and the facts exported.
func (e *engine) mergeInto(res *Result) {
	res.localSQL = e.embeddedSQL
	for _, fn := range e.funcs {
		info := e.local[fn]
		if info.obj == nil {
			continue
		}
		s := res.local[info.obj]
		if s == nil {
			s = &FuncSummary{}
			res.local[info.obj] = s
		}
		es := info.summary()
		s.Reaches, s.Results, s.FuncCalls, s.CtxIO, s.CtxRemote = es.Reaches, es.Results, es.FuncCalls, es.CtxIO, es.CtxRemote
		s.IgnoresCtx, s.DropsCtx, s.RetainsCtx, s.ReturnsRoot = info.ignoresCtx, info.drop, info.retains, info.returnsRoot
		s.Retries = info.retry
		s.Sets = e.optionSets(info.obj)
		s.ReturnsConn = e.returnsConn(info)
		if c := e.returnsClient(info); c != nil {
			s.ReturnsClient = c.links(info.fn)
		}
		if !e.std {
			// Read only by callers in other packages, through the fact:
			// std exports none (the hedges module computes what its own
			// layers run on demand).
			s.Effects = exportEffects(info.fn, e.effectsOf(info), info.sendDups)
		}
		// Waits is read only for a function that drops no context and has
		// a context-taking variant beside it: exported for those alone.
		s.Waits = info.waits && info.drop == nil && contextAlternative(info.obj) != nil
		if info.drop != nil {
			res.dropPos[info.obj] = info.dropPos
		}
	}
	for m, s := range e.ifaceSums {
		res.local[m] = s
	}
	for m, r := range e.ifaceRetries {
		s := res.local[m]
		if s == nil {
			s = &FuncSummary{}
			res.local[m] = s
		}
		s.Retries = r
	}
	for _, fn := range e.funcs {
		for _, instr := range e.local[fn].ix.calls {
			c := instr.Common()
			if callee := calleeFunc(c); callee != nil && isSQLFunc(callee) && (e.schemaStatement(c) || preparedForLater(instr)) {
				res.setUp[c.Pos()] = true
			}
		}
	}
	for v := range e.stores {
		if v.Pkg() == e.pass.Pkg && v.Parent() == v.Pkg().Scope() && isNamedPtr(v.Type(), "net/http", "Client") && e.varValue(domClient, v).state() == stBounded {
			res.boundedClients = append(res.boundedClients, v)
		}
	}
	sort.Slice(res.boundedClients, func(i, j int) bool { return res.boundedClients[i].Pos() < res.boundedClients[j].Pos() })
	for _, fn := range e.funcs {
		if !isHandler(fn.Signature) {
			continue
		}
		for _, r := range e.local[fn].reaches {
			if r.Of == "request" && r.Param == 1 && !r.Local {
				res.handlers = append(res.handlers, HandlerReach{Pos: fn.Pos(), Name: funcDisplay(fn), Reach: r})
				break
			}
		}
	}
}

// countLoops sets the trip count of every loop, once the stores the
// constants module reads are indexed.
func (e *engine) countLoops() {
	intOf := func(v ssa.Value) (int64, bool) {
		c, ok := e.constOf(v)
		if !ok || c.Kind() != constant.Int {
			return 0, false
		}
		return constant.Int64Val(c)
	}
	for _, fn := range e.funcs {
		for _, l := range e.local[fn].ix.loops {
			l.trips = tripCount(l, intOf)
		}
	}
}

// embeddedSQL reports whether the package's *sql.DB is an in-process
// database (SQLite, DuckDB): the package links an embedded driver and no
// networked one, or every sql.Open in it names an embedded driver. A
// query then waits on the local disk, not on a slow dependency.
func embeddedSQL(pkg *types.Package, funcs []*ssa.Function) bool {
	embedded, remote := false, false
	analysisutil.FindImport(pkg, func(path string) bool {
		embedded = embedded || knowledge.IsEmbeddedSQLDriver(path)
		remote = remote || knowledge.IsRemoteSQLDriver(path)
		return false
	})
	if embedded && namesSQLite(pkg.Path()) {
		// Both kinds linked, and this package is the SQLite one of a
		// storage layer written for each (…/storage/sqlite3).
		return true
	}
	if remote {
		return false
	}
	if embedded {
		return true
	}
	opens := 0
	for _, fn := range funcs {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				c, ok := instr.(ssa.CallInstruction)
				if !ok || calleeName(c.Common()) != "database/sql.Open" || len(c.Common().Args) == 0 {
					continue
				}
				k, ok := c.Common().Args[0].(*ssa.Const)
				if !ok || k.Value == nil || k.Value.Kind() != constant.String || !knowledge.IsEmbeddedSQLDriverName(constant.StringVal(k.Value)) {
					return false
				}
				opens++
			}
		}
	}
	return opens > 0
}

// namesSQLite reports whether a package path has an element naming
// SQLite (sqlite, sqlite3, sqlitestore…).
func namesSQLite(path string) bool {
	for _, el := range strings.Split(path, "/") {
		if strings.HasPrefix(strings.ToLower(el), "sqlite") {
			return true
		}
	}
	return false
}

// isHandler reports whether sig is func(http.ResponseWriter, *http.Request).
func isHandler(sig *types.Signature) bool {
	p := sig.Params()
	if p.Len() != 2 || sig.Results().Len() != 0 || !analysisutil.IsHTTPRequestPtr(p.At(1).Type()) {
		return false
	}
	n, ok := types.Unalias(p.At(0).Type()).(*types.Named)
	return ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == "net/http" && n.Obj().Name() == "ResponseWriter"
}

// exportValueFacts exports what the package knows about its fields and
// package-level variables, for the packages that read them.
func (e *engine) exportValueFacts() {
	for v := range e.stores {
		if v.Pkg() != e.pass.Pkg {
			continue
		}
		var fact ValueSummary
		if v.Exported() {
			// Retries of what it holds (httpclients.go, grpcretries.go).
			if c := e.varClient(v); c != nil {
				fact.Client = c.links(nil)
			}
			fact.Conn = e.varConn(v)
		}
		d, ok := e.claimDomain(v.Type())
		if !ok {
			if len(fact.Client) > 0 || fact.Conn != nil {
				e.pass.ExportObjectFact(v, &fact)
			}
			continue
		}
		val := e.varValue(d, v)
		c := ValueClaim{Of: d.String()}
		switch val.state() {
		case stBounded:
			c.State = "bounded"
			fact.Values = append(fact.Values, c)
		case stUnbounded:
			u := val.unbounded()[0]
			c.State, c.What, c.At = "unbounded", u.what, e.srcAt(u)
			fact.Values = append(fact.Values, c)
		}
		if len(fact.Values) > 0 || len(fact.Client) > 0 || fact.Conn != nil {
			e.pass.ExportObjectFact(v, &fact)
		}
	}
}

// index records, in one walk of fn, every store into a struct field or a
// package variable, the clients configured after they are stored, and
// whether fn builds a gRPC timeout interceptor.
func (e *engine) index(fn *ssa.Function) {
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			switch instr := instr.(type) {
			case ssa.CallInstruction:
				if e.ext.TimeoutInterceptorOf(calleeName(instr.Common())) {
					e.res.grpcTimeoutInterceptor = true
				}
			case *ssa.Store:
				switch a := instr.Addr.(type) {
				case *ssa.FieldAddr:
					if st, ok := structOf(a.X.Type()); ok {
						f := st.Field(a.Field)
						e.stores[f] = append(e.stores[f], instr.Val)
						if (f.Name() == "Timeout" || f.Name() == "Deadline") && f.Pkg() != nil && f.Pkg().Path() != e.pass.Pkg.Path() {
							if v := loadedVar(a.X); v != nil {
								e.configuredLater[v] = true
							}
						}
					}
				case *ssa.Global:
					if v, ok := a.Object().(*types.Var); ok {
						e.stores[v] = append(e.stores[v], instr.Val)
					}
				}
			}
		}
	}
}

// loadedVar returns the field or package variable x was loaded from.
func loadedVar(x ssa.Value) *types.Var {
	u, ok := x.(*ssa.UnOp)
	if !ok || u.Op != token.MUL {
		return nil
	}
	switch a := u.X.(type) {
	case *ssa.FieldAddr:
		if st, ok := structOf(a.X.Type()); ok {
			return st.Field(a.Field)
		}
	case *ssa.Global:
		v, _ := a.Object().(*types.Var)
		return v
	}
	return nil
}

// varValue is the value held by a struct field or package-level variable:
// the union of what the package stores into it, when the package is the
// only writer (unexported fields, variables of this package); else the
// fact of the package that declares it.
func (e *engine) varValue(d domain, v *types.Var) value {
	if v.Pkg() != e.pass.Pkg {
		var vs ValueSummary
		if v.Pkg() != nil && e.pass.ImportObjectFact(v, &vs) {
			for _, c := range vs.Values {
				if c.Of == d.String() {
					return claimValue(c)
				}
			}
		}
		return unknown
	}
	if v.IsField() && v.Exported() && e.pass.Pkg.Name() != "main" {
		return unknown // other packages may store into it
	}
	key := varKey{d, v}
	if r, ok := e.varMemo[key]; ok {
		return r
	}
	if e.varBusy[v] {
		return unknown
	}
	e.varBusy[v] = true
	defer delete(e.varBusy, v)
	sites := e.stores[v]
	if len(sites) == 0 {
		return unknown
	}
	if (d == domClient || d == domDialer) && e.configuredLater[v] {
		return bounded()
	}
	var vs []value
	for _, stored := range sites {
		val := e.ev.eval(d, stored)
		// A parameter of the function that stores it (a constructor's
		// argument) is not known here.
		for _, src := range val {
			if src.kind == srcParam {
				val = unknown
				break
			}
		}
		vs = append(vs, val)
	}
	r := join(vs...)
	e.varMemo[key] = r
	return r
}

type varKey struct {
	d domain
	v *types.Var
}

// claimValue turns a claim from a fact into a value.
func claimValue(c ValueClaim) value {
	switch c.State {
	case "bounded":
		return bounded()
	case "unbounded":
		return value{{kind: srcUnbounded, what: c.What, at: c.At}}
	}
	return unknown
}

// run computes every claim. Results first, over the whole package to a
// fixed point (values flow into closures from their enclosing functions,
// whose callees must be known) that starts from bottom and joins each
// round with the last, then the rest bottom-up.
func (e *engine) run() {
	order := e.sccs()
	e.order = order
	for round := 0; ; round++ {
		var changed []*fnInfo
		e.resetMemo()
		for _, scc := range order {
			for _, fn := range scc {
				info := e.local[fn]
				r := e.resultsOf(fn)
				if info.resultsDone {
					r = joinResults(info.results, r)
				}
				info.resultsDone = true
				if !equalClaims(r, info.results) {
					info.results = r
					changed = append(changed, info)
				}
			}
		}
		if len(changed) == 0 {
			break
		}
		if round == maxRounds-1 {
			// Past the cap, the functions still changing widen to "no
			// claim"; the others keep theirs.
			for _, info := range changed {
				info.results = nil
			}
			break
		}
	}
	for _, fn := range e.funcs {
		info := e.local[fn]
		info.results = slices.DeleteFunc(info.results, func(c ValueClaim) bool { return c.State == stateNone })
	}
	e.resetMemo()
	for _, scc := range order {
		e.summariseSCC(scc)
	}
	// Calls through the package's own interfaces see the claims of its
	// implementations on a second pass.
	if e.interfaceClaims() && e.callsOwnInterfaces() {
		for _, scc := range order {
			e.summariseSCC(scc)
		}
		e.interfaceClaims()
	}
}

// callsOwnInterfaces reports whether the package calls a method of an
// interface it declares and has claims for.
func (e *engine) callsOwnInterfaces() bool {
	for _, fn := range e.funcs {
		for _, c := range e.local[fn].ix.calls {
			if c.Common().IsInvoke() && e.ifaceSums[c.Common().Method] != nil {
				return true
			}
		}
	}
	return false
}

func (e *engine) resetMemo() {
	e.ev.memo = map[evalKey]value{}
	e.varMemo = map[varKey]value{}
}

// summariseSCC computes the reaches and func calls of one strongly
// connected component of the call graph, to a fixed point: each round
// joins with the last (claims only grow); past the cap, the functions
// still changing widen to "no claim", the others keep theirs.
func (e *engine) summariseSCC(scc []*ssa.Function) {
	for round := 0; ; round++ {
		var changed []*fnInfo
		for _, fn := range scc {
			if e.summariseFunc(fn) {
				changed = append(changed, e.local[fn])
			}
		}
		if len(changed) == 0 || len(scc) == 1 && !e.selfCalls[scc[0]] {
			return
		}
		if round == maxRounds-1 {
			for _, info := range changed {
				info.reaches, info.calls = nil, nil
			}
			return
		}
	}
}

// summariseFunc (re)computes fn's claims and reports whether they grew.
// It walks the index's call sites once; each claim module hooks the
// walk.
func (e *engine) summariseFunc(fn *ssa.Function) bool {
	info := e.local[fn]
	before := len(info.reaches)
	for _, instr := range info.ix.calls {
		e.visitCall(info, instr)
	}
	for _, r := range e.pending[fn] {
		info.reaches = addReach(info.reaches, r)
	}
	ioBefore, remoteBefore := len(info.ctxIO), len(info.ctxRemote)
	for _, k := range e.pendingIO[fn].all {
		info.ctxIO = addInt(info.ctxIO, k)
	}
	for _, k := range e.pendingIO[fn].remote {
		info.ctxRemote = addInt(info.ctxRemote, k)
	}
	if len(fn.FreeVars) > 0 {
		e.freeVarCalls(info)
	}
	calls := e.funcCalls(info)
	grew := len(info.reaches) != before || len(info.ctxIO) != ioBefore || len(info.ctxRemote) != remoteBefore || !equalFuncCalls(calls, info.calls)
	info.calls = calls
	return grew
}

// visitCall applies one call instruction to the caller's claims.
func (e *engine) visitCall(info *fnInfo, instr ssa.CallInstruction) {
	c := instr.Common()
	if targets, ok := e.dynamicTargets(c); ok {
		// An interface call whose implementations are known here.
		for _, t := range targets {
			name := t.method.FullName()
			o, outbound := e.ext.OutboundOf(name)
			outbound = outbound && e.outboundApplies(c, o)
			if outbound {
				e.dynRecv[c] = t.recv
				e.checkOutbound(info, instr, name, o)
				delete(e.dynRecv, c)
			}
			s := e.summaryOfFunc(t.method)
			if s != nil && !outbound {
				for _, r := range s.Reaches {
					e.checkReach(info, instr, r)
				}
			}
			all, remote := e.ctxArgsReaching(c, false, false, -1, s)
			e.ctxIOAt(info, all, false)
			e.ctxIOAt(info, remote, true)
		}
		return
	}
	name := calleeName(c)
	if knowledge.RetainsContext(name) {
		// It keeps the context for the life of what it builds: the
		// context it should get is a long-lived one, with no deadline.
		return
	}
	o, outbound := e.ext.OutboundOf(name)
	outbound = outbound && e.outboundApplies(c, o)
	if outbound {
		e.checkOutbound(info, instr, name, o)
	}
	s := e.summaryOf(c)
	if s != nil && !outbound {
		// A call of the table is judged by its entry (its bound, schema
		// set-up): the library's own calls inside it, which its facts
		// reach, are how it does the work, not more findings.
		for _, r := range s.Reaches {
			e.checkReach(info, instr, r)
		}
	}
	all, remote := e.ctxArgsReaching(c, outbound, e.localOutbound(c, name, o), o.CtxParam, s)
	e.ctxIOAt(info, all, false)
	e.ctxIOAt(info, remote, true)
	switch {
	case c.IsInvoke() && (c.Method.Name() == "Done" || c.Method.Name() == "Err") && analysisutil.IsContext(c.Value.Type()):
		// Waiting on the context, or stopping when it is done: it bounds
		// something only where the function can block (a semaphore's
		// wait loop), not in local work it merely stops early.
		e.ctxIOAt(info, []ssa.Value{c.Value}, e.blocks(info.fn))
	case !c.IsInvoke() && c.StaticCallee() == nil, c.IsInvoke() && s == nil && c.Method.Pkg() != e.pass.Pkg:
		// Handed to a function value, or to an interface declared
		// elsewhere whose work is not known (a callback): it may bound
		// anything, and is taken as remote. (Taken as local, a policy
		// compiler's root context reaching a schema resolver set as a
		// func value, which fetches over HTTPS, was lost, and no false
		// finding went with it.) An interface of this package whose
		// implementations here make no claim does not matter.
		var ctxs []ssa.Value
		for _, a := range c.Args {
			if analysisutil.IsContext(a.Type()) {
				ctxs = append(ctxs, a)
			}
		}
		e.ctxIOAt(info, ctxs, true)
	}
	e.applyFuncArgs(info, instr)
}

// blocks reports whether fn itself can block: a channel operation, a
// select without a default, a sleep or a wait of the table
// (sync.Cond.Wait). Memoised.
func (e *engine) blocks(fn *ssa.Function) bool {
	if b, ok := e.blocking[fn]; ok {
		return b
	}
	b := false
scan:
	for _, bb := range fn.Blocks {
		for _, instr := range bb.Instrs {
			if b = blocksAt(instr); b {
				break scan
			}
		}
	}
	e.blocking[fn] = b
	return b
}

// blocksAt reports whether an instruction itself can block: a receive,
// a send, a select without a default, a call of a wait of the table.
func blocksAt(instr ssa.Instruction) bool {
	switch instr := instr.(type) {
	case *ssa.UnOp:
		return instr.Op == token.ARROW
	case *ssa.Select:
		return instr.Blocking
	case *ssa.Send:
		return true
	case *ssa.Call:
		return knowledge.Waits(calleeName(instr.Common()))
	}
	return false
}

// localOutbound reports whether an outbound call waits on no remote
// peer: SQL on an in-process database, a dial of a Unix socket.
func (e *engine) localOutbound(c *ssa.CallCommon, name string, o knowledge.Outbound) bool {
	return o.Kind == knowledge.SQL && e.embeddedSQL || unixNetwork(c, name)
}

// outboundApplies filters table matches that need the signature: the
// patterns and the user's names apply to methods taking a context.
func (e *engine) outboundApplies(c *ssa.CallCommon, o knowledge.Outbound) bool {
	if o.Kind != knowledge.Custom && o.Kind != knowledge.AWS && o.Kind != knowledge.Mongo && o.Kind != knowledge.Elasticsearch {
		return true
	}
	if o.Kind == knowledge.Custom {
		return true
	}
	sig := c.Signature()
	return sig.Params().Len() > 0 && analysisutil.IsContext(sig.Params().At(0).Type())
}

// summaryOf returns the summary of the called function: a local one, a
// fact, or an interface method's union.
func (e *engine) summaryOf(c *ssa.CallCommon) *FuncSummary {
	if fn := c.StaticCallee(); fn != nil {
		if fn.Origin() != nil {
			fn = fn.Origin()
		}
		if info := e.local[fn]; info != nil {
			return info.summary()
		}
	}
	f := calleeFunc(c)
	if s := e.ifaceSums[f]; s != nil {
		return s
	}
	if s := e.imported(f); s != nil {
		return s
	}
	if c.IsInvoke() {
		return e.visibleImpls(f)
	}
	return nil
}

// imported returns the fact of a function of another package, importing
// it on first use (facts can be read only while the pass runs, so the
// Result keeps what was read for the reporting analyzers).
func (e *engine) imported(f *types.Func) *FuncSummary {
	if f == nil || f.Pkg() == nil || f.Pkg() == e.pass.Pkg || e.std {
		return nil
	}
	f = f.Origin()
	if s, seen := e.res.imported[f]; seen {
		return s
	}
	var s FuncSummary
	if e.pass.ImportObjectFact(f, &s) {
		e.res.imported[f] = &s
		return &s
	}
	e.res.imported[f] = nil
	return nil
}

// summary renders the claims computed so far as a FuncSummary (reaches,
// results and func calls only).
func (info *fnInfo) summary() *FuncSummary {
	return &FuncSummary{Reaches: info.reaches, Results: info.results, FuncCalls: info.calls, CtxIO: info.ctxIO, CtxRemote: info.ctxRemote, Retries: info.retry}
}

// sigIndex returns p's index among fn's signature parameters (receiver
// excluded), or -1 for the receiver.
func sigIndex(fn *ssa.Function, p *ssa.Parameter) int {
	for i, q := range fn.Params {
		if q == p {
			if fn.Signature.Recv() != nil {
				return i - 1
			}
			return i
		}
	}
	return -1
}

// sccs orders the package's functions into strongly connected components
// of the call graph, callees first. A function's closures, and the
// functions it passes as values to the calls it makes, count as its
// callees: the func-values module reads their claims at the call.
func (e *engine) sccs() [][]*ssa.Function {
	edges := map[*ssa.Function][]*ssa.Function{}
	for _, fn := range e.funcs {
		seen := map[*ssa.Function]bool{}
		add := func(g *ssa.Function) {
			if g != nil && e.local[g] != nil && !seen[g] {
				seen[g] = true
				edges[fn] = append(edges[fn], g)
			}
		}
		for _, anon := range fn.AnonFuncs {
			add(anon)
		}
		for _, c := range e.local[fn].ix.calls {
			if g := c.Common().StaticCallee(); g != nil {
				if g.Origin() != nil {
					g = g.Origin()
				}
				if g == fn {
					e.selfCalls[fn] = true
				}
				add(g)
			}
			for _, a := range c.Common().Args {
				add(funcValue(a))
			}
		}
	}
	// Tarjan's algorithm emits components in reverse topological order:
	// callees first.
	var (
		index   = map[*ssa.Function]int{}
		low     = map[*ssa.Function]int{}
		onStack = map[*ssa.Function]bool{}
		stack   []*ssa.Function
		out     [][]*ssa.Function
		next    int
	)
	var strong func(v *ssa.Function)
	strong = func(v *ssa.Function) {
		index[v], low[v] = next, next
		next++
		stack = append(stack, v)
		onStack[v] = true
		for _, w := range edges[v] {
			if _, ok := index[w]; !ok {
				strong(w)
				low[v] = min(low[v], low[w])
			} else if onStack[w] {
				low[v] = min(low[v], index[w])
			}
		}
		if low[v] == index[v] {
			var scc []*ssa.Function
			for {
				w := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				onStack[w] = false
				scc = append(scc, w)
				if w == v {
					break
				}
			}
			out = append(out, scc)
		}
	}
	for _, fn := range e.funcs {
		if _, ok := index[fn]; !ok {
			strong(fn)
		}
	}
	return out
}

// resultsOf computes the claims about fn's results.
func (e *engine) resultsOf(fn *ssa.Function) []ValueClaim {
	res := fn.Signature.Results()
	var out []ValueClaim
	for i := range res.Len() {
		d, ok := e.claimDomain(res.At(i).Type())
		if !ok {
			continue
		}
		var vs []value
		var rets []*ssa.BasicBlock
		for _, b := range fn.Blocks {
			if ret, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return); ok && i < len(ret.Results) {
				vs = append(vs, e.ev.eval(d, ret.Results[i]))
				rets = append(rets, b)
			}
		}
		v := join(vs...)
		c := ValueClaim{Index: i, Of: d.String()}
		if len(v) == 0 && len(vs) > 0 {
			// Every return is a call not computed yet (recursion): no
			// value so far, which the next round joins with.
			c.State = stateNone
			out = append(out, c)
			continue
		}
		switch v.state() {
		case stBounded:
			c.State = "bounded"
		case stUnbounded:
			u := v.unbounded()[0]
			c.State, c.What, c.At = "unbounded", u.what, e.srcAt(u)
		case stParam:
			ps := v.params()
			if len(ps) != 1 || ps[0].fn != fn {
				continue
			}
			if d == domCtx && len(v) > 1 && !hasUnbounded(v) && checksDeadline(fn, fn.Params[ps[0].param]) {
				// The caller's context when it has a deadline, a bounded
				// one otherwise: a helper that ensures a deadline.
				c.State = "bounded"
				break
			}
			idx := sigIndex(fn, fn.Params[ps[0].param])
			if idx < 0 {
				continue
			}
			c.State, c.Param = "param", idx
			if ps[0].dom != d {
				// A request built from the caller's context: the
				// parameter is followed as what it is.
				c.ParamOf = ps[0].dom.String()
			}
			if len(v) > 1 && !hasUnbounded(v) {
				// Bounded on some paths: say when, if a comparison of an
				// integer parameter with a constant chooses them (if d > 0
				// { return context.WithTimeout(ctx, d) }).
				c.BoundedIf = boundedCondition(fn, rets, vs)
			}
		default:
			continue
		}
		out = append(out, c)
	}
	return out
}

func hasUnbounded(v value) bool { return len(v.unbounded()) > 0 }

// stateNone is the result claim of a function none of whose returns has
// a value yet, during the results fixed point only: bottom.
const stateNone = "none"

// joinResults joins one round's result claims with the last round's, so
// that claims only grow towards "no claim" (unknown): bottom joined with a
// claim is the claim; a claim absent on either side is unknown; bounded
// and unbounded make unbounded; a parameter passed through on some path
// makes the parameter, two different ones unknown.
func joinResults(last, cur []ValueClaim) []ValueClaim {
	var out []ValueClaim
	for _, c := range cur {
		i := slices.IndexFunc(last, func(o ValueClaim) bool { return o.Index == c.Index && o.Of == c.Of })
		if i < 0 {
			continue
		}
		if j, ok := joinClaim(last[i], c); ok {
			out = append(out, j)
		}
	}
	return out
}

func joinClaim(a, b ValueClaim) (ValueClaim, bool) {
	switch {
	case a.State == stateNone:
		return b, true
	case b.State == stateNone || equalClaims([]ValueClaim{a}, []ValueClaim{b}):
		return a, true
	case a.State == "param" && b.State == "param":
		if a.Param != b.Param || a.ParamOf != b.ParamOf {
			return ValueClaim{}, false
		}
		a.BoundedIf = nil
		return a, true
	case a.State == "param" || b.State == "param":
		if b.State == "param" {
			a, b = b, a
		}
		a.BoundedIf = nil // the other side is not the parameter: the condition no longer says when
		return a, true
	case a.State == "unbounded":
		return a, true
	case b.State == "unbounded":
		return b, true
	}
	return a, true // bounded on both sides
}

// boundedCondition finds the condition under which a function returns a
// bounded value rather than its parameter: an if comparing an integer
// parameter with a constant, one branch of which leads to every bounded
// return and to no other. It returns nil when there is none.
func boundedCondition(fn *ssa.Function, rets []*ssa.BasicBlock, vals []value) *IntCond {
	var boundedRets, otherRets []*ssa.BasicBlock
	for i, v := range vals {
		if v.state() == stBounded {
			boundedRets = append(boundedRets, rets[i])
		} else {
			otherRets = append(otherRets, rets[i])
		}
	}
	if len(boundedRets) == 0 || len(otherRets) == 0 {
		return nil
	}
	for dom := boundedRets[0].Idom(); dom != nil; dom = dom.Idom() {
		ifi, ok := dom.Instrs[len(dom.Instrs)-1].(*ssa.If)
		if !ok {
			continue
		}
		cmp, ok := ifi.Cond.(*ssa.BinOp)
		if !ok {
			continue
		}
		p, ok := cmp.X.(*ssa.Parameter)
		k, isConst := cmp.Y.(*ssa.Const)
		if !ok || !isConst || k.Value == nil || k.Value.Kind() != constant.Int || p.Parent() != fn {
			continue
		}
		idx := sigIndex(fn, p)
		for branch, succ := range dom.Succs {
			if len(succ.Preds) != 1 || !dominatesAll(succ, boundedRets) || dominatesAny(succ, otherRets) {
				continue
			}
			op := cmp.Op
			if branch == 1 {
				op = negate(op)
			}
			if idx < 0 || op == token.ILLEGAL {
				return nil
			}
			n, exact := constant.Int64Val(k.Value)
			if !exact {
				return nil
			}
			return &IntCond{Param: idx, Op: op.String(), Value: n}
		}
		return nil
	}
	return nil
}

func dominatesAll(b *ssa.BasicBlock, bs []*ssa.BasicBlock) bool {
	for _, x := range bs {
		if !b.Dominates(x) {
			return false
		}
	}
	return true
}

func dominatesAny(b *ssa.BasicBlock, bs []*ssa.BasicBlock) bool {
	for _, x := range bs {
		if b.Dominates(x) {
			return true
		}
	}
	return false
}

// negate returns the comparison that holds when op does not.
func negate(op token.Token) token.Token {
	switch op {
	case token.EQL:
		return token.NEQ
	case token.NEQ:
		return token.EQL
	case token.LSS:
		return token.GEQ
	case token.GEQ:
		return token.LSS
	case token.GTR:
		return token.LEQ
	case token.LEQ:
		return token.GTR
	}
	return token.ILLEGAL
}

// checksDeadline reports whether fn asks p for its deadline: a function
// returning either p or a bounded context does so to choose between them.
func checksDeadline(fn *ssa.Function, p *ssa.Parameter) bool {
	refs := p.Referrers()
	if refs == nil {
		return false
	}
	for _, r := range *refs {
		if c, ok := r.(ssa.CallInstruction); ok && c.Common().IsInvoke() && c.Common().Value == p && c.Common().Method.Name() == "Deadline" {
			return true
		}
	}
	return false
}

// srcAt renders where an unbounded source is made.
func (e *engine) srcAt(s src) string {
	if s.at != "" {
		return s.at
	}
	return analysisutil.ShortPos(e.pass.Fset, e.callStart(s.pos))
}

// callStart maps the opening parenthesis of a call, the position SSA
// keeps, to the start of the call expression, which is what a reader
// looks for ("context.Background()" starts at "context"). Other
// positions are returned unchanged.
func (e *engine) callStart(lparen token.Pos) token.Pos {
	if e.starts == nil {
		e.starts = map[token.Pos]token.Pos{}
		for _, f := range e.pass.Files {
			ast.Inspect(f, func(n ast.Node) bool {
				if c, ok := n.(*ast.CallExpr); ok {
					e.starts[c.Lparen] = c.Pos()
				}
				return true
			})
		}
	}
	if p, ok := e.starts[lparen]; ok {
		return p
	}
	return lparen
}

// claimDomain says which domain the claims about a result or a field of
// type t are in: its type's, or, in a package that depends on grpc, the
// connection a pointer, interface or struct may carry.
func (e *engine) claimDomain(t types.Type) (domain, bool) {
	if d, ok := domainOfType(t); ok {
		return d, true
	}
	if e.grpc && carriesConn(t) {
		return domConn, true
	}
	return 0, false
}

// domainOfType says which domain follows values of type t.
func domainOfType(t types.Type) (domain, bool) {
	switch {
	case analysisutil.IsContext(t):
		return domCtx, true
	case analysisutil.IsHTTPRequestPtr(t):
		return domRequest, true
	case isNamedPtr(t, "net/http", "Client"):
		return domClient, true
	case isNamedPtr(t, "net/http", "Transport"):
		return domTransport, true
	}
	return 0, false
}

func isNamedPtr(t types.Type, pkg, name string) bool {
	p, ok := types.Unalias(t).(*types.Pointer)
	if !ok {
		return false
	}
	n, ok := types.Unalias(p.Elem()).(*types.Named)
	return ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == pkg && n.Obj().Name() == name
}

func equalClaims(a, b []ValueClaim) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		x, y := a[i], b[i]
		if (x.BoundedIf == nil) != (y.BoundedIf == nil) || x.BoundedIf != nil && *x.BoundedIf != *y.BoundedIf {
			return false
		}
		x.BoundedIf, y.BoundedIf = nil, nil
		if x != y {
			return false
		}
	}
	return true
}

func sameCond(a, b *IntCond) bool { return a == nil && b == nil || a != nil && b != nil && *a == *b }

func addReach(rs []Reach, r Reach) []Reach {
	for _, o := range rs {
		if o.Param == r.Param && o.Of == r.Of && o.Kind == r.Kind && o.Call == r.Call && o.ViaConn == r.ViaConn && o.Conn == r.Conn && sameCond(o.If, r.If) && o.Local == r.Local {
			return rs
		}
	}
	if len(rs) >= maxReaches {
		return rs
	}
	rs = append(rs, r)
	sort.Slice(rs, func(i, j int) bool {
		a, b := rs[i], rs[j]
		if a.Param != b.Param {
			return a.Param < b.Param
		}
		if a.Of != b.Of {
			return a.Of < b.Of
		}
		if a.Kind != b.Kind {
			return a.Kind < b.Kind
		}
		return a.Call < b.Call
	})
	return rs
}

// maxReaches caps the reach claims of one function: a fact stays small.
const maxReaches = 8

func equalFuncCalls(a, b []FuncCall) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].Param != b[i].Param || a[i].Times != b[i].Times || a[i].At != b[i].At || !slices.Equal(a[i].Args, b[i].Args) {
			return false
		}
	}
	return true
}

// calleeName is the full name of the called function or interface
// method, or "" for calls through func values and builtins.
func calleeName(c *ssa.CallCommon) string {
	if f := calleeFunc(c); f != nil {
		return f.FullName()
	}
	return ""
}

// calleeFunc is the called function or interface method as an object,
// generic instantiations mapped to their origin.
func calleeFunc(c *ssa.CallCommon) *types.Func {
	if c.IsInvoke() {
		return c.Method
	}
	if fn := c.StaticCallee(); fn != nil {
		if obj, ok := fn.Object().(*types.Func); ok {
			return obj.Origin()
		}
	}
	return nil
}

// calleeDisplay names the callee in messages: a closure called where it
// is made after the function making it.
func calleeDisplay(c *ssa.CallCommon) string {
	if f := calleeFunc(c); f != nil {
		return analysisutil.FuncName(f)
	}
	if f := c.StaticCallee(); f != nil && f.Parent() != nil {
		return funcDisplay(f)
	}
	return "a function value"
}

// funcDisplay names an SSA function in chains: closures after the
// function that makes them.
func funcDisplay(fn *ssa.Function) string {
	if obj, ok := fn.Object().(*types.Func); ok {
		return analysisutil.FuncName(obj)
	}
	for p := fn.Parent(); p != nil; p = p.Parent() {
		if obj, ok := p.Object().(*types.Func); ok {
			return analysisutil.FuncName(obj) + " (closure)"
		}
	}
	return fn.Name()
}
