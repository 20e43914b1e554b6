package summary

import (
	"go/token"
	"go/types"
	"sort"

	"golang.org/x/tools/go/ssa"

	"github.com/resilvet/resilvet/internal/analysisutil"
	"github.com/resilvet/resilvet/internal/knowledge"
)

// ctxClaims computes ctxdrop's claims over SSA: IgnoresCtx for every
// named function, then DropsCtx, directly from the root uses and through
// callees to a fixed point.
func (e *engine) ctxClaims(roots []*RootUse) {
	var named []*fnInfo
	for _, fn := range e.funcs {
		if info := e.local[fn]; info.obj != nil && fn.Blocks != nil {
			named = append(named, info)
		}
	}
	// Source order, so chains are deterministic.
	sort.Slice(named, func(i, j int) bool { return named[i].fn.Pos() < named[j].fn.Pos() })
	if e.std {
		// The standard library's internals make no claims: its entry
		// points that drop a context are in the twins table.
		return
	}
	// To a fixed point: a function handing its context only to ones that
	// ignore theirs ignores it too (a logger getter reading a value).
	for changed := true; changed; {
		changed = false
		for _, info := range named {
			if !info.ignoresCtx && !e.isOutbound(info) && e.ignoresCtx(info.fn) {
				info.ignoresCtx, changed = true, true
			}
		}
	}
	for _, u := range roots {
		for _, s := range u.Sinks {
			if m := s.Callee; m != nil && e.byObj[m.Origin()] == nil && e.imported(m.Origin()) == nil && e.implsIgnoreCtx(m.Origin()) {
				e.res.implsIgnore[m.Origin()] = true
			}
		}
	}
	e.computeWaits(named)
	e.computeRetains(named)
	e.markLocalSinks(roots)
	e.markSchemaSinks(roots)
	module := analysisutil.ModulePath(e.pass)

	type edgeTo struct {
		callee *types.Func
		pos    token.Pos
	}
	edges := map[*fnInfo][]edgeTo{}
	byFunc := map[*ssa.Function][]*RootUse{}
	for _, u := range roots {
		byFunc[u.Func] = append(byFunc[u.Func], u)
	}
	var candidates []*fnInfo
	for _, info := range named {
		sig := info.obj.Type().(*types.Signature)
		if analysisutil.HasContextValueParam(sig) || knowledge.IsCleanupFuncName(info.obj.Name()) {
			continue
		}
		candidates = append(candidates, info)
		info.drop, info.dropPos = e.directDrop(byFunc[info.fn], module)
		if info.drop == nil {
			info.drop, info.dropPos = e.twinDrop(info, module)
		}
		for _, b := range info.fn.Blocks {
			for _, instr := range b.Instrs {
				// Only calls that run now: a go or defer statement starts
				// work on its own lifetime, and closures are functions of
				// their own.
				call, ok := instr.(*ssa.Call)
				if !ok {
					continue
				}
				callee := calleeFunc(call.Common())
				if callee == nil || callee == info.obj {
					continue
				}
				if csig, ok := callee.Type().(*types.Signature); !ok || analysisutil.TakesContext(csig) {
					continue
				}
				edges[info] = append(edges[info], edgeTo{callee, call.Common().Pos()})
			}
		}
	}
	// Propagate drops from callees to callers until nothing changes. Each
	// round visits functions in source order and takes the first dropping
	// callee; a function that drops directly keeps its own evidence.
	for changed := true; changed; {
		changed = false
		for _, info := range candidates {
			if info.drop != nil {
				continue
			}
			for _, edge := range edges[info] {
				if tw, ok := knowledge.TwinOf(edge.callee.Origin().FullName()); ok && tw.Bounded {
					continue // bounded by its own timeouts (net.DialTimeout, dns.Client.Exchange)
				}
				if knowledge.IsMigrationName(analysisutil.FuncName(edge.callee)) {
					continue // a schema migration, unbounded on purpose
				}
				cd, cpos := e.dropOf(edge.callee)
				if cd == nil {
					continue
				}
				start := e.callStart(edge.pos)
				chain := capChain(append([]Link{{Func: analysisutil.FuncName(edge.callee), At: analysisutil.ShortPos(e.pass.Fset, start), Alt: e.res.ContextAlternative(edge.callee), Module: module}}, cd.Chain...))
				info.drop = &Drop{Root: cd.Root, At: cd.At, Chain: chain, Module: cd.Module, Via: cd.Via, Twin: cd.Twin, Bounded: cd.Bounded}
				info.dropPos = append([]token.Pos{start}, cpos...)
				changed = true
				break
			}
		}
	}
}

// twinDrop returns the evidence that a function without a context calls,
// synchronously, a function that has a context-taking twin and does its
// work now (net.LookupHost, db.Ping): it runs with context.Background()
// inside, and a caller that has a context cannot hand it over. Calls that
// build work to be run later (http.NewRequest, exec.Command) are left
// out: the caller may still attach its context to the result.
func (e *engine) twinDrop(info *fnInfo, module string) (*Drop, []token.Pos) {
	for _, instr := range info.ix.calls {
		call, ok := instr.(*ssa.Call)
		if !ok {
			continue
		}
		callee := calleeFunc(call.Common())
		if callee == nil {
			continue
		}
		twin, ok := knowledge.TwinOf(callee.FullName())
		if !ok || twin.Bounded || analysisutil.IsDeferredWork(callee.Type().(*types.Signature).Results()) {
			continue
		}
		if e.embeddedSQL && isSQLFunc(callee) {
			continue // db.Query on an in-process database: local work
		}
		if isSQLFunc(callee) && (e.schemaStatement(call.Common()) || preparedForLater(call)) {
			continue // set-up: db.Exec(schema), statements prepared for later
		}
		if recv := e.receiverOf(call.Common()); recv != nil && isNamedPtr(recv.Type(), "net/http", "Client") && e.ev.eval(domClient, recv).state() == stBounded {
			continue // client.Post on a client with Timeout: bounded
		}
		start := e.callStart(call.Pos())
		return &Drop{Root: "context.Background", At: analysisutil.ShortPos(e.pass.Fset, start), Module: module, Via: analysisutil.FuncName(callee), Twin: twin.Display}, []token.Pos{start}
	}
	return nil, nil
}

// dropOf returns the DropsCtx claim of a callee, local or imported, and
// for a local one the positions of its chain.
func (e *engine) dropOf(callee *types.Func) (*Drop, []token.Pos) {
	callee = callee.Origin()
	if info := e.byObj[callee]; info != nil {
		return info.drop, info.dropPos
	}
	if s := e.imported(callee); s != nil {
		return s.DropsCtx, nil
	}
	return nil, nil
}

// directDrop returns the evidence that the function creates a root
// context that reaches context-taking work synchronously in its own body
// (not in closures, goroutines or deferred calls, whose lifetime is
// deliberately not the caller's).
func (e *engine) directDrop(uses []*RootUse, module string) (*Drop, []token.Pos) {
	for _, u := range uses {
		for _, s := range u.Sinks {
			// Only a statically known callee is evidence: a callback (a
			// func field or parameter) may do anything or nothing.
			if s.Kind != SinkCall || s.InClosure || s.Callee == nil || s.dropsNothing(e.exempt) || e.onlyLocalWork(s.Callee) {
				continue
			}
			d := &Drop{Root: u.Root, At: analysisutil.ShortPos(e.pass.Fset, e.callStart(u.Pos)), Module: module, Bounded: u.Bounded}
			return d, []token.Pos{e.callStart(u.Pos)}
		}
	}
	return nil, nil
}

// exempt applies the exemption rule (exemptCallee) with the claims
// computed so far: the functions of this package, the facts of the
// others, and for an interface method that has neither, the
// implementations the package can see.
func (e *engine) exempt(callee *types.Func) bool {
	return exemptCallee(callee, e.ctxClaimsOf, func(fn *types.Func) bool {
		return e.byObj[fn] == nil && e.imported(fn) == nil && e.implsIgnoreCtx(fn)
	})
}

// ctxClaimsOf returns whether a function ignores its context and whether
// it keeps it (retainsOwn), by the claims computed so far.
func (e *engine) ctxClaimsOf(fn *types.Func) (ignores, retains bool) {
	retains = e.retainsOwn(fn)
	if info := e.byObj[fn]; info != nil {
		return info.ignoresCtx, retains
	}
	if s := e.imported(fn); s != nil {
		return s.IgnoresCtx, retains
	}
	return false, retains
}

// onlyLocalWork reports whether a context handed to callee reaches only
// local work there: files, in-process channels and waits, SQL on an
// in-process database. A helper that makes its own context for such a
// callee drops no bound on a dependency, and adding a context parameter
// to it would buy nothing. Only a callee whose claims are known is
// judged: an outbound call of the table is remote work, and a function
// with no summary may do anything.
func (e *engine) onlyLocalWork(callee *types.Func) bool {
	callee = callee.Origin()
	if _, ok := e.ext.OutboundOf(callee.FullName()); ok {
		return false
	}
	s := e.summaryOfFunc(callee)
	return s != nil && len(s.CtxIO) > 0 && len(s.CtxRemote) == 0
}

// markLocalSinks marks the sinks that do only local work with a root
// context: in a package whose database is in process, SQL calls, calls
// handed the database itself (a query builder's q.Query(ctx, db)), and
// calls of functions whose context reaches only SQL.
func (e *engine) markLocalSinks(roots []*RootUse) {
	if !e.embeddedSQL {
		return
	}
	for _, u := range roots {
		for i := range u.Sinks {
			if s := &u.Sinks[i]; s.Kind == SinkCall && s.Callee != nil {
				s.Local = s.Local || isSQLFunc(s.Callee) || s.handsDB || e.reachesOnlySQL(s.Callee)
			}
		}
	}
}

// markSchemaSinks marks the sinks that run a schema statement (its
// first string argument, as the engine reads it): set-up, not a dropped
// request context.
func (e *engine) markSchemaSinks(roots []*RootUse) {
	for _, u := range roots {
		for i := range u.Sinks {
			if s := &u.Sinks[i]; s.Kind == SinkCall && s.call != nil && !s.SetUp {
				s.SetUp = e.schemaStatement(s.call)
			}
		}
	}
}

// isSQLFunc reports whether fn is a function or method of database/sql.
func isSQLFunc(fn *types.Func) bool {
	return fn.Pkg() != nil && fn.Pkg().Path() == "database/sql"
}

// reachesOnlySQL reports whether the context parameters of fn reach
// outbound work, all of it SQL.
func (e *engine) reachesOnlySQL(fn *types.Func) bool {
	fn = fn.Origin()
	if info := e.byObj[fn]; info != nil {
		return onlySQL(info.summary())
	}
	return onlySQL(e.imported(fn))
}

// onlySQL reports whether a summary's context reach claims are all SQL,
// and there is one.
func onlySQL(s *FuncSummary) bool {
	if s == nil {
		return false
	}
	n := 0
	for _, r := range s.Reaches {
		if r.Of != "ctx" {
			continue
		}
		if r.Kind != knowledge.SQL.String() {
			return false
		}
		n++
	}
	return n > 0
}

// ignoresCtx reports whether the function has context parameters and
// none of them is used except as an argument to a values-only call
// (logging, metrics): such a function drops nothing when handed a root
// context.
// isOutbound reports whether the function is an outbound call of the
// knowledge table (or the user's additions): it does I/O with its context
// by definition, whatever a body in sight (a test stub, a wrapper over a
// transport the engine cannot follow) seems to do with it.
func (e *engine) isOutbound(info *fnInfo) bool {
	if info.obj == nil {
		return false
	}
	_, outbound := e.ext.OutboundOf(info.obj.FullName())
	return outbound
}

func (e *engine) ignoresCtx(fn *ssa.Function) bool {
	has := false
	for _, p := range fn.Params {
		if !analysisutil.IsContext(p.Type()) {
			continue
		}
		has = true
		if !e.onlyForValues(p, 0) {
			return false
		}
	}
	return has
}

// onlyForValues reports whether a context value is used for its values
// alone: read with Value, handed to functions that ignore theirs or only
// log with it, or to a derivation (a tracer's Start, WithValue) whose
// result is used the same way.
func (e *engine) onlyForValues(v ssa.Value, depth int) bool {
	refs := v.Referrers()
	if refs == nil {
		return true
	}
	if depth > 3 {
		return false
	}
	for _, r := range *refs {
		if _, ok := r.(*ssa.DebugRef); ok {
			continue
		}
		c, ok := r.(*ssa.Call)
		if !ok {
			return false
		}
		cc := c.Common()
		if cc.Value == v {
			// ctx.Value(key): a logger or a request ID, no bound.
			if !cc.IsInvoke() || cc.Method.Name() != "Value" {
				return false
			}
			continue
		}
		callee := calleeFunc(cc)
		switch {
		case callee == nil:
			return false
		case isExemptSink(callee) || e.knownToIgnore(callee):
		case knowledge.IsContextDerivation(callee.Origin().FullName()):
			if !e.derivedOnlyForValues(c, depth) {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// derivedOnlyForValues applies onlyForValues to the contexts a
// derivation returns.
func (e *engine) derivedOnlyForValues(c *ssa.Call, depth int) bool {
	if analysisutil.IsContext(c.Type()) {
		return e.onlyForValues(c, depth+1)
	}
	refs := c.Referrers()
	if refs == nil {
		return true
	}
	for _, r := range *refs {
		x, ok := r.(*ssa.Extract)
		if !ok {
			if _, dbg := r.(*ssa.DebugRef); dbg {
				continue
			}
			return false
		}
		if analysisutil.IsContext(x.Type()) && !e.onlyForValues(x, depth+1) {
			return false
		}
	}
	return true
}

// knownToIgnore reports whether callee is already known to ignore its
// context: this package's claim so far, or its fact; for an interface
// method, every implementation this package can see ignores it (a driver
// registry whose drivers all take _ context.Context).
func (e *engine) knownToIgnore(callee *types.Func) bool {
	callee = callee.Origin()
	if info := e.byObj[callee]; info != nil {
		return info.ignoresCtx
	}
	if s := e.imported(callee); s != nil {
		return s.IgnoresCtx
	}
	// An outbound method of the table (gRPC's Invoke) is remote work
	// whatever the implementations in sight.
	if _, ok := e.ext.OutboundOf(callee.FullName()); ok {
		return false
	}
	recv := callee.Type().(*types.Signature).Recv()
	return recv != nil && types.IsInterface(recv.Type()) && e.implsIgnoreCtx(callee)
}

// computeWaits sets the Waits claim of the named functions that take no
// context: the function can block, on a channel, a select without a
// default, a sleep, a WaitGroup or Cond, outbound I/O, or a callee that
// can. Its reader is ctxdrop's name rule: a plain function beside a
// context-taking variant is that variant without a context only if it
// waits or makes its own context; a getter that returns at once beside a
// variant that waits for the value is not (PrimaryInfo beside
// PrimaryInfoWithContext), and the swap would make the caller wait.
func (e *engine) computeWaits(named []*fnInfo) {
	var todo []*fnInfo
	read := false // the claim is read (and exported) only beside a variant
	for _, info := range named {
		if !analysisutil.TakesContext(info.obj.Type().(*types.Signature)) {
			todo = append(todo, info)
			read = read || contextAlternative(info.obj) != nil
		}
	}
	if !read {
		return // no function here has a context-taking variant: nothing reads it
	}
	for changed := true; changed; {
		changed = false
		for _, info := range todo {
			if !info.waits && e.waitsIn(info.fn, map[*ssa.Function]bool{}) {
				info.waits, changed = true, true
			}
		}
	}
}

// waitsIn reports whether fn, or a closure it calls or a callee already
// known to wait, can block.
func (e *engine) waitsIn(fn *ssa.Function, seen map[*ssa.Function]bool) bool {
	if seen[fn] {
		return false
	}
	seen[fn] = true
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			if blocksAt(instr) {
				return true
			}
			instr, ok := instr.(ssa.CallInstruction)
			if !ok {
				continue
			}
			if _, ok := instr.(*ssa.Go); ok {
				continue
			}
			c := instr.Common()
			name := calleeName(c)
			if _, ok := instr.(*ssa.Defer); ok && knowledge.Waits(name) {
				return true // a deferred wait blocks too
			}
			if _, ok := e.ext.OutboundOf(name); ok {
				return true
			}
			if mc, ok := c.Value.(*ssa.MakeClosure); ok {
				if e.waitsIn(mc.Fn.(*ssa.Function), seen) {
					return true
				}
				continue
			}
			callee := calleeFunc(c)
			if callee == nil {
				continue
			}
			if s := e.summaryOfFunc(callee.Origin()); s != nil && len(s.CtxIO) > 0 && analysisutil.TakesContext(callee.Type().(*types.Signature)) {
				// A callee whose context matters waits on it, or on
				// what it reaches. Handed nil for every context that
				// matters (ValidateStruct calling
				// ValidateStructWithContext(nil, …)), it waits on no
				// context: only on an outbound call it reaches.
				if !nilContexts(c, s.CtxIO) || len(s.Reaches) > 0 {
					return true
				}
			}
			if info := e.byObj[callee.Origin()]; info != nil {
				if info.waits {
					return true
				}
				continue
			}
			if s := e.imported(callee); s != nil && s.Waits {
				return true
			}
		}
	}
	return false
}

// nilContexts reports whether the call passes the nil constant for each
// of the context parameters (signature indexes) listed.
func nilContexts(c *ssa.CallCommon, params []int) bool {
	for _, k := range params {
		if a := argOf(c, k); a == nil || !isNilConst(a) {
			return false
		}
	}
	return true
}
