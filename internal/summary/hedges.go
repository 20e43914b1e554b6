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

// The hedges module: the places where an operation may run more than
// once, and what it then does twice. A hedge runs copies concurrently: a
// send through a hedging HTTP client or round tripper (hedgedhttp,
// failsafe-go's HTTP integration with a hedge policy), an executor with a
// hedge policy, a gRPC call on a connection whose service config hedges
// the method, the same work launched again from a timer while the first
// copy is in flight; and the runtime's hedge.Idempotent declares an
// operation safe to hedge. A retry layer runs attempts one after another,
// but an attempt that timed out may have taken effect: the layers are
// retrystack's (loops, libraries, retrying helpers, clients, connections).
// Each is matched with the effects module's claim on what it runs.
// Hedging clients travel across packages in the HTTP clients module's
// facts (a RetryLink with Hedge set) and gRPC service configs in the
// connections' (MethodRetry.Hedge).

// Duplicate is an operation that may run more than once and has an
// effect that is not idempotent.
type Duplicate struct {
	// Pos is the hedged or retried call, the layer's call around a
	// function, or the hedge.Idempotent declaration.
	Pos token.Pos
	// Func names the function holding it.
	Func string
	// Hedge is set for concurrent copies, unset for retries.
	Hedge bool
	// Declared is set for the runtime's hedge.Idempotent declaration.
	Declared bool
	// Blind is set for a retrying client's own layer, which retries a
	// request whatever its method (go-retryablehttp).
	Blind bool
	// Layer names the hedge or retry layer ("retry loop (3 attempts)",
	// "hedgedhttp.NewClient (3 copies)") and LayerPos is where it is
	// built, in this package (NoPos elsewhere).
	Layer    string
	LayerPos token.Pos
	// Effect is the effect, with its chain's positions in this package
	// (NoPos elsewhere).
	Effect    Effect
	EffectPos []token.Pos
	// Request is the call making the request sent, when it is made in
	// the function holding Pos, outside the layer (a key set on it then
	// serves every copy and attempt); NoPos otherwise.
	Request token.Pos
}

// Duplicates lists the package's operations that may run more than once
// with an effect that is not idempotent, in source order.
func (r *Result) Duplicates() []*Duplicate { r.ready(); return r.duplicates }

// duplicateClaims finds every hedge and retry layer of the package and
// records the ones around an effect.
func (e *engine) duplicateClaims() {
	// Callees first: a caller reads the layers its callees send its
	// requests through.
	for _, scc := range e.order {
		for _, fn := range scc {
			info := e.local[fn]
			loops := e.retryLoops(info)
			for _, instr := range info.ix.calls {
				e.retriedCall(info, loops, instr)
				e.hedgedCall(info, instr)
				e.layeredSend(info, instr)
			}
			e.timerHedges(info)
		}
	}
	sort.SliceStable(e.res.duplicates, func(i, j int) bool { return e.res.duplicates[i].Pos < e.res.duplicates[j].Pos })
}

// addDuplicate records a duplicate of the first effect, once per
// position. A request the function is given, sent through the layer, is
// its callers' to decide: the function's Effects claim says so, with the
// layer.
func (e *engine) addDuplicate(info *fnInfo, d Duplicate, effs []effect) {
	if len(effs) == 0 || !d.Pos.IsValid() {
		return
	}
	ef := effs[0]
	for _, x := range effs {
		if x.Request == nil {
			ef = x
			break
		}
	}
	if ef.Request != nil {
		for _, x := range effs {
			if x.Request != nil && x.Layer == "" && x.paramFn == info.fn {
				layered := x
				layered.Layer, layered.Hedge, layered.Blind, layered.layerPos = d.Layer, d.Hedge, d.Blind, d.LayerPos
				info.sendDups = addEffects(info.sendDups, []effect{layered})
			}
		}
		return
	}
	for _, x := range e.res.duplicates {
		if x.Pos == d.Pos {
			return
		}
	}
	d.Effect, d.EffectPos = ef.Effect, ef.pos
	d.Request = token.NoPos
	e.res.duplicates = append(e.res.duplicates, &d)
}

// requestFix returns the call making the request of an effect when it is
// made in fn and outside the loop body given (nil for none).
func requestFix(fn *ssa.Function, effs []effect, body map[*ssa.BasicBlock]bool) token.Pos {
	for _, ef := range effs {
		if ef.Request == nil && ef.made != nil && ef.made.Parent() == fn && !body[ef.made.Block()] {
			return ef.made.Pos()
		}
	}
	return token.NoPos
}

// retriedCall records a call retried by a layer of the function: its own
// loops around it, a library layer or retrying helper it hands a func
// value to, a retrying client's send, a call on a connection dialled with
// retries.
func (e *engine) retriedCall(info *fnInfo, loops map[*loop]*loopLayer, instr ssa.CallInstruction) {
	c := instr.Common()
	here := Link{Func: calleeDisplay(c), At: analysisutil.ShortPos(e.pass.Fset, c.Pos())}
	d := Duplicate{Pos: instr.Pos(), Func: funcDisplay(info.fn)}
	if !d.Pos.IsValid() {
		d.Pos = c.Pos()
	}
	// The function's own loops around the call.
	var inner, outer *loopLayer
	for l := info.ix.loopOf[instr.Block()]; l != nil; l = l.parent {
		if ll := loops[l]; ll != nil && ll.link.Attempts != 1 && !failureLeaves(l, instr) {
			if inner == nil {
				inner = ll
			}
			outer = ll
		}
	}
	if inner != nil {
		effs := e.callEffects(info, instr)
		d.Layer, d.LayerPos = layerText(inner.link.RetryLink), inner.link.pos
		e.addDuplicateFix(info, d, effs, outer.l.body)
		return
	}
	// A library layer around a func value, or a retrying client's send.
	if l, ok := e.retryLayerAt(c); ok {
		link, ok := e.libraryLink(info, c, l)
		if !ok {
			return
		}
		d.Layer, d.LayerPos = layerText(link.RetryLink), link.pos
		if l.FuncArg >= 0 {
			d.Pos = c.Pos()
			effs := e.funcValueEffects(info.fn, argOf(c, l.FuncArg), here)
			e.addDuplicateFix(info, d, effs, nil)
			return
		}
		// A retrying client's own layer: an HTTP client retries the
		// request whatever its method. SDK clients (the AWS SDK's idempotency
		// tokens, franz-go's idempotent producer) make the operations they
		// retry idempotent themselves.
		var sends []effect
		for _, ef := range e.callEffects(info, instr) {
			if ef.Kind == "http" {
				sends = append(sends, ef)
			}
		}
		d.Blind = true
		e.addDuplicateFix(info, d, sends, nil)
		return
	}
	// A send through a client whose transport retries, a call on a
	// connection dialled with retries.
	if chain, ok := e.httpSendLayers(info, c); ok {
		last := chain[len(chain)-1]
		d.Layer, d.LayerPos, d.Blind = layerText(last.RetryLink), last.pos, last.Client
		e.addDuplicateFix(info, d, e.callEffects(info, instr), nil)
		return
	}
	if link, ok := e.grpcLayer(info, c); ok {
		d.Layer, d.LayerPos = layerText(link.RetryLink), link.pos
		e.addDuplicate(info, d, e.callEffects(info, instr))
		return
	}
	// A helper retrying the func values it is given.
	if s := e.retriesOf(c); s != nil {
		for _, rp := range s.Params {
			layers := dropDisabled(e.atCall(c, nil, fromLinks(rp.Chain)))
			if len(layers) == 0 {
				continue
			}
			last := layers[len(layers)-1]
			if rp.CountParam >= 0 {
				if n, ok := e.intArg(c, rp.CountParam); ok && attemptsOf(n) == 1 {
					continue
				}
			}
			d.Layer, d.LayerPos = layerText(last.RetryLink), last.pos
			e.addDuplicateFix(info, d, e.funcValueEffects(info.fn, argOf(c, rp.Param), here), nil)
		}
	}
}

// addDuplicateFix records a duplicate with the request to fix, when it
// is made in the function outside body (a retry loop's).
func (e *engine) addDuplicateFix(info *fnInfo, d Duplicate, effs []effect, body map[*ssa.BasicBlock]bool) {
	n := len(e.res.duplicates)
	e.addDuplicate(info, d, effs)
	if len(e.res.duplicates) > n {
		e.res.duplicates[n].Request = requestFix(info.fn, effs, body)
	}
}

// layerText names a layer with its count for messages.
func layerText(l RetryLink) string {
	unit := "attempts"
	if l.Hedge {
		unit = "copies"
	}
	switch l.Attempts {
	case -1:
		return l.What + " (unbounded " + unit + ")"
	case 0:
		return l.What + " (" + unit + " set at run time)"
	}
	return fmt.Sprintf("%s (%d %s)", l.What, l.Attempts, unit)
}

// hedgedCall records a call whose operation runs in concurrent copies,
// and a false hedge.Idempotent declaration.
func (e *engine) hedgedCall(info *fnInfo, instr ssa.CallInstruction) {
	h, ok := e.hedgeAt(info, instr)
	if !ok {
		return
	}
	d := Duplicate{Pos: instr.Common().Pos(), Func: funcDisplay(info.fn), Hedge: true, Declared: h.declared, Layer: h.layer, LayerPos: h.pos}
	if h.fix {
		e.addDuplicateFix(info, d, h.effects(), nil)
	} else {
		e.addDuplicate(info, d, h.effects())
	}
}

// hedgeFound is a hedge a call runs its operation in.
type hedgeFound struct {
	layer    string    // what hedges: "hedgedhttp client (3 copies)", "hedge.Idempotent"
	pos      token.Pos // where the hedge is built
	declared bool      // a hedge.Idempotent declaration
	fix      bool      // hedgeidem can fix the request (a key header)
	// effects are what the copies may do twice.
	effects func() []effect
}

// hedgeAt returns the hedge a call runs its operation in, if any: a
// hedging client's send, a hedge policy of failsafe-go, a connection's
// hedgingPolicy, the runtime's hedge.Idempotent declaration. Read by the
// hedges module (duplicates) and the map (a path's hedge).
func (e *engine) hedgeAt(info *fnInfo, instr ssa.CallInstruction) (hedgeFound, bool) {
	c := instr.Common()
	name := calleeName(c)
	here := Link{Func: calleeDisplay(c), At: analysisutil.ShortPos(e.pass.Fset, c.Pos())}
	callEffects := func() []effect { return e.callEffects(info, instr) }
	switch {
	case name == knowledge.RuntimeHedgeIdempotent:
		return hedgeFound{layer: "hedge.Idempotent", declared: true, effects: func() []effect { return e.funcValueEffects(info.fn, argOf(c, 0), here) }}, true
	case httpSends[name]:
		for _, l := range e.clientLayers(info.fn, argOf(c, -1)) {
			if l.Hedge {
				return hedgeFound{layer: layerText(l.RetryLink), pos: l.pos, fix: true, effects: callEffects}, true
			}
		}
	case name == "(*github.com/cristalhq/hedgedhttp.Client).Do":
		if made, ok := e.literalOf(argOf(c, -1)).(*ssa.Call); ok {
			if link, ok := e.hedgingClient(info.fn, made); ok {
				return hedgeFound{layer: layerText(link.RetryLink), pos: link.pos, fix: true, effects: callEffects}, true
			}
		}
	case name == knowledge.FailsafeHTTPRequestDo:
		made, ok := e.literalOf(argOf(c, -1)).(*ssa.Call)
		if !ok || calleeName(made.Common()) != knowledge.FailsafeHTTPNewRequest {
			return hedgeFound{}, false
		}
		for _, a := range made.Call.Args[2:] {
			if at, ok := e.hedgePolicyIn(a); ok {
				return hedgeFound{layer: "failsafe-go hedge policy", pos: at, fix: true, effects: callEffects}, true
			}
		}
	}
	if l, ok := retryLayerOf(c); ok && l.Policies && l.FuncArg >= 0 {
		// An executor running a function through a hedge policy.
		if made, from, ok := e.executorOf(argOf(c, -1)); ok {
			for i := from; i < len(made.Call.Args); i++ {
				if at, ok := e.hedgePolicyIn(made.Call.Args[i]); ok {
					return hedgeFound{layer: "failsafe-go hedge policy", pos: at, fix: true, effects: func() []effect { return e.funcValueEffects(info.fn, argOf(c, l.FuncArg), here) }}, true
				}
			}
		}
	}
	if target, service, method := grpcTarget(c); target != nil && method != "" {
		if cr := e.connRetryOf(target); cr != nil {
			if n := cr.hedged(service, method); n > 1 {
				layer := fmt.Sprintf("the service config's hedgingPolicy (%d copies) of the connection dialled at %s", n, analysisutil.LineOf(cr.At))
				return hedgeFound{layer: layer, pos: e.dialPosOf(cr), effects: callEffects}, true
			}
		}
	}
	return hedgeFound{}, false
}

// hedgePolicyIn returns where a failsafe-go hedge policy among the
// policies a value holds (one, or a list) is built.
func (e *engine) hedgePolicyIn(v ssa.Value) (token.Pos, bool) {
	elems, ok := sliceElems(v, map[ssa.Value]bool{})
	if !ok || len(elems) == 0 {
		elems = []ssa.Value{v}
	}
	for _, p := range elems {
		built, ok := e.literalOf(stripIface(p)).(*ssa.Call)
		if !ok {
			continue
		}
		for range 8 {
			name := calleeName(built.Common())
			if built.Common().IsInvoke() {
				name = built.Common().Method.Origin().FullName()
			}
			if knowledge.IsHedgePolicy(name) {
				return built.Pos(), true
			}
			// A builder's methods return the builder: walk back to its
			// constructor.
			recv, ok := e.literalOf(stripIface(argOf(built.Common(), -1))).(*ssa.Call)
			if !ok || !built.Common().IsInvoke() && built.Common().Signature().Recv() == nil {
				break
			}
			built = recv
		}
	}
	return token.NoPos, false
}

// hedgingClient returns the hedge link of a call building a hedging HTTP
// client or round tripper, with its copies.
func (e *engine) hedgingClient(fn *ssa.Function, made *ssa.Call) (chainLink, bool) {
	c := made.Common()
	name := calleeName(c)
	copies := timesUnknown
	if i, ok := knowledge.HedgingClientOf(name); ok {
		if i >= 0 {
			if n, ok := e.intArg(c, i); ok {
				copies = times(n)
			}
		} else if cfg := argOf(c, 0); cfg != nil {
			if n, ok := e.configUpto(cfg); ok {
				copies = times(n)
			}
		}
	} else if name == knowledge.FailsafeHTTPNewRoundTripper {
		hedged := false
		for _, a := range c.Args[1:] {
			if _, ok := e.hedgePolicyIn(a); ok {
				hedged = true
			}
		}
		if !hedged {
			return chainLink{}, false
		}
	} else {
		return chainLink{}, false
	}
	if copies == 1 {
		return chainLink{}, false
	}
	return chainLink{RetryLink: RetryLink{
		What:     libraryName(c),
		Func:     funcDisplay(fn),
		At:       analysisutil.ShortPos(e.pass.Fset, made.Pos()),
		Attempts: int(copies),
		Client:   true,
		Hedge:    true,
	}, pos: made.Pos()}, true
}

// configUpto reads the Upto field of a hedgedhttp.Config literal.
func (e *engine) configUpto(cfg ssa.Value) (int64, bool) {
	ld, ok := cfg.(*ssa.UnOp)
	if !ok || ld.Op != token.MUL {
		return 0, false
	}
	for _, st := range fieldStores(ld.X) {
		if st.field == "Upto" {
			return e.intOf(st.val)
		}
	}
	return 0, false
}

// withoutHedges returns a client's layers without its hedges: copies
// sent concurrently are no retry layer.
func withoutHedges(c retryChain) retryChain {
	var out retryChain
	for _, l := range c {
		if !l.Hedge {
			out = append(out, l)
		}
	}
	return out
}

// hedged returns the copies a connection's hedging policies give a call
// of the service and method (1: none).
func (cr *ConnRetry) hedged(service, method string) int {
	best := 1
	for _, p := range cr.Policies {
		if !p.Hedge || !p.matches(service, method) {
			continue
		}
		best = max(best, p.Attempts)
	}
	return best
}

// matches reports whether a service config name covers the service and
// method.
func (p MethodRetry) matches(service, method string) bool {
	svc := p.Service
	if !strings.Contains(service, ".") {
		svc = svc[strings.LastIndexByte(svc, '.')+1:]
	}
	return (p.Service == "" || svc == service) && (p.Method == "" || p.Method == method)
}

// timerHedges records hand-rolled hedges: work launched in a goroutine
// again while an earlier launch may be in flight, when a timer fires (a
// loop that launches the work and then waits on a timer or the first
// result), or from time.AfterFunc beside a launch of the same work.
func (e *engine) timerHedges(info *fnInfo) {
	var launches []*ssa.Go
	for _, instr := range info.ix.calls {
		if g, ok := instr.(*ssa.Go); ok {
			launches = append(launches, g)
		}
	}
	for _, instr := range info.ix.calls {
		c := instr.Common()
		if calleeName(c) != "time.AfterFunc" {
			continue
		}
		// time.AfterFunc(d, func() { go op() }) or (d, op), beside a
		// launch or a call of the same op.
		late := funcValue(argOf(c, 1))
		if late == nil {
			continue
		}
		stopped := timerStopped(instr)
		for _, other := range info.ix.calls {
			if other == instr {
				continue
			}
			// The first copy must be in flight when the timer fires:
			// launched in a goroutine, or called while the timer is
			// armed and the timer stopped once it returns. A delayed
			// first run of a periodic job called again from a ticker
			// loop races nothing.
			if _, launched := other.(*ssa.Go); !launched && !stopped {
				continue
			}
			// The work both run, with effects: a helper both happen to
			// call (a lock, a lookup) is no copy of the work.
			for _, w := range sameWork(other.Common(), late) {
				effs := e.funcValueEffects(info.fn, w, Link{})
				if len(effs) == 0 {
					continue
				}
				for i := range effs {
					effs[i] = prefixed(Link{Func: funcDisplay(w)}, token.NoPos, effs[i])
				}
				d := Duplicate{Pos: c.Pos(), Func: funcDisplay(info.fn), Hedge: true, Layer: "a copy started by time.AfterFunc", LayerPos: c.Pos()}
				e.addDuplicate(info, d, effs)
				break
			}
		}
	}
	for _, g := range launches {
		l := info.ix.loopOf[g.Block()]
		if l == nil || !waitsOnTimer(l) || !collectsFirst(l) || !sameEachRound(l, g) {
			continue
		}
		d := Duplicate{Pos: g.Pos(), Func: funcDisplay(info.fn), Hedge: true, Layer: "a copy launched again when a timer fires", LayerPos: g.Pos()}
		e.addDuplicate(info, d, e.callEffects(info, g))
	}
}

// timerStopped reports whether the timer time.AfterFunc returns is
// stopped (t.Stop()) in the function.
func timerStopped(afterFunc ssa.CallInstruction) bool {
	v, ok := afterFunc.(ssa.Value)
	if !ok || v.Referrers() == nil {
		return false
	}
	for _, r := range *v.Referrers() {
		if c, ok := r.(ssa.CallInstruction); ok && calleeName(c.Common()) == "(*time.Timer).Stop" {
			return true
		}
		// Stopped through a variable or a deferred call.
		if st, ok := r.(*ssa.Store); ok {
			if al, ok := st.Addr.(*ssa.Alloc); ok {
				for _, ld := range derefs(al) {
					for _, rr := range *ld.Referrers() {
						if c, ok := rr.(ssa.CallInstruction); ok && calleeName(c.Common()) == "(*time.Timer).Stop" {
							return true
						}
					}
				}
			}
		}
	}
	return false
}

// sameEachRound reports whether a launch in a loop runs the same work
// each round: its arguments, and a closure's bindings, are made before
// the loop (or are constants). Work handed something new each round
// (the batch a reporter sends when its timer fires) is new work, not a
// copy.
func sameEachRound(l *loop, g *ssa.Go) bool {
	invariant := func(v ssa.Value) bool {
		instr, ok := v.(ssa.Instruction)
		return !ok || instr.Block() == nil || !l.body[instr.Block()]
	}
	c := g.Common()
	if mc, ok := c.Value.(*ssa.MakeClosure); ok {
		for _, b := range mc.Bindings {
			if !invariant(b) {
				return false
			}
		}
	}
	for _, a := range c.Args {
		if !invariant(a) {
			return false
		}
	}
	return true
}

// sameWork returns the functions that call c runs (its callee, or what
// the closure c runs calls) and a late func value calls too.
func sameWork(c *ssa.CallCommon, late *ssa.Function) []*ssa.Function {
	callee := c.StaticCallee()
	if callee == late {
		return []*ssa.Function{late} // go send(); time.AfterFunc(d, send)
	}
	if callee == nil {
		return nil
	}
	now := map[*ssa.Function]bool{callee: true}
	if callee.Parent() != nil {
		now = namedCallees(callee)
	}
	var out []*ssa.Function
	for f := range namedCallees(late) {
		if now[f] {
			out = append(out, f)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].String() < out[j].String() })
	return out
}

// namedCallees returns the functions other than closures that fn calls.
func namedCallees(fn *ssa.Function) map[*ssa.Function]bool {
	out := map[*ssa.Function]bool{}
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			if ci, ok := instr.(ssa.CallInstruction); ok {
				if f := ci.Common().StaticCallee(); f != nil && f.Parent() == nil {
					out[f] = true
				}
			}
		}
	}
	return out
}

// waitsOnTimer reports whether a loop's body receives from a timer's
// channel (time.After, a Timer's or Ticker's C) in a select.
func waitsOnTimer(l *loop) bool {
	for b := range l.body {
		for _, instr := range b.Instrs {
			sel, ok := instr.(*ssa.Select)
			if !ok {
				continue
			}
			for _, st := range sel.States {
				if st.Dir == types.RecvOnly && isTimerChan(st.Chan) {
					return true
				}
			}
		}
	}
	return false
}

// collectsFirst reports whether a loop's body selects on a channel other
// than a timer's (the first result of the copies launched).
func collectsFirst(l *loop) bool {
	for b := range l.body {
		for _, instr := range b.Instrs {
			sel, ok := instr.(*ssa.Select)
			if !ok {
				continue
			}
			for _, st := range sel.States {
				if !isTimerChan(st.Chan) && !isDoneChan(st.Chan) {
					return true
				}
			}
		}
	}
	return false
}

func isTimerChan(v ssa.Value) bool {
	switch x := v.(type) {
	case *ssa.Call:
		return calleeName(x.Common()) == "time.After"
	case *ssa.UnOp:
		if fa, ok := x.X.(*ssa.FieldAddr); ok && fieldName(fa) == "C" {
			t := derefType(fa.X.Type())
			return typeDisplay(t) == "time.Timer" || typeDisplay(t) == "time.Ticker"
		}
	}
	return false
}

func isDoneChan(v ssa.Value) bool {
	call, ok := v.(*ssa.Call)
	return ok && call.Common().IsInvoke() && call.Common().Method.Name() == "Done"
}

// layeredSend records a call handing a request that is not idempotent to
// a function that sends it through a hedge or retry layer.
func (e *engine) layeredSend(info *fnInfo, instr ssa.CallInstruction) {
	c := instr.Common()
	var effs []effect
	if fn := c.StaticCallee(); fn != nil {
		if fn.Origin() != nil {
			fn = fn.Origin()
		}
		if callee := e.local[fn]; callee != nil {
			effs = callee.sendDups
		} else if s := e.imported(calleeFunc(c)); s != nil {
			effs = fromEffects(s.Effects)
		}
	} else if c.IsInvoke() {
		if s := e.imported(c.Method); s != nil {
			effs = fromEffects(s.Effects)
		}
	}
	here := Link{Func: calleeDisplay(c), At: analysisutil.ShortPos(e.pass.Fset, c.Pos())}
	for _, ef := range effs {
		if ef.Request == nil || ef.Layer == "" {
			continue
		}
		arg := argOf(c, ef.Request.Param)
		if arg == nil {
			continue
		}
		decided := behind(e.sendEffects(info, instr, arg, here), ef)
		d := Duplicate{Pos: c.Pos(), Func: funcDisplay(info.fn), Hedge: ef.Hedge, Blind: ef.Blind, Layer: ef.Layer, LayerPos: ef.layerPos}
		e.addDuplicateFix(info, d, decided, nil)
	}
}
