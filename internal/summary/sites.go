package summary

import (
	"go/constant"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/resilvet/resilvet/internal/analysisutil"
	"github.com/resilvet/resilvet/internal/knowledge"
)

// Finding is an outbound call that nothing bounds in time: every value
// that could bound it (a context deadline, a client Timeout, a dialer
// timeout) is unbounded on some path, and each comes from a place we
// know. Read by notimeout.
type Finding struct {
	// Pos is the opening parenthesis of the call in this package (the
	// outbound call itself, or the call of a helper that reaches one):
	// SSA keeps no more of the syntax, and the reader finds the call
	// expression there.
	Pos token.Pos
	// Callee names the called function in source form ("http.Get",
	// "lib.Fetch"); Outbound names the outbound call finally reached
	// (the same when the call is outbound itself).
	Callee, Outbound string
	// Kind is the outbound kind ("http", "grpc", …) and Bound what could
	// have bounded it.
	Kind  string
	Bound knowledge.Bound
	// Origins are the unbounded values reaching the call, in the order
	// context first, then client or dialer.
	Origins []Origin
	// Chain lists the calls from Callee to the outbound call, when
	// Callee is a helper; the last link is the outbound call.
	Chain []Link
	// local is set for an SQL call on an in-process database: it makes
	// reach claims (Reach.Local), never a finding.
	local bool
	// repeats is set when a callee reaches the call repeatedly
	// (Reach.Repeats).
	repeats bool
	// StartUp is set for start-up work: a call made once, in a function
	// named for start-up (main, init, NewAPI, Configure), with nothing
	// unbounded reaching it but what that function makes itself. Read by
	// notimeout, which reports it only with its Main option.
	StartUp bool
}

// Origin is where an unbounded value is made.
type Origin struct {
	// Of is "ctx", "request", "client", "dialer" or "call" (the call
	// itself has no bound: http.Get, net.Dial).
	Of string
	// What names it: "context.Background()", "http.DefaultClient".
	What string
	// Pos is where it is made in this package (the call of a helper that
	// returns it, when made in another package); At is the same as text,
	// or where the helper makes it.
	Pos token.Pos
	At  string
	// Enclosing is the named function that makes it (for a closure, the
	// function the closure is in); nil for package initialisers.
	Enclosing *types.Func
}

// HandlerReach is an HTTP handler whose request reaches outbound work
// with no deadline added on the way.
type HandlerReach struct {
	Pos   token.Pos // the handler's declaration or literal
	Name  string    // source form; closures after their enclosing function
	Reach Reach
}

type findingKey struct {
	pos      token.Pos
	outbound string
}

// part is one value that could bound an outbound call.
type part struct {
	d domain
	v value
	// conn marks the connection of a gRPC call: bounded, it bounds the
	// call; a parameter, it travels with the reach claim (Reach.Conn);
	// otherwise it decides nothing, and the context does.
	conn bool
}

// checkOutbound decides whether a call from the outbound table is
// bounded, records a finding when it is not, and a reach claim when the
// caller's parameter decides.
func (e *engine) checkOutbound(info *fnInfo, instr ssa.CallInstruction, name string, o knowledge.Outbound) {
	if parts, f, ok := e.outboundParts(info, instr, name, o); ok {
		e.decide(info, instr, parts, f, nil, nil)
	}
}

// outboundParts returns the values that could bound a call from the
// outbound table, and the finding it would be; ok is false for a call
// that is not judged (set-up, a local network, a value it cannot read).
func (e *engine) outboundParts(info *fnInfo, instr ssa.CallInstruction, name string, o knowledge.Outbound) (parts []part, f Finding, ok bool) {
	// An in-process database has no remote peer to wait on: its calls
	// make claims that say so, and no finding.
	local := o.Kind == knowledge.SQL && e.embeddedSQL
	c := instr.Common()
	if o.Kind == knowledge.SQL && (e.schemaStatement(c) || preparedForLater(instr)) {
		return nil, Finding{}, false // set-up: a schema statement, or a statement prepared for later use
	}
	ev := e.ev
	disp := calleeDisplay(c)
	call := func(what string) part {
		return part{d: domCtx, v: value{{kind: srcUnbounded, fn: info.fn, pos: c.Pos(), what: what}}}
	}
	switch o.Bound {
	case knowledge.ByContext:
		idx := o.CtxParam
		if idx < 0 {
			idx = firstContextParam(c.Signature())
		}
		a := argOf(c, idx)
		if idx < 0 || a == nil || !analysisutil.IsContext(a.Type()) {
			return nil, Finding{}, false
		}
		parts = []part{{d: domCtx, v: e.evalAt(domCtx, a, instr)}}
		if o.Kind == knowledge.GRPC {
			if waitsForEvent(c) {
				return nil, Finding{}, false
			}
			recv := e.receiverOf(c)
			if recv == nil && c.IsInvoke() {
				recv = c.Value // the interface value: its connection, whatever its type
			}
			conn, ok := e.connPart(recv)
			if !ok {
				return nil, Finding{}, false
			}
			parts = append(parts, conn)
		}
	case knowledge.ByClientOrRequest:
		recv, req := e.receiverOf(c), argOf(c, 0)
		if recv == nil || req == nil {
			return nil, Finding{}, false
		}
		parts = []part{{d: domRequest, v: ev.eval(domRequest, req)}, {d: domClient, v: ev.eval(domClient, recv)}}
	case knowledge.ByClient:
		recv := e.receiverOf(c)
		if recv == nil {
			return nil, Finding{}, false
		}
		parts = []part{call(disp + "'s context.Background()"), {d: domClient, v: ev.eval(domClient, recv)}}
	case knowledge.Never:
		if (o.Kind == knowledge.Net || o.Kind == knowledge.TLS) && localNetwork(c, name) {
			return nil, Finding{}, false
		}
		what := "no dial timeout"
		if o.DefaultClient {
			what = "http.DefaultClient, which has no timeout"
		}
		parts = []part{call(what)}
	case knowledge.ByDialer:
		// A method's receiver, or tls.DialWithDialer's first argument.
		dialer := e.receiverOf(c)
		if dialer == nil && len(c.Args) > 0 {
			dialer = c.Args[0]
		}
		if dialer == nil || localNetwork(c, name) {
			return nil, Finding{}, false
		}
		parts = []part{{d: domDialer, v: ev.eval(domDialer, dialer)}}
		if o.CtxParam >= 0 {
			if a := argOf(c, o.CtxParam); a != nil {
				parts = append([]part{{d: domCtx, v: ev.eval(domCtx, a)}}, parts...)
			}
		}
	case knowledge.ByTwinContext:
		// Where a context is in scope, ctxdrop reports the call (use the
		// twin with it) unless it declines by design: notimeout hears of
		// it and decides by the hand-off.
		if r := e.receiverOf(c); r != nil && analysisutil.IsSQLTxOrStmt(r.Type()) {
			if p, ok := r.(*ssa.Parameter); ok && p.Parent() == info.fn {
				// The caller's transaction or statement: the function that
				// begins or prepares it chooses its context, and its own
				// statements are reported there; one finding per statement
				// of every helper it is handed to (a migration's hundred
				// tx.Exec calls) would repeat that one choice. db.Begin is
				// not judged, so a transaction used only by helpers is
				// reported nowhere (docs/analyzers/notimeout.md).
				return nil, Finding{}, false
			}
		}
		parts = []part{call("context.Background() inside " + disp)}
	default:
		return nil, Finding{}, false
	}
	return parts, Finding{Callee: disp, Outbound: disp, Kind: o.Kind.String(), Bound: o.Bound, local: local}, true
}

// checkReach applies a callee's reach claim at a call: the argument
// decides.
func (e *engine) checkReach(info *fnInfo, instr ssa.CallInstruction, r Reach) {
	c := instr.Common()
	d, ok := domainOf(r.Of)
	a := argOf(c, r.Param)
	if !ok || a == nil {
		return
	}
	// A call reached only under a condition on a parameter: a constant
	// that fails it reaches nothing; the caller's own parameter carries
	// the condition up.
	var cond *IntCond
	if r.If != nil {
		switch x := argOf(c, r.If.Param).(type) {
		case *ssa.Const:
			if !r.If.Holds(x.Value) {
				return
			}
		case *ssa.Parameter:
			if x.Parent() == info.fn {
				if idx := sigIndex(info.fn, x); idx >= 0 {
					cond = &IntCond{Param: idx, Op: r.If.Op, Value: r.If.Value}
				}
			}
		}
	}
	if migrates(calleeDisplay(c), r.Chain) {
		return // a schema migration's statements, unbounded on purpose
	}
	link := Link{Func: calleeDisplay(c), At: analysisutil.ShortPos(e.pass.Fset, instr.Pos())}
	chain := capChain(append([]Link{link}, r.Chain...))
	parts := []part{{d: d, v: e.evalAt(d, a, instr)}}
	if r.ViaConn {
		conn, ok := e.connPart(argOf(c, r.Conn))
		if !ok {
			return
		}
		parts = append(parts, conn)
	}
	e.decide(info, instr, parts, Finding{Callee: calleeDisplay(c), Outbound: r.Call, Kind: r.Kind, local: r.Local, repeats: r.Repeats}, chain, cond)
}

// decide turns the parts of a call into a finding (every part
// unbounded), a reach claim (the parts are unbounded but one, which is a
// parameter), or nothing (some part is bounded or unknown).
//
// cond is the condition under which a callee reaches its outbound call,
// carried up from the callee's claim; where there is none, the
// function's own branch on a parameter guarding the call is the reach's.
func (e *engine) decide(info *fnInfo, instr ssa.CallInstruction, parts []part, f Finding, chain []Link, cond *IntCond) {
	var param, conn *part
	for i := range parts {
		if parts[i].conn {
			switch parts[i].v.state() {
			case stBounded:
				return
			case stParam:
				conn = &parts[i]
			}
			continue
		}
		switch parts[i].v.state() {
		case stBounded, stUnknown:
			return
		case stParam:
			if param != nil {
				return // two parameters decide together: no claim
			}
			param = &parts[i]
		}
	}
	if chain == nil {
		chain = []Link{{Func: f.Outbound, At: analysisutil.ShortPos(e.pass.Fset, instr.Pos())}}
		f.Chain = nil
	} else {
		f.Chain = chain[1:]
	}
	repeats := f.repeats || e.repeatsAt(info, instr)
	if param != nil {
		for _, s := range param.v.params() {
			owner := s.fn
			idx := sigIndex(owner, owner.Params[s.param])
			if idx < 0 {
				continue
			}
			r := Reach{Param: idx, Of: s.dom.String(), Kind: f.Kind, Call: f.Outbound, Chain: chain, Local: f.local, Repeats: repeats}
			r.Conn, r.ViaConn = e.connParam(conn, owner)
			if owner == info.fn {
				r.If = cond
				if r.If == nil {
					r.If = guardCondition(info.fn, instr.Block())
				}
			}
			if owner == info.fn {
				info.reaches = addReach(info.reaches, r)
			} else {
				// A closure reaching its enclosing function's parameter:
				// the enclosing function makes the claim.
				r.Chain = capChain(append([]Link{{Func: funcDisplay(info.fn), At: analysisutil.ShortPos(e.pass.Fset, info.fn.Pos())}}, chain...))
				e.pending[owner] = append(e.pending[owner], r)
			}
		}
		// A context the function itself puts in the parameter's place
		// (if ctx.Err() != nil { ctx = context.Background() }) reaches
		// the call whatever the caller passes: a finding of its own.
		// A nil guard (if ctx == nil { ctx = … }) is the caller's value.
		var replaced value
		for _, src := range param.v.unbounded() {
			if !src.guard {
				replaced = append(replaced, src)
			}
		}
		if len(replaced) == 0 {
			return
		}
		param.v = replaced
	}
	if f.local || knowledge.IsMigrationName(funcDisplay(info.fn)) {
		return
	}
	if conn != nil && e.res.grpcTimeoutInterceptor {
		// The caller's connection, on a call whose context is made here:
		// the package-level rule decides, as for a connection that
		// cannot be followed.
		return
	}
	if e.detachedCleanup(info, instr, parts) {
		return
	}
	f.StartUp = !repeats && e.startupWork(info, instr, parts)
	pos := instr.Common().Pos()
	key := findingKey{pos, f.Outbound}
	if e.seen[key] || !pos.IsValid() {
		return
	}
	e.seen[key] = true
	f.Pos = pos
	for _, p := range parts {
		if p.conn {
			continue
		}
		for _, s := range p.v.unbounded() {
			of := p.d.String()
			if s.fn == info.fn && s.pos == pos {
				of = "call"
			}
			f.Origins = append(f.Origins, Origin{Of: of, What: s.what, Pos: s.pos, At: e.srcAt(s), Enclosing: enclosingObj(s.fn)})
		}
	}
	e.res.findings = append(e.res.findings, &f)
}

// detachedCleanup reports whether a call is cleanup on a detached
// context: every unbounded value reaching it is context.WithoutCancel's,
// and the call is deferred (a defer statement, or inside a closure that
// one runs) or named for cleanup (Rollback, Close, Shutdown). A rollback
// deferred on WithoutCancel(ctx) runs after the request may be done, on
// purpose: ctxdrop exempts it, and so does notimeout.
func (e *engine) detachedCleanup(info *fnInfo, instr ssa.CallInstruction, parts []part) bool {
	for _, p := range parts {
		if p.conn {
			continue
		}
		for _, s := range p.v.unbounded() {
			if !s.detached {
				return false
			}
		}
	}
	if _, ok := instr.(*ssa.Defer); ok || e.isDeferredClosure(info.fn) {
		return true
	}
	return knowledge.IsCleanupSink(calleeName(instr.Common()))
}

// repeatsAt reports whether a call runs repeatedly or outlives its
// function's run: in a loop, started by a go statement, or in a closure
// that is not run exactly once, now.
func (e *engine) repeatsAt(info *fnInfo, instr ssa.CallInstruction) bool {
	if _, ok := instr.(*ssa.Go); ok || info.ix.multiplicity(instr.Block()) != 1 {
		return true
	}
	if info.fn.Parent() == nil {
		return false
	}
	parent := e.local[info.fn.Parent()]
	if parent == nil {
		return true
	}
	for _, mc := range parent.ix.closures {
		if mc.Fn != info.fn {
			continue
		}
		for _, r := range *mc.Referrers() {
			if _, ok := r.(*ssa.Go); ok {
				return true
			}
		}
		return e.closureRuns(parent, mc) != 1
	}
	return true
}

// startupWork reports whether a finding is start-up work: the function
// is named for start-up (main, init, NewAPI, Configure), and every
// unbounded value reaching the call is a context it makes itself
// (ctx := context.Background()). A call that has no bound of its own
// (net.Dial, db.QueryRow) is not: a constructor may be called per
// connection, and its fix is a timeout whoever calls it. The caller
// checks that the call runs once.
func (e *engine) startupWork(info *fnInfo, instr ssa.CallInstruction, parts []part) bool {
	name, _, _ := strings.Cut(info.fn.Name(), "#") // init#1
	if info.fn.Parent() != nil || !knowledge.IsStartupName(name) && !parsesFlags(info) {
		return false
	}
	for _, p := range parts {
		if p.conn {
			continue
		}
		for _, s := range p.v.unbounded() {
			if p.d != domCtx || s.fn != info.fn || s.pos == instr.Common().Pos() {
				return false
			}
		}
	}
	return true
}

// parsesFlags reports whether a function parses the command line
// (flag.Parse, a FlagSet's Parse): whatever its name, it is the program's
// entry point, as main is (a library's Run that main calls).
func parsesFlags(info *fnInfo) bool {
	for _, c := range info.ix.calls {
		switch calleeName(c.Common()) {
		case "flag.Parse", "(*flag.FlagSet).Parse", "github.com/spf13/pflag.Parse", "(*github.com/spf13/pflag.FlagSet).Parse":
			return true
		}
	}
	return false
}

// isDeferredClosure reports whether fn is a closure that a defer
// statement runs (from its parent's index).
func (e *engine) isDeferredClosure(fn *ssa.Function) bool {
	parent := e.local[fn.Parent()]
	if parent == nil {
		return false
	}
	for _, c := range parent.ix.calls {
		if d, ok := c.(*ssa.Defer); ok {
			if mc, ok := d.Call.Value.(*ssa.MakeClosure); ok && mc.Fn == fn {
				return true
			}
		}
	}
	return false
}

// evalAt evaluates v as it reaches instr. A phi node's edges that cannot
// lead to instr are left out: when the same condition guards both the
// edge and the call, in opposite ways,
//
//	if sync { ctx, cancel = ensureDeadline(ctx) }
//	…
//	if sync { conn.RequestWithContext(ctx, …) }
//
// the edge where sync is false never reaches the request.
func (e *engine) evalAt(d domain, v ssa.Value, instr ssa.Instruction) value {
	phi, ok := v.(*ssa.Phi)
	if !ok {
		return e.ev.eval(d, v)
	}
	at := knownConditions(instr.Block())
	if len(at) == 0 {
		return e.ev.eval(d, v)
	}
	var vs []value
	for i, edge := range phi.Edges {
		pred := phi.Block().Preds[i]
		onEdge := knownConditions(pred)
		if ifi, ok := pred.Instrs[len(pred.Instrs)-1].(*ssa.If); ok && pred.Succs[0] != pred.Succs[1] {
			onEdge[ifi.Cond] = pred.Succs[0] == phi.Block()
		}
		feasible := true
		for c, val := range onEdge {
			if w, ok := at[c]; ok && w != val {
				feasible = false
			}
		}
		if feasible {
			vs = append(vs, e.ev.eval(d, edge))
		}
	}
	if len(vs) == 0 {
		return unknown
	}
	return join(vs...)
}

// knownConditions returns the branch conditions whose value is known in
// block b: for each dominating if whose one branch dominates b (and was
// entered only from the if), the condition and the branch taken.
func knownConditions(b *ssa.BasicBlock) map[ssa.Value]bool {
	out := map[ssa.Value]bool{}
	for dom := b.Idom(); dom != nil; dom = dom.Idom() {
		ifi, ok := dom.Instrs[len(dom.Instrs)-1].(*ssa.If)
		if !ok {
			continue
		}
		for branch, succ := range dom.Succs {
			if len(succ.Preds) == 1 && succ.Dominates(b) {
				out[ifi.Cond] = branch == 0
			}
		}
	}
	// b itself may be the entered branch.
	if len(b.Preds) == 1 {
		if ifi, ok := b.Preds[0].Instrs[len(b.Preds[0].Instrs)-1].(*ssa.If); ok {
			out[ifi.Cond] = b.Preds[0].Succs[0] == b
		}
	}
	return out
}

// receiverOf returns the receiver of a method call: the first argument of
// a static call, or the value bound into a method value (get := c.Get;
// get(u)). Interface calls and function values have none we can follow.
func (e *engine) receiverOf(c *ssa.CallCommon) ssa.Value {
	if c.IsInvoke() {
		return e.dynRecv[c] // the known implementation's, if any
	}
	fn := c.StaticCallee()
	if fn == nil {
		return nil
	}
	if mc, ok := c.Value.(*ssa.MakeClosure); ok && isBoundWrapper(fn) && len(mc.Bindings) == 1 {
		return mc.Bindings[0]
	}
	if fn.Signature.Recv() != nil && len(c.Args) > 0 {
		return c.Args[0]
	}
	return nil
}

// isBoundWrapper reports whether fn is the synthetic function of a method
// value.
func isBoundWrapper(fn *ssa.Function) bool {
	return strings.HasPrefix(fn.Synthetic, "bound method wrapper")
}

// enclosingObj returns the named function fn is, or is a closure in.
func enclosingObj(fn *ssa.Function) *types.Func {
	for fn != nil && fn.Parent() != nil {
		fn = fn.Parent()
	}
	if fn == nil {
		return nil
	}
	obj, _ := fn.Object().(*types.Func)
	return obj
}

// firstContextParam returns the index of the first context parameter.
func firstContextParam(sig *types.Signature) int {
	for i := range sig.Params().Len() {
		if analysisutil.IsContext(sig.Params().At(i).Type()) {
			return i
		}
	}
	return -1
}

// localNetwork reports whether a dial's network argument may name a
// network that waits on no remote peer: Unix sockets, and UDP, whose
// "dial" sends nothing. Only a constant "tcp…" network is known remote;
// any other value (a parameter, a configured string) may be local, and
// the dial is not judged.
func localNetwork(c *ssa.CallCommon, name string) bool {
	if name == "net/smtp.Dial" || name == "net/smtp.SendMail" {
		return false // always TCP
	}
	k, ok := networkArg(c, name)
	return !ok || !strings.HasPrefix(k, "tcp")
}

// unixNetwork reports whether a dial's network argument is a constant
// naming a Unix socket: certainly local.
func unixNetwork(c *ssa.CallCommon, name string) bool {
	k, ok := networkArg(c, name)
	return ok && strings.HasPrefix(k, "unix")
}

// networkArg returns a dial's network argument, when it is a constant.
func networkArg(c *ssa.CallCommon, name string) (string, bool) {
	idx := 0 // the network's index among the signature's parameters
	switch name {
	case "(*net.Dialer).DialContext", "crypto/tls.DialWithDialer":
		idx = 1
	}
	k, ok := argOf(c, idx).(*ssa.Const)
	if !ok || k.Value == nil || k.Value.Kind() != constant.String {
		return "", false
	}
	return constant.StringVal(k.Value), true
}

func capChain(c []Link) []Link {
	if len(c) > maxChain {
		return c[:maxChain]
	}
	return c
}

// interfaceClaims gives each interface method declared in the package
// the union of the claims of its implementations in the package: how a
// generated gRPC client's interface carries its Invoke calls to callers
// in other packages. It reports whether any claim was made.
func (e *engine) interfaceClaims() bool {
	if e.ifaceImpls == nil {
		e.ifaceImpls = map[*types.Func][]*fnInfo{}
	}
	scope := e.pass.Pkg.Scope()
	var impls []*types.TypeName
	var ifaces []*types.TypeName
	for _, name := range scope.Names() {
		tn, ok := scope.Lookup(name).(*types.TypeName)
		if !ok || tn.IsAlias() {
			continue
		}
		if _, ok := tn.Type().Underlying().(*types.Interface); ok {
			ifaces = append(ifaces, tn)
		} else if _, ok := tn.Type().(*types.Named); ok {
			impls = append(impls, tn)
		}
	}
	made := false
	for _, it := range ifaces {
		iface := it.Type().Underlying().(*types.Interface)
		if iface.NumMethods() == 0 {
			continue
		}
		for i := range iface.NumMethods() {
			m := iface.Method(i)
			if m.Pkg() != e.pass.Pkg {
				continue
			}
			var sum FuncSummary
			for _, tn := range impls {
				named := tn.Type().(*types.Named)
				if named.TypeParams().Len() > 0 {
					continue
				}
				var t types.Type = named
				if !types.Implements(t, iface) {
					t = types.NewPointer(named)
					if !types.Implements(t, iface) {
						continue
					}
				}
				obj, _, _ := types.LookupFieldOrMethod(t, true, e.pass.Pkg, m.Name())
				impl, ok := obj.(*types.Func)
				if !ok {
					continue
				}
				info := e.byObj[impl]
				if info == nil {
					continue
				}
				e.ifaceImpls[m] = appendOnce(e.ifaceImpls[m], info)
				for _, r := range info.reaches {
					r.Chain = capChain(append([]Link{{Func: analysisutil.FuncName(impl), At: analysisutil.ShortPos(e.pass.Fset, impl.Pos())}}, r.Chain...))
					sum.Reaches = addReach(sum.Reaches, r)
				}
				sum.FuncCalls = joinFuncCalls(sum.FuncCalls, info.calls)
				for _, k := range info.ctxIO {
					sum.CtxIO = addInt(sum.CtxIO, k)
				}
				for _, k := range info.ctxRemote {
					sum.CtxRemote = addInt(sum.CtxRemote, k)
				}
			}
			if len(sum.Reaches) == 0 && len(sum.FuncCalls) == 0 && len(sum.CtxIO) == 0 {
				continue
			}
			e.ifaceSums[m] = &sum
			made = true
		}
	}
	return made
}

// waitsForEvent reports whether a gRPC Invoke calls a method that blocks
// until an event by design, named Wait, WaitFor… or Await… (containerd's
// "/containerd.services.tasks.v1.Tasks/Wait" returns when the process
// exits): a deadline would cut the wait short, so its caller's context,
// not a timeout, ends it. The method must be a constant, as generated
// clients write it.
func waitsForEvent(c *ssa.CallCommon) bool {
	k, ok := argOf(c, 1).(*ssa.Const)
	if !ok || k.Value == nil || k.Value.Kind() != constant.String {
		return false
	}
	method := constant.StringVal(k.Value)
	method = method[strings.LastIndex(method, "/")+1:]
	return method == "Wait" || strings.HasPrefix(method, "WaitFor") || strings.HasPrefix(method, "Await")
}

// connPart is the part a gRPC call's connection plays. It returns false
// when the call is bounded by the package-level rule: the connection
// cannot be followed and the package builds a timeout interceptor.
func (e *engine) connPart(conn ssa.Value) (part, bool) {
	v := unknown
	if conn != nil {
		v = e.ev.eval(domConn, conn)
	}
	if v.state() == stUnknown && e.res.grpcTimeoutInterceptor {
		return part{}, false
	}
	return part{d: domConn, v: v, conn: true}, true
}

// connParam is the signature index of the parameter of owner a gRPC
// call's connection comes from, for its reach claim; false when it is
// not one parameter of owner.
func (e *engine) connParam(conn *part, owner *ssa.Function) (int, bool) {
	if conn == nil {
		return 0, false
	}
	ps := conn.v.params()
	if len(ps) != 1 || ps[0].fn != owner {
		return 0, false
	}
	idx := ps[0].param
	if owner.Signature.Recv() != nil {
		idx-- // the receiver is -1
	}
	return idx, true
}

// guardCondition finds the nearest branch on an integer or boolean
// parameter of fn that b is reached only through (if !lazy { … }, if
// retries > 0 { … }): the condition, as the parameter must meet it, or
// nil when there is none.
func guardCondition(fn *ssa.Function, b *ssa.BasicBlock) *IntCond {
	for dom := b.Idom(); dom != nil; dom = dom.Idom() {
		ifi, ok := dom.Instrs[len(dom.Instrs)-1].(*ssa.If)
		if !ok || dom.Succs[0] == dom.Succs[1] {
			continue
		}
		var taken int
		switch {
		case len(dom.Succs[0].Preds) == 1 && dom.Succs[0].Dominates(b):
			taken = 0
		case len(dom.Succs[1].Preds) == 1 && dom.Succs[1].Dominates(b):
			taken = 1
		default:
			continue
		}
		if c := paramCondition(fn, ifi.Cond, taken == 0); c != nil {
			return c
		}
	}
	return nil
}

// paramCondition turns a branch condition into a condition on a
// parameter of fn, as it holds when the condition is want: a comparison
// of an integer parameter with a constant, or a boolean parameter,
// negated or not.
func paramCondition(fn *ssa.Function, cond ssa.Value, want bool) *IntCond {
	switch c := cond.(type) {
	case *ssa.Parameter:
		if idx := sigIndex(fn, c); idx >= 0 && c.Parent() == fn && isBool(c.Type()) {
			v := int64(0)
			if want {
				v = 1
			}
			return &IntCond{Param: idx, Op: "==", Value: v}
		}
	case *ssa.UnOp:
		if c.Op == token.NOT {
			return paramCondition(fn, c.X, !want)
		}
	case *ssa.BinOp:
		p, ok := c.X.(*ssa.Parameter)
		k, isConst := c.Y.(*ssa.Const)
		if !ok || !isConst || k.Value == nil || k.Value.Kind() != constant.Int || p.Parent() != fn {
			return nil
		}
		idx := sigIndex(fn, p)
		n, exact := constant.Int64Val(k.Value)
		op := c.Op
		if !want {
			op = negate(op)
		}
		if idx < 0 || !exact || op == token.ILLEGAL {
			return nil
		}
		return &IntCond{Param: idx, Op: op.String(), Value: n}
	}
	return nil
}

func isBool(t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Kind() == types.Bool
}

// schemaStatement reports whether an SQL call runs a schema statement
// (CREATE, ALTER, DROP, PRAGMA…, or a query of the catalog): set-up a
// service runs at start-up or in a migration, where leaving it unbounded
// is the author's choice, not a dependency that can slow a request. The
// statement is its first string argument: a constant, a constant format
// given to fmt.Sprintf (CREATE DATABASE %s), or an element of a
// package-level list of constants (for _, stmt := range schema).
func (e *engine) schemaStatement(c *ssa.CallCommon) bool {
	for _, a := range c.Args {
		if b, ok := a.Type().Underlying().(*types.Basic); !ok || b.Kind() != types.String {
			continue
		}
		qs := e.statementsOf(a)
		for _, q := range qs {
			if q != "" && !knowledge.IsSchemaStatement(q) {
				return false
			}
		}
		return len(qs) > 0
	}
	return false
}

// statementsOf returns the texts a string value may hold, when each is
// known: a constant, the constant format of fmt.Sprintf, the constants of
// a package-level list it is an element of, any of those edited by a
// strings function that keeps the statement's kind (ReplaceAll, TrimSpace),
// or a merge of them.
func (e *engine) statementsOf(v ssa.Value) []string {
	return e.statementsIn(v, 0)
}

func (e *engine) statementsIn(v ssa.Value, depth int) []string {
	if depth > 4 {
		return nil
	}
	switch v := v.(type) {
	case *ssa.Phi:
		var out []string
		for _, edge := range v.Edges {
			qs := e.statementsIn(edge, depth+1)
			if qs == nil {
				return nil
			}
			out = append(out, qs...)
		}
		return out
	case *ssa.Call:
		switch calleeName(v.Common()) {
		case "strings.ReplaceAll", "strings.Replace", "strings.TrimSpace", "strings.TrimSuffix", "strings.TrimPrefix", "strings.ToUpper", "strings.ToLower":
			return e.statementsIn(v.Call.Args[0], depth+1)
		}
	}
	if k, ok := e.constOf(v); ok {
		if k.Kind() != constant.String {
			return nil
		}
		return []string{constant.StringVal(k)}
	}
	if call, ok := v.(*ssa.Call); ok && calleeName(call.Common()) == "fmt.Sprintf" {
		if k, ok := e.constOf(call.Call.Args[0]); ok && k.Kind() == constant.String {
			return []string{constant.StringVal(k)}
		}
		return nil
	}
	var out []string
	for _, k := range e.listedConsts(v) {
		if k.Kind() != constant.String {
			return nil
		}
		out = append(out, constant.StringVal(k))
	}
	return out
}

// preparedForLater reports whether an SQL call prepares a statement that
// is kept for later (stored into a field or through a pointer, or
// returned) rather than run here: statements a constructor prepares at
// start-up.
func preparedForLater(instr ssa.CallInstruction) bool {
	call, ok := instr.(*ssa.Call)
	if !ok || !knowledge.IsSQLPrepare(calleeName(call.Common())) {
		return false
	}
	stmts := extracts(call, 0)
	if len(stmts) == 0 {
		return false
	}
	for _, v := range stmts {
		for _, r := range *v.Referrers() {
			switch r := r.(type) {
			case *ssa.Store:
				if r.Val != v {
					return false
				}
			case *ssa.Return, *ssa.DebugRef:
			default:
				return false
			}
		}
	}
	return true
}

// migrates reports whether a call, or a call on its chain, is named for
// a schema migration (Migrate, Migrator.Up's RunMigrations).
func migrates(callee string, chain []Link) bool {
	if knowledge.IsMigrationName(callee) {
		return true
	}
	for _, l := range chain {
		if knowledge.IsMigrationName(l.Func) {
			return true
		}
	}
	return false
}

func appendOnce(infos []*fnInfo, info *fnInfo) []*fnInfo {
	for _, i := range infos {
		if i == info {
			return infos
		}
	}
	return append(infos, info)
}
