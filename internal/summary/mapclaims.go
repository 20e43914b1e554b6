package summary

import (
	"fmt"
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
	At   string // the call's position (the outbound call inside a helper for Through)
	// Through is the map key of a function of another package that
	// reaches the call, by its Reaches claim; Chain the calls on the way.
	// The map driver uses these only when it has no map claims of that
	// package (a dependency), which would show the call themselves.
	Through string
	Chain   []Link
	Bound   MapBound
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
	Callee string // the callee's map key
	At     string
	Go     bool // started with a go statement
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
		mf := &MapFunc{Key: MapKey(fn), Display: funcDisplay(fn), Pos: e.fullPos(fn.Pos())}
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
		if len(mf.Calls) > 0 || len(mf.Edges) > 0 {
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
			e.mapReaches(mf, instr, MapKey(fn), s)
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
			e.mapReaches(mf, instr, key, s)
		}
		sig, _ := obj.Type().(*types.Signature)
		mf.Edges = append(mf.Edges, MapEdge{Callee: key, At: at, Go: isGo, Args: e.mapArgs(info, instr, sig), Layers: e.mapLayers(info, instr)})
	}
}

// mapReaches records the outbound calls a function of another package
// reaches by its Reaches claim, bounded as the argument the caller gives.
func (e *engine) mapReaches(mf *MapFunc, instr ssa.CallInstruction, key string, s *FuncSummary) {
	if s == nil {
		return
	}
	c := instr.Common()
	for _, r := range s.Reaches {
		d, ok := domainOf(r.Of)
		a := argOf(c, r.Param)
		if !ok || a == nil || r.Local {
			continue
		}
		at := ""
		if len(r.Chain) > 0 {
			at = r.Chain[len(r.Chain)-1].At
		}
		b := e.mapBound([]part{{d: d, v: e.evalAt(d, a, instr)}}, instr)
		mf.Calls = append(mf.Calls, MapCall{Kind: r.Kind, Call: r.Call, At: at, Through: key, Chain: r.Chain, Bound: b, Layers: e.mapLayers(e.local[instr.Parent()], instr)})
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
	edge := MapEdge{Callee: MapKey(fn), At: e.fullPos(pos)}
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

// mapArgs returns the bounds of the arguments of a call given for the
// parameters of sig that carry a deadline.
func (e *engine) mapArgs(info *fnInfo, instr ssa.CallInstruction, sig *types.Signature) []MapArg {
	if sig == nil {
		return nil
	}
	c := instr.Common()
	var out []MapArg
	for i, p := range paramsOf(sig) {
		d, ok := deadlineDomain(p.Type())
		if !ok {
			continue
		}
		a := argOf(c, i)
		if a == nil {
			continue
		}
		arg := MapArg{Param: i, Bound: e.mapBound([]part{{d: d, v: e.evalAt(d, a, instr)}}, instr)}
		if d == domRequest {
			if idem := e.requestIdem(info, instr, a); idem.State != "" {
				arg.Idem = &idem
			}
			arg.Target = e.requestTarget(a)
		}
		out = append(out, arg)
	}
	if recv := sig.Recv(); recv != nil {
		if d, ok := deadlineDomain(recv.Type()); ok {
			if a := argOf(c, -1); a != nil {
				out = append(out, MapArg{Param: -1, Bound: e.mapBound([]part{{d: d, v: e.evalAt(d, a, instr)}}, instr)})
			}
		}
	}
	return out
}

// takesDuration reports whether sig has a time.Duration parameter.
func takesDuration(sig *types.Signature) bool {
	for _, p := range paramsOf(sig) {
		if analysisutil.IsDuration(p.Type()) {
			return true
		}
	}
	return false
}

// ctxArg returns the context a call is given, if any.
func ctxArg(c *ssa.CallCommon) ssa.Value {
	for _, a := range c.Args {
		if analysisutil.IsContext(a.Type()) {
			return a
		}
	}
	return nil
}

// paramsOf returns sig's parameters, receiver excluded.
func paramsOf(sig *types.Signature) []*types.Var {
	out := make([]*types.Var, sig.Params().Len())
	for i := range out {
		out[i] = sig.Params().At(i)
	}
	return out
}

// deadlineDomain returns the domain of a parameter type that carries a
// deadline: a context, a request (by its context), a client (by its
// Timeout).
func deadlineDomain(t types.Type) (domain, bool) {
	d, ok := domainOfType(t)
	return d, ok && d != domTransport
}

// mapBound decides what bounds a call from the values that could: the
// first bounded one; else unknown if one cannot be followed; else the
// caller's parameter; else the unbounded one.
func (e *engine) mapBound(parts []part, instr ssa.Instruction) MapBound {
	for _, p := range parts {
		if p.v.state() != stBounded {
			continue
		}
		b := MapBound{State: MapBounded, Of: p.d.String()}
		for _, s := range p.v {
			if s.kind == srcBounded && s.what != "" {
				b.What, b.At = s.what, e.fullPos(e.callStart(s.pos))
				break
			}
		}
		return b
	}
	var params []MapBound
	for _, p := range parts {
		switch p.v.state() {
		case stUnknown:
			return MapBound{State: MapUnknown, Of: p.d.String()}
		case stParam:
			s := p.v.params()[0]
			params = append(params, MapBound{State: MapParam, Of: p.d.String(), Owner: MapKey(s.fn), Param: sigIndex(s.fn, s.fn.Params[s.param])})
		}
	}
	switch len(params) {
	case 0:
	case 1:
		return params[0]
	default:
		// Two of the caller's values decide (a context and a client):
		// either bounds the call.
		b := params[0]
		b.Either = params[1:]
		return b
	}
	for _, p := range parts {
		if us := p.v.unbounded(); len(us) > 0 {
			of := p.d.String()
			if us[0].fn != nil && us[0].pos == instr.Pos() {
				of = "call"
			}
			return MapBound{State: MapUnbounded, Of: of, What: us[0].what, At: e.srcAtFull(us[0])}
		}
	}
	return MapBound{State: MapUnknown}
}

// srcAtFull is where an unbounded value is made, with its file's path.
func (e *engine) srcAtFull(s src) string {
	if s.at != "" {
		return s.at
	}
	return e.fullPos(e.callStart(s.pos))
}

// fullPos is a position as file:line:col with the file's full path,
// which the map driver makes relative to the module; "" when unknown.
func (e *engine) fullPos(pos token.Pos) string {
	if !pos.IsValid() {
		return ""
	}
	p := e.pass.Fset.Position(pos)
	return fmt.Sprintf("%s:%d:%d", p.Filename, p.Line, p.Column)
}
