package summary

import (
	"go/token"
	"go/types"
	"slices"
	"sort"

	"golang.org/x/tools/go/ssa"

	"github.com/resilvet/resilvet/internal/analysisutil"
	"github.com/resilvet/resilvet/internal/knowledge"
)

// RootUse is one call of a root-context constructor (context.Background
// or context.TODO) and the places its value, or a context derived from
// it, flows to. Read by ctxdrop (rule 1) and by the summary itself
// (DropsCtx).
type RootUse struct {
	// Pos is the opening parenthesis of the call: SSA keeps no more of
	// the syntax, and ctxdrop finds the call expression there.
	Pos token.Pos
	// Root is "context.Background" or "context.TODO".
	Root string
	// Func is the function whose body makes the call.
	Func *ssa.Function
	// Sinks lists where the context goes, in source order.
	Sinks []Sink
	// Bounded is set when the root goes only into a derivation that sets
	// a deadline (context.WithTimeout, directly or through one call that
	// returns a context made from it): it has a deadline of its own from
	// the start. Read by ctxdrop (rule 1) and the DropsCtx claim.
	Bounded bool
	// Joins is set when the function making the root waits for the
	// goroutines it starts (a sync.WaitGroup's or errgroup.Group's Wait):
	// their work is part of its own, and should have its context.
	Joins bool
	// InGoroutine is set when the root is made inside a closure that is
	// started as a goroutine nobody waits for (go func() { …
	// context.Background() … }(), or a closure that goroutine makes):
	// the goroutine outlives the function that started it, whose context
	// would be cancelled under it. Read by ctxdrop (rule 1).
	InGoroutine bool
	// Maker, when set, names the function whose call makes the root
	// ("httpx.Detached"): a helper returning a fresh root context
	// (ReturnsRoot), whose call Pos is. Root is then the constructor the
	// helper uses. Read by ctxdrop (rule 1), which words its finding and
	// offers no fix for it.
	Maker string
	// returned lists the results of Func that return the root itself or
	// a context derived from it: the function makes a root for its
	// callers (ReturnsRoot).
	returned []int
}

// SinkKind says how a root context leaves the function that made it.
type SinkKind int

const (
	// SinkCall: passed as a context.Context argument of a call that runs
	// now.
	SinkCall SinkKind = iota
	// SinkGo: passed to the function a go statement starts.
	SinkGo
	// SinkDefer: passed to a deferred call (cleanup; never reported).
	SinkDefer
	// SinkStore: stored in a struct field, map, slice, channel or
	// package variable, to be used later.
	SinkStore
)

// Sink is one place a root context flows to.
type Sink struct {
	Kind SinkKind
	// Pos is the call's opening parenthesis, or the position of the
	// store (the composite literal's brace, the assignment).
	Pos token.Pos
	// Callee is the called function for calls with a static callee or an
	// interface method; nil otherwise.
	Callee *types.Func
	// InClosure is set when the sink is in a closure of the function
	// that made the root, not in its own body; InDeferredClosure when
	// that closure is run by a defer statement, InGoroutine when by a go
	// statement.
	InClosure, InDeferredClosure, InGoroutine bool
	// PreCancelled is set when the context reaching the sink was
	// cancelled before it: "ctx, cancel := context.WithCancel(bg);
	// cancel()" makes an already-done context on purpose (close now, do
	// not wait), which drops nothing.
	PreCancelled bool
	// BuildsContext is set for a store into a struct that is itself a
	// context (values without cancellation, like WithoutCancel's own
	// implementation): deliberate detachment.
	BuildsContext bool
	// StoresCancel is set for a store into a struct that also keeps the
	// context's cancel function: the lifetime is managed explicitly.
	StoresCancel bool
	// Unsent is set for a request built with the context
	// (req.Clone(ctx), req.WithContext(ctx), NewRequestWithContext) that
	// is never sent: a copy made to match a route or to hand to an
	// in-process handler does no outbound work with the context.
	Unsent bool
	// Local is set when the sink does only local work with the context:
	// a read of a process-local copy of remote state (knowledge's local
	// reads: an informer cache's List); and, in a package whose database
	// is in process (SQLite), an SQL call, a call handed the database,
	// or a function whose context reaches only SQL calls.
	Local bool
	// handsDB is set when the call is also handed a *sql.DB, Tx, Conn or
	// Stmt.
	handsDB bool
	// SetUp is set for schema work: an SQL call running a constant schema
	// statement (CREATE TABLE …), a statement prepared to be kept, or a
	// call of a function named for a migration.
	SetUp bool
	// Outlives is set for a store into the receiver's fields or a
	// package variable: the context stored there serves a long-lived
	// object, which a request's context would be cancelled under. (A
	// value built and returned, or a parameter's field, is a unit of
	// work its caller may run now.)
	Outlives bool
	// call is the call, for Kind SinkCall.
	call *ssa.CallCommon
}

// dropsNothing reports whether the root context reaching s drops nothing
// whatever the context in scope, by exempt, the exemption rule as its
// reader can apply it: the context is cancelled before it gets there
// (PreCancelled), or s does only local work or schema set-up, or its
// callee is exempt.
func (s Sink) dropsNothing(exempt func(*types.Func) bool) bool {
	return s.PreCancelled || s.Local || s.SetUp || exempt(s.Callee)
}

// buildsRequest reports whether the named function makes an
// *http.Request carrying its context argument.
func buildsRequest(name string) bool {
	switch name {
	case "(*net/http.Request).Clone", "(*net/http.Request).WithContext", "net/http.NewRequestWithContext":
		return true
	}
	return false
}

// requestSent reports whether the request a call makes may be sent: it
// reaches an outbound call (by the knowledge table) or a Do or RoundTrip
// method, or goes where it cannot be followed (stored, returned, sent on
// a channel, captured). Only a request that stays in the function and
// meets none of those is unsent.
func requestSent(call *ssa.Call) bool {
	var vals []ssa.Value
	if isTuple(call.Type()) {
		vals = append(vals, extracts(call, 0)...)
	} else {
		vals = append(vals, call)
	}
	seen := map[ssa.Value]bool{}
	for len(vals) > 0 {
		v := vals[len(vals)-1]
		vals = vals[:len(vals)-1]
		if seen[v] {
			continue
		}
		seen[v] = true
		refs := v.Referrers()
		if refs == nil {
			return true
		}
		for _, r := range *refs {
			switch r := r.(type) {
			case *ssa.FieldAddr, *ssa.DebugRef, *ssa.BinOp, *ssa.If:
			case *ssa.Phi:
				vals = append(vals, r)
			case *ssa.ChangeType:
				vals = append(vals, r)
			case ssa.CallInstruction:
				rc := r.Common()
				if _, ok := knowledge.OutboundOf(calleeName(rc)); ok {
					return true
				}
				if rc.IsInvoke() && (rc.Method.Name() == "Do" || rc.Method.Name() == "RoundTrip") {
					return true
				}
				if _, ok := r.(*ssa.Call); !ok {
					return true // go, defer: runs later, not followed
				}
				if fn := rc.StaticCallee(); fn != nil && fn.Pkg == call.Parent().Pkg {
					return true // the package's own helper may send it
				}
				if call, ok := r.(*ssa.Call); ok && buildsRequest(calleeName(rc)) {
					vals = append(vals, call) // a further copy
				}
			default:
				return true
			}
		}
	}
	return false
}

// rootFlow follows root contexts forward through SSA: through
// derivations (context.WithTimeout(bg, d), any call that takes the
// context and returns one), conversions, phi nodes whose every edge is
// root-derived (a nil-context fallback merges with a parameter and is
// never followed), closures' free variables and captured variables, to
// calls, go and defer statements and stores.
type rootFlow struct {
	ctxIface *types.Interface
	use      *RootUse
	seen     map[ssa.Value]bool
	// cancels are the cancel functions of the WithCancel derivations on
	// the way to the current value.
	cancels []ssa.Value
}

// findRoots returns every root-context use in the package's functions, in
// source order.
func findRoots(funcs []*ssa.Function, ctxIface *types.Interface) []*RootUse {
	var out []*RootUse
	for _, fn := range funcs {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				call, ok := instr.(*ssa.Call)
				if !ok {
					continue
				}
				name := calleeName(call.Common())
				if !knowledge.IsRootContext(name) {
					continue
				}
				rf := &rootFlow{ctxIface: ctxIface, use: &RootUse{Pos: call.Common().Pos(), Root: name, Func: fn, Bounded: boundedWhereMade(call), Joins: waitsForGoroutines(fn), InGoroutine: madeInGoroutine(fn)}, seen: map[ssa.Value]bool{}}
				rf.follow(call)
				sort.SliceStable(rf.use.Sinks, func(i, j int) bool { return rf.use.Sinks[i].Pos < rf.use.Sinks[j].Pos })
				out = append(out, rf.use)
			}
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Pos < out[j].Pos })
	return out
}

// boundedWhereMade reports whether every use of a root context is as the
// parent of a derivation that sets a deadline (context.WithTimeout or
// WithDeadline, their Cause forms, the runtime's deadline.Ensure),
// directly or through one call that returns a context made from it (a
// tracing helper copying the span: CopyTraceContext(bg, ctx)).
func boundedWhereMade(root *ssa.Call) bool {
	return boundedUses(root, 0)
}

func boundedUses(v ssa.Value, hop int) bool {
	refs := v.Referrers()
	if refs == nil || len(*refs) == 0 || hop > 1 {
		return false
	}
	for _, r := range *refs {
		call, ok := r.(*ssa.Call)
		if !ok || !slices.Contains(call.Call.Args, v) {
			return false
		}
		if setsContextDeadline(calleeName(call.Common())) {
			if call.Call.Args[0] != v {
				return false
			}
		} else if !analysisutil.IsContext(call.Type()) || !boundedUses(call, hop+1) {
			return false
		}
	}
	return true
}

func (rf *rootFlow) follow(v ssa.Value) {
	if rf.seen[v] {
		return
	}
	rf.seen[v] = true
	refs := v.Referrers()
	if refs == nil {
		return
	}
	for _, r := range *refs {
		switch r := r.(type) {
		case ssa.CallInstruction:
			rf.call(r, v)
		case *ssa.Store:
			if r.Val == v {
				rf.store(r)
			}
		case *ssa.MapUpdate:
			if r.Value == v || r.Key == v {
				rf.sink(Sink{Kind: SinkStore, Pos: r.Pos()}, r)
			}
		case *ssa.Send:
			if r.X == v {
				rf.sink(Sink{Kind: SinkStore, Pos: r.Pos()}, r)
			}
		case *ssa.Return:
			if r.Parent() == rf.use.Func {
				for i, res := range r.Results {
					if res == v && !slices.Contains(rf.use.returned, i) {
						rf.use.returned = append(rf.use.returned, i)
					}
				}
			}
		case *ssa.MakeInterface, *ssa.ChangeType, *ssa.ChangeInterface:
			rf.follow(r.(ssa.Value))
		case *ssa.Phi:
			if rootDerived(r, map[ssa.Value]bool{}) {
				rf.follow(r)
			}
		case *ssa.MakeClosure:
			fn := r.Fn.(*ssa.Function)
			for i, b := range r.Bindings {
				if b == v {
					rf.follow(fn.FreeVars[i])
				}
			}
		}
	}
}

// call handles v passed to a call: a derivation is followed, a context
// argument is a sink, anything else (a receiver: v.Done()) is not.
func (rf *rootFlow) call(instr ssa.CallInstruction, v ssa.Value) {
	c := instr.Common()
	if c.IsInvoke() && c.Value == v {
		return // a method of the context itself
	}
	idx := -1
	for i, a := range c.Args {
		if a == v {
			idx = i
		}
	}
	if idx < 0 {
		return // called as a function value
	}
	if call, ok := instr.(*ssa.Call); ok && derives(c) {
		name := calleeName(c)
		if name == "context.WithCancel" || name == "context.WithCancelCause" {
			rf.cancels = append(rf.cancels, extracts(call, 1)...)
		}
		if isTuple(call.Type()) {
			for _, x := range extracts(call, 0) {
				rf.follow(x)
			}
		} else {
			rf.follow(call)
		}
		return
	}
	if !paramIsContext(c, idx) {
		return
	}
	s := Sink{Kind: SinkCall, Pos: c.Pos(), Callee: calleeFunc(c), call: c, Local: readsLocalCopy(c)}
	for _, a := range c.Args {
		s.handsDB = s.handsDB || analysisutil.IsSQLHandle(stripIface(a).Type())
	}
	s.SetUp = s.SetUp || preparedForLater(instr) || s.Callee != nil && knowledge.IsMigrationName(analysisutil.FuncName(s.Callee))
	if call, ok := instr.(*ssa.Call); ok && buildsRequest(calleeName(c)) {
		s.Unsent = !requestSent(call)
	}
	switch instr.(type) {
	case *ssa.Go:
		s.Kind = SinkGo
	case *ssa.Defer:
		s.Kind = SinkDefer
	}
	if !s.Pos.IsValid() {
		s.Pos = instr.Pos()
	}
	rf.sink(s, instr)
}

// store handles v stored into memory: a local variable captured by a
// closure is followed to its loads; anything else is a sink.
func (rf *rootFlow) store(st *ssa.Store) {
	switch a := st.Addr.(type) {
	case *ssa.Alloc:
		if !a.Heap || isLocalCell(a) {
			rf.followCell(a)
			return
		}
	case *ssa.FieldAddr:
		s := Sink{Kind: SinkStore, Pos: st.Pos(), Outlives: keptByReceiver(a)}
		if al, ok := a.X.(*ssa.Alloc); ok {
			if t := al.Type().(*types.Pointer).Elem(); rf.ctxIface != nil && (types.Implements(t, rf.ctxIface) || types.Implements(types.NewPointer(t), rf.ctxIface)) {
				s.BuildsContext = true
			}
			s.StoresCancel = storesCancelFunc(al)
			if al.Pos().IsValid() {
				s.Pos = al.Pos()
			}
		}
		rf.sink(s, st)
		return
	}
	rf.sink(Sink{Kind: SinkStore, Pos: st.Pos(), Outlives: keptByReceiver(st.Addr)}, st)
}

// keptByReceiver reports whether addr is memory of the function's
// receiver (s.ctx, s.state.ctx) or of a package variable.
func keptByReceiver(addr ssa.Value) bool {
	switch base := memoryBase(addr).(type) {
	case *ssa.Global:
		return true
	case *ssa.Parameter:
		fn := base.Parent()
		return fn.Signature.Recv() != nil && fn.Params[0] == base
	}
	return false
}

// followCell follows the loads of a local variable that lives in memory.
func (rf *rootFlow) followCell(al *ssa.Alloc) {
	var visit func(addr ssa.Value, depth int)
	visit = func(addr ssa.Value, depth int) {
		refs := addr.Referrers()
		if refs == nil || depth > 3 {
			return
		}
		for _, r := range *refs {
			switch r := r.(type) {
			case *ssa.UnOp:
				if r.Op == token.MUL && onlyRootStores(addr) {
					rf.follow(r)
				}
			case *ssa.MakeClosure:
				fn := r.Fn.(*ssa.Function)
				for i, b := range r.Bindings {
					if b == addr {
						visit(fn.FreeVars[i], depth+1)
					}
				}
			}
		}
	}
	visit(al, 0)
}

// onlyRootStores reports whether every value stored at addr is
// root-derived: the AST rule "a variable holds a root context only if
// every assignment to it does".
func onlyRootStores(addr ssa.Value) bool {
	refs := addr.Referrers()
	if refs == nil {
		return false
	}
	for _, r := range *refs {
		if st, ok := r.(*ssa.Store); ok && st.Addr == addr && !rootDerived(st.Val, map[ssa.Value]bool{}) {
			return false
		}
	}
	return true
}

// isLocalCell reports whether a heap Alloc is a local variable (captured
// by a closure or address-taken), not a composite literal.
func isLocalCell(al *ssa.Alloc) bool {
	return al.Comment != "complit" && al.Comment != "new" && al.Comment != "slicelit" && al.Comment != "makeslice" && al.Comment != "varargs"
}

func (rf *rootFlow) sink(s Sink, instr ssa.Instruction) {
	fn := instr.Parent()
	if fn != rf.use.Func {
		s.InClosure = true
		s.InDeferredClosure, s.InGoroutine = closureRunBy(fn)
	}
	for _, c := range rf.cancels {
		if cancelledBefore(c, instr) {
			s.PreCancelled = true
		}
		if cancelKept(c) {
			// ctx, p.stop = context.WithCancel(context.Background()):
			// background tasks whose stop function is kept, a lifetime
			// managed explicitly.
			s.StoresCancel = true
		}
	}
	for _, o := range rf.use.Sinks {
		if o.Pos == s.Pos && o.Kind == s.Kind {
			return
		}
	}
	rf.use.Sinks = append(rf.use.Sinks, s)
}

// cancelledBefore reports whether the cancel function is called (not
// deferred) before instr on every path to it.
func cancelledBefore(cancel ssa.Value, instr ssa.Instruction) bool {
	refs := cancel.Referrers()
	if refs == nil {
		return false
	}
	for _, r := range *refs {
		if c, ok := r.(*ssa.Call); ok && c.Call.Value == cancel && c.Parent() == instr.Parent() && before(c, instr) {
			return true
		}
	}
	return false
}

// madeInGoroutine reports whether fn, or a closure enclosing it, is
// started by a go statement of a function that does not wait for its
// goroutines.
func madeInGoroutine(fn *ssa.Function) bool {
	for f := fn; f.Parent() != nil; f = f.Parent() {
		if _, goroutine := closureRunBy(f); goroutine && !waitsForGoroutines(f.Parent()) {
			return true
		}
	}
	return false
}

// closureRunBy reports whether fn is a closure that the function making
// it runs with a defer statement, or starts with a go statement.
func closureRunBy(fn *ssa.Function) (deferred, goroutine bool) {
	parent := fn.Parent()
	if parent == nil {
		return false, false
	}
	for _, b := range parent.Blocks {
		for _, instr := range b.Instrs {
			var c *ssa.CallCommon
			switch instr := instr.(type) {
			case *ssa.Defer:
				c = &instr.Call
			case *ssa.Go:
				c = &instr.Call
			default:
				continue
			}
			mc, ok := c.Value.(*ssa.MakeClosure)
			if c.Value != ssa.Value(fn) && (!ok || mc.Fn != fn) {
				continue
			}
			if _, ok := instr.(*ssa.Defer); ok {
				deferred = true
			} else {
				goroutine = true
			}
		}
	}
	return deferred, goroutine
}

// storesCancelFunc reports whether a struct allocation also gets a
// context.CancelFunc stored in one of its fields.
func storesCancelFunc(al *ssa.Alloc) bool {
	for _, fa := range fieldAddrs(al) {
		for _, val := range storedAt(fa) {
			if isCancelFuncType(val.Type()) {
				return true
			}
		}
	}
	return false
}

// cancelKept reports whether a cancel function is kept for later: stored
// into a field or a package variable, handed to a call (a close hook:
// p.OnClose(cancel)), or captured by a closure that is (p.AddOnClose(key,
// func() { cancel() })) or that runs as a goroutine (go func() {
// <-ctx.Done(); srv.GracefulStop(); cancel() }()). The context's lifetime is then managed
// explicitly, by whatever calls it.
func cancelKept(cancel ssa.Value) bool {
	refs := cancel.Referrers()
	if refs == nil {
		return false
	}
	for _, r := range *refs {
		switch r := r.(type) {
		case *ssa.Store:
			if r.Val == cancel {
				switch a := r.Addr.(type) {
				case *ssa.FieldAddr, *ssa.Global:
					return true
				case *ssa.Alloc:
					// A variable captured by closures: kept if one of
					// them is.
					if a.Referrers() != nil {
						for _, ar := range *a.Referrers() {
							if mc, ok := ar.(*ssa.MakeClosure); ok && closureRegistered(mc) {
								return true
							}
						}
					}
				}
			}
		case *ssa.Call:
			if r.Call.Value != cancel && slices.Contains(r.Call.Args, cancel) {
				return true
			}
		case *ssa.MakeClosure:
			if closureRegistered(r) {
				return true
			}
		}
	}
	return false
}

// closureRegistered reports whether a closure is handed to a call as an
// argument, stored, or started as a goroutine (one that waits for
// shutdown and then cancels): kept to run later, not run now.
func closureRegistered(mc *ssa.MakeClosure) bool {
	refs := mc.Referrers()
	if refs == nil {
		return false
	}
	for _, r := range *refs {
		switch r := r.(type) {
		case *ssa.Go:
			if r.Call.Value == ssa.Value(mc) {
				return true
			}
		case *ssa.Call:
			if r.Call.Value != ssa.Value(mc) && slices.Contains(r.Call.Args, ssa.Value(mc)) {
				return true
			}
		case *ssa.Store:
			if r.Val == ssa.Value(mc) {
				return true
			}
		}
	}
	return false
}

func isCancelFuncType(t types.Type) bool {
	n, ok := types.Unalias(t).(*types.Named)
	if !ok || n.Obj().Pkg() == nil || n.Obj().Pkg().Path() != "context" {
		return false
	}
	return n.Obj().Name() == "CancelFunc" || n.Obj().Name() == "CancelCauseFunc"
}

// rootDerived reports whether v holds, on every path, a root context or
// one derived from it.
func rootDerived(v ssa.Value, seen map[ssa.Value]bool) bool {
	return fromRoot(v, derivedArg, nil, seen)
}

// fromRoot reports whether v holds, on every path, a root context
// (context.Background's or TODO's), through phis, conversions and the
// calls whose context result through says they derive from an argument
// (the argument, or nil). leaf, when set, accepts other values as roots
// (a parameter known to get one).
func fromRoot(v ssa.Value, through func(*ssa.CallCommon) ssa.Value, leaf func(ssa.Value) bool, seen map[ssa.Value]bool) bool {
	if seen[v] {
		return true // a cycle through phis adds no other source
	}
	seen[v] = true
	if leaf != nil && leaf(v) {
		return true
	}
	switch v := v.(type) {
	case *ssa.Call:
		if knowledge.IsRootContext(calleeName(v.Common())) {
			return true
		}
		if a := through(v.Common()); a != nil {
			return fromRoot(a, through, leaf, seen)
		}
	case *ssa.Extract:
		if c, ok := v.Tuple.(*ssa.Call); ok && v.Index == 0 {
			return fromRoot(c, through, leaf, seen)
		}
	case *ssa.Phi:
		for _, e := range v.Edges {
			if !fromRoot(e, through, leaf, seen) {
				return false
			}
		}
		return true
	case *ssa.MakeInterface:
		return fromRoot(v.X, through, leaf, seen)
	case *ssa.ChangeType:
		return fromRoot(v.X, through, leaf, seen)
	case *ssa.ChangeInterface:
		return fromRoot(v.X, through, leaf, seen)
	}
	return false
}

// derives reports whether the call returns a context derived from a
// context argument (context.WithTimeout(parent, d), a tracing span).
func derives(c *ssa.CallCommon) bool { return derivedArg(c) != nil }

// derivedArg returns the context argument a call derives its context
// result from, or nil.
func derivedArg(c *ssa.CallCommon) ssa.Value {
	sig := c.Signature()
	if sig == nil || sig.Results().Len() == 0 || !analysisutil.IsContext(sig.Results().At(0).Type()) {
		return nil
	}
	for _, a := range c.Args {
		if analysisutil.IsContext(a.Type()) {
			return a
		}
	}
	return nil
}

// paramIsContext reports whether argument idx of the call is received by
// a context.Context parameter (not, say, fmt.Println's any).
func paramIsContext(c *ssa.CallCommon, idx int) bool {
	sig := c.Signature()
	if sig == nil {
		return false
	}
	params := sig.Params()
	if !c.IsInvoke() && sig.Recv() != nil {
		idx-- // the receiver is the first argument of a static method call
		if idx < 0 {
			return false
		}
	}
	n := params.Len()
	var t types.Type
	switch {
	case n == 0:
		return false
	case idx < n-1 || !sig.Variadic() && idx < n:
		t = params.At(idx).Type()
	case sig.Variadic():
		// Variadic arguments arrive packed in a slice: a context there
		// is stored into it, never passed as such.
		return false
	}
	return t != nil && analysisutil.IsContext(t)
}

func extracts(call *ssa.Call, index int) []ssa.Value {
	var out []ssa.Value
	for _, r := range *call.Referrers() {
		if x, ok := r.(*ssa.Extract); ok && x.Index == index {
			out = append(out, x)
		}
	}
	return out
}

func isTuple(t types.Type) bool {
	_, ok := t.(*types.Tuple)
	return ok
}

// readsLocalCopy reports whether an interface call reads a process-local
// copy of remote state by the type it is made on (controller-runtime's
// cache.Cache.List, where client.Client.List goes to the server).
func readsLocalCopy(c *ssa.CallCommon) bool {
	if !c.IsInvoke() {
		return false
	}
	n, ok := types.Unalias(c.Value.Type()).(*types.Named)
	if !ok || n.Obj().Pkg() == nil {
		return false
	}
	return knowledge.IsLocalRead(n.Obj().Pkg().Path()+"."+n.Obj().Name(), c.Method.Name())
}
