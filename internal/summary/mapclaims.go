package summary

import (
	"go/token"
	"go/types"
	"sort"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/resilvet/resilvet/internal/analysisutil"
	"github.com/resilvet/resilvet/internal/knowledge"
)

// The resilience map's claims, recorded only in map mode (Config.Map):
// for each function of the package, the outbound calls it makes itself
// with what bounds each one there, and the calls it makes of other
// functions with what bounds each argument that carries a deadline (a
// context, a request, a client). The map driver joins them across the
// packages of a module, from each entry point (mapentries.go) down, the
// caller's bounds deciding where a callee's parameter does. They are
// local to the package and never facts: a dependency's helpers appear
// through their Reaches claims (a call reached with nothing bounding it
// on the way), which travel as facts already.

// Bound states of a MapBound.
const (
	MapBounded   = "bounded"   // a deadline or timeout is set: What and At say which and where
	MapUnbounded = "unbounded" // nothing bounds it: What and At say what is made without one
	MapParam     = "param"     // the caller decides: Owner's parameter Param
	MapUnknown   = "unknown"   // the engine cannot follow it
)

// MapBound is what bounds an outbound call, or an argument, where it is
// made.
type MapBound struct {
	State string
	// Of is what bounds or lacks a bound: "ctx", "request", "client",
	// "dialer", "conn", "transport", or "call" for a call that has no
	// bound of its own (http.Get).
	Of string
	// What and At: for MapBounded, what sets the bound
	// ("context.WithTimeout(3s)", "http.Client{Timeout}") and where; for
	// MapUnbounded, what is made without one ("context.Background()") and
	// where.
	What, At string
	// Owner is the map key of the function whose parameter Param (a
	// signature index, -1 the receiver) decides, for MapParam: the
	// function itself, or for a closure the function it is in.
	Owner string
	Param int
	// Either lists more parameters that decide with this one, for
	// MapParam: the call is bounded when any of them is.
	Either []MapBound
	// Weak is set for a call that may bound itself (a DNS lookup): a
	// caller's value without a deadline leaves its bound unknown, not
	// none.
	Weak bool
}

// MapCall is an outbound call of a function.
type MapCall struct {
	Kind string // "http", "grpc", "sql", …
	Call string // source form: "http.Client.Do"
	// At is the call's position; for Through, the position of the call
	// of that function: the outbound call inside it is in a dependency
	// the reader cannot change, the call into it is the reader's code.
	At string
	// Through is the map key of a function of another package that
	// reaches the call, by its Reaches claim, and ThroughName its source
	// form; Chain the calls on the way. The map driver uses these only
	// when it has no map claims of that package (a dependency), which
	// would show the call themselves.
	Through, ThroughName string
	Chain                []Link
	Bound                MapBound
	// Target is what the call reaches when the code says it: a URL's
	// constant parts, an SQL statement, a gRPC method.
	Target string
	// Layers are the retry layers and breakers around the call in the
	// function, outermost first; Idem whether the operation may run
	// twice.
	Layers []MapLayer
	Idem   MapIdem
}

// MapEdge is a call of another function, or a closure made (and so
// possibly run) by the function.
type MapEdge struct {
	// Callee is the callee's map key; empty for a call of a func value
	// the closure captured (an adapter's next(w, r)), or a method's call
	// of a handler its receiver holds (a middleware struct's
	// l.next.ServeHTTP): Captured is then the free variable's index, or
	// the field's, and the map driver runs what the closure or the struct
	// was made with, where it knows (mapfuncvals.go).
	Callee   string
	Captured int
	// Made is set for a func value the function makes (a closure, a
	// method value) rather than calls: it may run here, or where it is
	// handed (a registered handler's adapter). With lists the func values
	// a closure made here captures, by free variable: an adapter's closure
	// is made with the handler it calls.
	Made bool
	With []MapCapture
	At   string
	Go   bool // started with a go statement
	// Args are the bounds of the arguments that carry a deadline, by the
	// callee's parameter (signature index).
	Args []MapArg
	// Layers are the retry layers and breakers the callee runs in, in
	// the function: loops around the call, and for a function value the
	// layer it is handed to.
	Layers []MapLayer
}

// MapArg is the bound of the argument given for a parameter; for a
// request, also whether sending it may run twice.
type MapArg struct {
	Param int
	Bound MapBound
	Idem  *MapIdem
	// Target is the URL of a request made here (its constant parts).
	Target string
}

// MapFunc is one function's map claims.
type MapFunc struct {
	Key     string // MapKey
	Display string // source form, for people
	Pos     string
	Calls   []MapCall
	Edges   []MapEdge
	// Returns is the func value or handler the function returns, when it
	// returns one (mapfuncvals.go).
	Returns *MapFuncValue
}

// MapFuncs returns the package's functions' map claims (map mode only),
// sorted by key.
func (r *Result) MapFuncs() []*MapFunc { r.ready(); return r.mapFuncs }

// MapKey names a function for the map: its full name (generic functions
// by their origin), or the SSA name of a closure or wrapper.
func MapKey(fn *ssa.Function) string {
	if obj, ok := fn.Object().(*types.Func); ok {
		return obj.Origin().FullName()
	}
	return fn.String()
}

// mapClaims records every function's map claims in the Result.
func (e *engine) mapClaims() {
	e.resetMemo()
	for _, fn := range e.funcs {
		info := e.local[fn]
		if info == nil {
			continue
		}
		mf := &MapFunc{Key: MapKey(fn), Display: funcDisplay(fn), Pos: e.fullPos(fn.Pos()), Returns: e.mapReturns(fn)}
		for _, instr := range info.ix.calls {
			e.mapCall(mf, info, instr)
			// A function literal that captures nothing is a function,
			// not a MakeClosure.
			for _, a := range instr.Common().Args {
				if lit, ok := a.(*ssa.Function); ok && lit.Parent() != nil {
					e.mapClosure(mf, info, lit, lit, instr, lit.Pos())
				}
			}
		}
		for _, mc := range info.ix.closures {
			if fn, ok := mc.Fn.(*ssa.Function); ok {
				e.mapClosure(mf, info, fn, mc, handedTo(mc), mc.Pos())
			}
		}
		if len(mf.Calls) > 0 || len(mf.Edges) > 0 || mf.Returns != nil {
			e.res.mapFuncs = append(e.res.mapFuncs, mf)
		}
	}
	e.mapEntries()
	e.mapImpls()
	sort.Slice(e.res.mapFuncs, func(i, j int) bool { return e.res.mapFuncs[i].Key < e.res.mapFuncs[j].Key })
}

// mapCall records one call instruction: an outbound call, a callee's
// reaches, and an edge to a function.
func (e *engine) mapCall(mf *MapFunc, info *fnInfo, instr ssa.CallInstruction) {
	c := instr.Common()
	at := e.fullPos(c.Pos())
	if at == "" {
		at = e.fullPos(instr.Pos())
	}
	name := calleeName(c)
	if o, ok := e.ext.OutboundOf(name); ok && e.outboundApplies(c, o) {
		parts, f, ok := e.outboundParts(info, instr, name, o)
		if !ok && o.Bound == knowledge.Unchecked {
			// A call the analyzers do not judge (net.DialTimeout): on
			// the map, bounded by a duration it takes, else unknown.
			b := MapBound{State: MapUnknown, Of: "call"}
			if takesDuration(c.Signature()) {
				b = MapBound{State: MapBounded, Of: "call", What: calleeDisplay(c) + "'s timeout argument", At: at}
			} else if ctx := ctxArg(c); ctx != nil {
				// A context's deadline bounds it (a DNS lookup, a TLS
				// handshake); without one the call may still bound
				// itself (the resolver's own timeouts): unknown.
				b = e.mapBound([]part{{d: domCtx, v: e.evalAt(domCtx, ctx, instr)}}, instr)
				b.Weak = true
				if b.State == MapUnbounded {
					b = MapBound{State: MapUnknown, Of: "ctx"}
				}
			}
			mf.Calls = append(mf.Calls, MapCall{Kind: o.Kind.String(), Call: calleeDisplay(c), At: at, Bound: b, Target: e.mapTarget(info, instr), Layers: e.sendLayers(info, instr)})
			return
		}
		if !ok || f.local {
			return
		}
		mf.Calls = append(mf.Calls, MapCall{
			Kind: f.Kind, Call: f.Outbound, At: at, Bound: e.mapBound(parts, instr),
			Target: e.mapTarget(info, instr), Layers: e.sendLayers(info, instr), Idem: e.mapIdem(info, instr),
		})
		return
	}
	if registersEntry(c) {
		return // registration is not a call of what it registers
	}
	_, isGo := instr.(*ssa.Go)
	if fv, ok := capturedCallee(c); ok {
		mf.Edges = append(mf.Edges, MapEdge{Captured: fv, At: at, Go: isGo, Args: e.mapArgs(info, instr, c.Signature()), Layers: e.mapLayers(info, instr)})
		return
	}
	var callees []*ssa.Function
	var objs []*types.Func
	if targets, ok := e.dynamicTargets(c); ok {
		for _, t := range targets {
			objs = append(objs, t.method)
		}
	} else if fn := c.StaticCallee(); fn != nil {
		callees = append(callees, fn)
	} else if f := calleeFunc(c); f != nil {
		objs = append(objs, f)
	}
	// Edges go to the package's own functions, to its module's (whose
	// claims the map has: their work may go through func values and
	// interfaces no summary follows), and to other packages' that have
	// a summary: one that does outbound work has one (its Retries claim
	// says so), so the others reach no call of the map.
	for _, fn := range callees {
		obj, named := fn.Object().(*types.Func)
		switch {
		case e.local[fn] != nil:
		case named && obj.Pkg() != e.pass.Pkg:
			s := e.summaryOf(c)
			if s == nil && !e.inModule(obj.Pkg()) {
				continue
			}
			e.mapReaches(mf, instr, MapKey(fn), funcDisplay(fn), s)
		case named: // a method value's wrapper: the method is the callee
		default:
			continue
		}
		mf.Edges = append(mf.Edges, MapEdge{Callee: MapKey(fn), At: at, Go: isGo, Args: e.mapArgs(info, instr, fn.Signature), Layers: e.mapLayers(info, instr)})
	}
	for _, obj := range objs {
		key := obj.Origin().FullName()
		if obj.Pkg() != e.pass.Pkg {
			s := e.summaryOfFunc(obj)
			if s == nil && !e.inModule(obj.Pkg()) {
				continue
			}
			e.mapReaches(mf, instr, key, analysisutil.FuncName(obj), s)
		}
		sig, _ := obj.Type().(*types.Signature)
		mf.Edges = append(mf.Edges, MapEdge{Callee: key, At: at, Go: isGo, Args: e.mapArgs(info, instr, sig), Layers: e.mapLayers(info, instr)})
	}
}

// mapReaches records the outbound calls a function of another package
// reaches by its Reaches claim, bounded as the argument the caller gives,
// at the call of that function: for a dependency, where the module's own
// code reaches it.
func (e *engine) mapReaches(mf *MapFunc, instr ssa.CallInstruction, key, name string, s *FuncSummary) {
	if s == nil {
		return
	}
	c := instr.Common()
	at := e.fullPos(c.Pos())
	if at == "" {
		at = e.fullPos(instr.Pos())
	}
	for _, r := range s.Reaches {
		d, ok := domainOf(r.Of)
		a := argOf(c, r.Param)
		if !ok || a == nil || r.Local {
			continue
		}
		b := e.mapBound([]part{{d: d, v: e.evalAt(d, a, instr)}}, instr)
		mf.Calls = append(mf.Calls, MapCall{Kind: r.Kind, Call: r.Call, At: at, Through: key, ThroughName: name, Chain: r.Chain, Bound: b, Layers: e.mapLayers(e.local[instr.Parent()], instr)})
	}
}

// mapClosure records a closure the function makes as an edge: it may run
// here or be handed to what runs it (a retry layer, a breaker, a
// goroutine). Its context parameters get the context of the call that
// runs it (contextRunner), which such layers pass on (derived, with the
// same deadline); anywhere else they are unknown.
func (e *engine) mapClosure(mf *MapFunc, info *fnInfo, fn *ssa.Function, v ssa.Value, to ssa.CallInstruction, pos token.Pos) {
	if to != nil && registersEntry(to.Common()) {
		return // an entry point of its own (mapentries.go), not work done here
	}
	if !pos.IsValid() {
		pos = fn.Pos() // a closure returned: where its literal is
	}
	edge := MapEdge{Callee: MapKey(fn), At: e.fullPos(pos), Made: true}
	if mc, ok := v.(*ssa.MakeClosure); ok {
		edge.With = e.capturedValues(mc, 0)
	}
	if to != nil {
		edge.Layers = e.handedLayers(info, to, argIndex(to.Common(), v))
	}
	for i, p := range paramsOf(fn.Signature) {
		if !analysisutil.IsContext(p.Type()) {
			continue
		}
		b := MapBound{State: MapUnknown, Of: "ctx"}
		if runner := contextRunner(to); runner != nil {
			b = e.mapBound([]part{{d: domCtx, v: e.evalAt(domCtx, ctxArg(runner.Common()), runner)}}, runner)
		}
		edge.Args = append(edge.Args, MapArg{Param: i, Bound: b})
	}
	mf.Edges = append(mf.Edges, edge)
}

// contextRunner returns the call that runs a closure handed to call with
// a context: call itself when it takes one (retry.Do(ctx, p, f)), or the
// call its result is handed to, when call only wraps the closure
// (hedge.Do(ctx, p, hedge.Idempotent(f))); nil if neither.
func contextRunner(call ssa.CallInstruction) ssa.CallInstruction {
	if call == nil {
		return nil
	}
	if ctxArg(call.Common()) != nil {
		return call
	}
	if v, ok := call.(*ssa.Call); ok && v.Referrers() != nil {
		for _, r := range *v.Referrers() {
			if outer, ok := r.(ssa.CallInstruction); ok && outer.Common().Value != v && ctxArg(outer.Common()) != nil {
				return outer
			}
		}
	}
	return nil
}

// handedTo returns the call a closure is handed to as an argument, if
// any.
func handedTo(mc *ssa.MakeClosure) ssa.CallInstruction {
	for _, r := range *mc.Referrers() {
		if call, ok := r.(ssa.CallInstruction); ok && call.Common().Value != mc {
			return call
		}
	}
	return nil
}

// inModule reports whether pkg belongs to the module mapped (false when
// neither the driver nor the map's options say which module that is).
func (e *engine) inModule(pkg *types.Package) bool {
	mod := e.mapModule
	if m := e.pass.Module; m != nil && m.Path != "" {
		mod = m.Path
	}
	if mod == "" || pkg == nil {
		return false
	}
	return pkg.Path() == mod || strings.HasPrefix(pkg.Path(), mod+"/")
}

// registersEntry reports whether a call registers a handler, a gRPC
// service or a scheduled job: what it is given is an entry point.
func registersEntry(c *ssa.CallCommon) bool {
	name := calleeName(c)
	_, route := knowledge.RouteOf(name)
	_, scheduled := knowledge.ScheduledFunc(name)
	return route || scheduled || isServiceRegistration(c)
}
