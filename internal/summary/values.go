package summary

import (
	"go/constant"
	"go/token"
	"go/types"
	"slices"
	"sort"
	"strings"
	"time"

	"golang.org/x/tools/go/ssa"

	"github.com/resilvet/resilvet/internal/analysisutil"
	"github.com/resilvet/resilvet/internal/knowledge"
)

// The engine's abstract values. Each SSA value of interest (a context, an
// *http.Client, an *http.Request, a *net.Dialer) is described by the set
// of its sources: where, on each path, it comes from. A source is bounded
// (a deadline or a timeout is set), unbounded (none is, and we know where
// it is made), a parameter of some function (the caller decides), or
// unknown (anything we cannot follow). Merges at phi nodes are unions.

// domain is the kind of value followed.
type domain uint8

const (
	// domCtx follows a context.Context: bounded when it carries a deadline.
	domCtx domain = iota
	// domRequest follows an *http.Request by its context.
	domRequest
	// domClient follows an *http.Client: bounded when Timeout is set.
	domClient
	// domDialer follows a *net.Dialer: bounded when Timeout or Deadline
	// is set.
	domDialer
	// domConn follows a gRPC client connection, and the clients and
	// structs that carry one: bounded when it was dialled with a timeout
	// interceptor (conns.go).
	domConn
	// domTransport follows an *http.Transport: bounded when it has a
	// ResponseHeaderTimeout and a dialer with a timeout, unknown
	// otherwise (a transport bounds its client only by being bounded).
	domTransport
)

var domainNames = [...]string{"ctx", "request", "client", "dialer", "conn", "transport"}

func (d domain) String() string { return domainNames[d] }

func domainOf(name string) (domain, bool) {
	for i, n := range domainNames {
		if n == name {
			return domain(i), true
		}
	}
	return 0, false
}

type srcKind uint8

const (
	srcUnknown srcKind = iota
	srcBounded
	srcUnbounded
	srcParam
)

// src is one source of a value.
type src struct {
	kind srcKind
	// fn and param name the parameter, for srcParam (param indexes
	// fn.Params, receiver included); for srcUnbounded, fn is the
	// function where the value is made.
	fn    *ssa.Function
	param int
	dom   domain // for srcParam: what the parameter is followed as
	// pos and what say where and what an unbounded value is
	// ("context.Background()", "http.DefaultClient").
	pos  token.Pos
	what string
	// at is the position as text, for values made in another package.
	at string
	// guard marks an unbounded value put in place of a nil one (if ctx ==
	// nil { ctx = context.Background() }): a fallback, not a choice.
	guard bool
	// detached marks context.WithoutCancel: the caller's values without
	// its lifetime, made on purpose for work that must outlive it.
	detached bool
}

// value is a set of sources, kept small: past maxSources it is unknown.
type value []src

const maxSources = 8

var unknown = value{{kind: srcUnknown}}

func bounded() value { return value{{kind: srcBounded}} }

// boundedBy is a bounded value made at call, by what ("context.WithTimeout(3s)"):
// the resilience map says where a call's bound comes from. Outside map
// mode it is bounded(), so that nothing else depends on the detail.
func (ev *evaluator) boundedBy(what string, call ssa.Instruction) value {
	if !ev.e.mapMode {
		return bounded()
	}
	return value{{kind: srcBounded, fn: call.Parent(), pos: call.Pos(), what: what}}
}

func join(vs ...value) value {
	var out value
	for _, v := range vs {
	next:
		for _, s := range v {
			for _, o := range out {
				// Bounded sources differ only in the detail map mode
				// records (boundedBy): the first stands for all, so that
				// the count of sources, and every decision, is the same
				// in either mode.
				if o == s || o.kind == srcBounded && s.kind == srcBounded {
					continue next
				}
			}
			out = append(out, s)
		}
	}
	if len(out) > maxSources {
		return unknown
	}
	return out
}

// state summarises a value for a decision.
type state uint8

const (
	stUnknown   state = iota // some source cannot be followed: no claim
	stBounded                // every path is bounded
	stUnbounded              // some path is unbounded, and no path comes from a parameter
	stParam                  // some path passes a parameter through: the caller decides
)

func (v value) state() state {
	if len(v) == 0 {
		return stUnknown
	}
	st := stBounded
	for _, s := range v {
		switch s.kind {
		case srcUnknown:
			return stUnknown
		case srcParam:
			st = stParam
		case srcUnbounded:
			if st == stBounded {
				st = stUnbounded
			}
		}
	}
	// A parameter with an unbounded fallback ("if ctx == nil { ctx =
	// context.Background() }") is the caller's value: the fallback is a
	// guard, not a choice.
	return st
}

// unbounded returns the value's unbounded sources, sorted by position.
func (v value) unbounded() []src {
	var out []src
	for _, s := range v {
		if s.kind == srcUnbounded {
			out = append(out, s)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].pos < out[j].pos })
	return out
}

// params returns the value's parameter sources.
func (v value) params() []src {
	var out []src
	for _, s := range v {
		if s.kind == srcParam {
			out = append(out, s)
		}
	}
	return out
}

type evalKey struct {
	d domain
	v ssa.Value
}

// evaluator follows SSA values to their sources. It is memoised per
// engine phase; a value on a cycle of its own definitions is unknown
// while it is being evaluated.
type evaluator struct {
	e    *engine
	memo map[evalKey]value
	// copied is the stack of literals being followed into the variable
	// they are copied to (plain := http.Client{…}).
	copied []*ssa.Alloc
}

func (ev *evaluator) eval(d domain, v ssa.Value) value {
	if v == nil {
		return unknown
	}
	k := evalKey{d, v}
	if r, ok := ev.memo[k]; ok {
		return r
	}
	// Cycle guard. A phi met again while it is being evaluated is a
	// value carried around a loop: its own back edge adds nothing to the
	// join of its other edges, so it stands for the empty value (bottom),
	// and the phi's value is the join over every iteration. Any other
	// cycle is unknown.
	if _, ok := v.(*ssa.Phi); ok {
		ev.memo[k] = value{}
	} else {
		ev.memo[k] = unknown
	}
	r := ev.compute(d, v)
	ev.memo[k] = r
	return r
}

func (ev *evaluator) compute(d domain, v ssa.Value) value {
	switch v := v.(type) {
	case *ssa.Phi:
		var vs []value
		for i, e := range v.Edges {
			val := ev.eval(d, e)
			if nilGuarded(v.Block().Preds[i], v.Block()) {
				val = asGuard(val)
			}
			vs = append(vs, val)
		}
		return join(vs...)
	case *ssa.ChangeType:
		return ev.eval(d, v.X)
	case *ssa.MakeInterface:
		return ev.eval(d, v.X)
	case *ssa.ChangeInterface:
		return ev.eval(d, v.X)
	case *ssa.TypeAssert:
		return ev.eval(d, v.X)
	case *ssa.Extract:
		switch t := v.Tuple.(type) {
		case *ssa.Call:
			if b, ok := ev.setAfter(d, v); ok {
				return b
			}
			return ev.call(d, t, v.Index)
		case *ssa.TypeAssert:
			if v.Index == 0 {
				return ev.eval(d, t.X)
			}
		}
		return unknown
	case *ssa.Call:
		if b, ok := ev.setAfter(d, v); ok {
			return b
		}
		return ev.call(d, v, 0)
	case *ssa.Parameter:
		fn := v.Parent()
		for i, p := range fn.Params {
			if p == v {
				return value{{kind: srcParam, fn: fn, param: i, dom: d}}
			}
		}
		return unknown
	case *ssa.FreeVar:
		return ev.freeVar(d, v)
	case *ssa.UnOp:
		if v.Op == token.MUL {
			return ev.load(d, v.X)
		}
		return unknown
	case *ssa.Field:
		if st, ok := structOf(v.X.Type()); ok {
			if d == domConn {
				return ev.loadConn(v.X, st.Field(v.Field), v.Field)
			}
			return ev.e.varValue(d, st.Field(v.Field))
		}
		return unknown
	case *ssa.Const:
		if d == domConn && v.IsNil() {
			// No connection: the error path of a constructor.
			return value{}
		}
		return unknown
	case *ssa.Alloc:
		switch d {
		case domConn:
			return ev.connOfAlloc(v)
		case domClient:
			return ev.configured(v, "Timeout")
		case domDialer:
			return ev.configured(v, "Timeout", "Deadline")
		case domTransport:
			return ev.transportLiteral(v)
		}
		return unknown
	}
	return unknown
}

// nilGuarded reports whether the edge pred→phiBlock is taken only when a
// value was found nil: pred, or a block that dominates it, is the branch
// of an if on x == nil (x != nil) taken when x is nil.
func nilGuarded(pred, phiBlock *ssa.BasicBlock) bool {
	for b, depth := pred, 0; b != nil && depth < 3; b, depth = b.Idom(), depth+1 {
		dom := b.Idom()
		if dom == nil {
			return false
		}
		ifi, ok := dom.Instrs[len(dom.Instrs)-1].(*ssa.If)
		if !ok {
			continue
		}
		cmp, ok := ifi.Cond.(*ssa.BinOp)
		if !ok || !isNilConst(cmp.Y) && !isNilConst(cmp.X) {
			continue
		}
		for branch, succ := range dom.Succs {
			if succ == phiBlock || !succ.Dominates(pred) {
				continue
			}
			return cmp.Op == token.EQL && branch == 0 || cmp.Op == token.NEQ && branch == 1
		}
	}
	return false
}

func isNilConst(v ssa.Value) bool {
	c, ok := v.(*ssa.Const)
	return ok && c.IsNil()
}

// asGuard marks a value's unbounded sources as nil-guard fallbacks.
func asGuard(v value) value {
	out := make(value, len(v))
	for i, s := range v {
		if s.kind == srcUnbounded {
			s.guard = true
		}
		out[i] = s
	}
	return out
}

// freeVar follows a closure's free variable to the values bound to it
// where the closure is made.
func (ev *evaluator) freeVar(d domain, fv *ssa.FreeVar) value {
	fn := fv.Parent()
	idx := -1
	for i, f := range fn.FreeVars {
		if f == fv {
			idx = i
		}
	}
	parent := fn.Parent()
	if idx < 0 || parent == nil {
		return unknown
	}
	var vs []value
	for _, b := range parent.Blocks {
		for _, instr := range b.Instrs {
			if mc, ok := instr.(*ssa.MakeClosure); ok && mc.Fn == fn {
				vs = append(vs, ev.eval(d, mc.Bindings[idx]))
			}
		}
	}
	if len(vs) == 0 {
		return unknown
	}
	return join(vs...)
}

// load follows a load from addr: a struct field, a package-level
// variable, or a local variable captured by a closure (an Alloc shared
// through free variables).
func (ev *evaluator) load(d domain, addr ssa.Value) value {
	switch a := addr.(type) {
	case *ssa.FieldAddr:
		if st, ok := structOf(a.X.Type()); ok {
			if d == domConn {
				return ev.loadConn(a.X, st.Field(a.Field), a.Field)
			}
			return ev.e.varValue(d, st.Field(a.Field))
		}
	case *ssa.Global:
		if obj, ok := a.Object().(*types.Var); ok {
			if d == domClient && obj.Pkg() != nil && obj.Pkg().Path() == "net/http" && obj.Name() == "DefaultClient" {
				return value{{kind: srcUnbounded, what: "http.DefaultClient"}}
			}
			return ev.e.varValue(d, obj)
		}
	case *ssa.Alloc:
		return ev.cell(d, a)
	case *ssa.FreeVar:
		// A captured variable: find the Alloc it is bound to.
		fn := a.Parent()
		parent := fn.Parent()
		if parent == nil {
			return unknown
		}
		for i, f := range fn.FreeVars {
			if f != a {
				continue
			}
			for _, b := range parent.Blocks {
				for _, instr := range b.Instrs {
					if mc, ok := instr.(*ssa.MakeClosure); ok && mc.Fn == fn {
						if al, ok := mc.Bindings[i].(*ssa.Alloc); ok {
							if v, ok := ev.cellWhenRun(d, al, mc, a); ok {
								return v
							}
							return ev.cell(d, al)
						}
						if fv, ok := mc.Bindings[i].(*ssa.FreeVar); ok {
							return ev.load(d, fv)
						}
					}
				}
			}
		}
	}
	return unknown
}

// cell follows every value stored into a local variable that lives in
// memory (captured by a closure, or address-taken). Any other use of its
// address (passed to a call) makes it unknown.
func (ev *evaluator) cell(d domain, al *ssa.Alloc) value {
	var vs []value
	var visit func(addr ssa.Value, depth int) bool
	visit = func(addr ssa.Value, depth int) bool {
		refs := addr.Referrers()
		if refs == nil || depth > 3 {
			return false
		}
		for _, r := range *refs {
			switch r := r.(type) {
			case *ssa.Store:
				if r.Addr != addr {
					return false // the address itself is stored
				}
				vs = append(vs, ev.eval(d, r.Val))
			case *ssa.UnOp, *ssa.DebugRef:
			case *ssa.MakeClosure:
				for i, b := range r.Bindings {
					if b == addr && !visit(r.Fn.(*ssa.Function).FreeVars[i], depth+1) {
						return false
					}
				}
			default:
				return false
			}
		}
		return true
	}
	if !visit(al, 0) || len(vs) == 0 {
		return unknown
	}
	return join(vs...)
}

// cellWhenRun is the value of a captured variable as the closure that
// captures it sees it, when the closure is only ever called right where
// it is made: at each call, the last store into the variable before the
// call (ctx := context.Background(); run := func() { use(ctx) };
// ctx, cancel = context.WithTimeout(ctx, d); run() sees the bounded ctx).
// It declines (ok false) when the closure escapes, writes the variable
// itself, or another store may come between.
func (ev *evaluator) cellWhenRun(d domain, al *ssa.Alloc, mc *ssa.MakeClosure, fv *ssa.FreeVar) (value, bool) {
	if refs := fv.Referrers(); refs != nil {
		for _, r := range *refs {
			if st, ok := r.(*ssa.Store); ok && st.Addr == ssa.Value(fv) {
				return nil, false
			}
		}
	}
	var stores []*ssa.Store
	for _, r := range *al.Referrers() {
		switch r := r.(type) {
		case *ssa.Store:
			if r.Addr != ssa.Value(al) {
				return nil, false
			}
			stores = append(stores, r)
		case *ssa.UnOp, *ssa.DebugRef:
		case *ssa.MakeClosure:
			if r != mc {
				return nil, false
			}
		default:
			return nil, false
		}
	}
	var vs []value
	for _, r := range *mc.Referrers() {
		if _, ok := r.(*ssa.DebugRef); ok {
			continue
		}
		call, ok := r.(ssa.CallInstruction)
		if !ok || call.Common().Value != ssa.Value(mc) {
			return nil, false
		}
		st := lastStoreBefore(stores, call)
		if st == nil {
			return nil, false
		}
		vs = append(vs, ev.eval(d, st.Val))
	}
	if len(vs) == 0 {
		return nil, false
	}
	return join(vs...), true
}

// lastStoreBefore returns the store that runs last before at on every
// path: it runs before at, and no other store can run between the two.
func lastStoreBefore(stores []*ssa.Store, at ssa.Instruction) *ssa.Store {
	var best *ssa.Store
	for _, st := range stores {
		if before(st, at) && (best == nil || before(best, st)) {
			best = st
		}
	}
	if best == nil {
		return nil
	}
	for _, st := range stores {
		if st == best || before(st, best) {
			continue
		}
		if reaches(best, st) && reaches(st, at) {
			return nil
		}
	}
	return best
}

// reaches reports whether b can run after a on some path.
func reaches(a, b ssa.Instruction) bool {
	if a.Block() == b.Block() && instrIndex(a) < instrIndex(b) {
		return true
	}
	seen := map[*ssa.BasicBlock]bool{}
	stack := append([]*ssa.BasicBlock(nil), a.Block().Succs...)
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if n == b.Block() {
			return true
		}
		if seen[n] {
			continue
		}
		seen[n] = true
		stack = append(stack, n.Succs...)
	}
	return false
}

// configured follows a struct allocated in place (&http.Client{…},
// &net.Dialer{…}): bounded when one of the named fields is stored a value
// that is not the zero constant, unbounded when none is and the struct
// is used only by methods and field accesses, unknown when its address
// is handed elsewhere (someone else may configure it).
func (ev *evaluator) configured(al *ssa.Alloc, fields ...string) value {
	st, ok := structOf(al.Type())
	if !ok {
		return unknown
	}
	refs := al.Referrers()
	if refs == nil {
		return unknown
	}
	escapes, delegated := false, false
	for _, r := range *refs {
		switch r := r.(type) {
		case *ssa.FieldAddr:
			name := st.Field(r.Field).Name()
			for _, f := range fields {
				if name == f && storesNonZero(r) {
					return ev.boundedBy(typeShort(al.Type())+"{"+f+"}", r)
				}
			}
			if name == "Transport" {
				if ev.transportBounded(r) {
					return bounded()
				}
				delegated = delegated || sendsThroughClient(r)
			}
		case *ssa.Call:
			if !isMethodReceiver(r.Common(), al) {
				escapes = true
			}
		case *ssa.DebugRef:
		case *ssa.MakeClosure:
			// A method value (get := c.Get) uses it as a receiver only.
			if fn, ok := r.Fn.(*ssa.Function); !ok || !isBoundWrapper(fn) {
				escapes = true
			}
		case *ssa.UnOp:
			// A copy of the struct: follow no further, unless it is the
			// literal being copied into a variable.
			if len(ev.copied) == 0 || ev.copied[len(ev.copied)-1] != al {
				escapes = true
			}
		case *ssa.MakeInterface:
			// Made into an interface (a Doer field): followed like the
			// client itself when it is only stored into a field or a
			// package variable, or returned.
			if !storedOrReturned(r) {
				escapes = true
			}
		case *ssa.Return:
			// Returned: the caller's uses are the caller's business; the
			// result claim says what the function returns.
		case *ssa.Store:
			if r.Addr == al {
				// The whole struct is assigned: plain := http.Client{…}
				// copies a literal in.
				switch val := r.Val.(type) {
				case *ssa.Const:
				case *ssa.UnOp:
					src, ok := val.X.(*ssa.Alloc)
					if !ok || val.Op != token.MUL {
						escapes = true
						break
					}
					ev.copied = append(ev.copied, src)
					v := ev.configured(src, fields...)
					ev.copied = ev.copied[:len(ev.copied)-1]
					switch v.state() {
					case stBounded:
						return bounded()
					case stUnknown:
						escapes = true
					}
				default:
					escapes = true
				}
				continue
			}
			// Stored into a field or a package variable: the variable's
			// value is followed from there, and a timeout set on it later
			// is seen there. Anywhere else (a slice, a map) it escapes.
			switch r.Addr.(type) {
			case *ssa.FieldAddr, *ssa.Global:
			default:
				escapes = true
			}
		default:
			// Handed to a closure, a slice, a channel…: whoever gets it
			// may set the timeout.
			escapes = true
		}
	}
	if escapes || delegated {
		return unknown
	}
	what := "a client without Timeout"
	if len(fields) > 1 {
		what = "a net.Dialer without Timeout or Deadline"
	}
	return value{{kind: srcUnbounded, fn: al.Parent(), pos: al.Pos(), what: what}}
}

// storedOrReturned reports whether v is only stored into struct fields
// or package variables, or returned.
func storedOrReturned(v ssa.Value) bool {
	refs := v.Referrers()
	if refs == nil {
		return false
	}
	for _, r := range *refs {
		switch r := r.(type) {
		case *ssa.Store:
			switch r.Addr.(type) {
			case *ssa.FieldAddr, *ssa.Global:
			default:
				return false
			}
			if r.Val != v {
				return false
			}
		case *ssa.Return, *ssa.DebugRef:
		default:
			return false
		}
	}
	return true
}

// transportBounded reports whether the value stored into a client's
// Transport field is an *http.Transport with a ResponseHeaderTimeout and
// a dial function of a net.Dialer that has a Timeout or Deadline, made
// in place or by a function whose result claim says so (a bound on
// everything but reading the body, which counts unless
// -resilvet.transport-timeouts=false), or one that dials only Unix
// sockets.
func (ev *evaluator) transportBounded(fa *ssa.FieldAddr) bool {
	vals := storedAt(fa)
	if len(vals) != 1 {
		return false
	}
	mi, ok := vals[0].(*ssa.MakeInterface)
	if !ok {
		return false
	}
	return ev.eval(domTransport, mi.X).state() == stBounded
}

// transportLiteral judges an *http.Transport made in place: bounded when
// it is given a ResponseHeaderTimeout and a dial function of a bounded
// net.Dialer, or when its dial function connects only to Unix sockets (a
// local process's admin endpoint: no remote peer to wait for); unknown
// otherwise.
func (ev *evaluator) transportLiteral(tr *ssa.Alloc) value {
	header, dial, unix := false, false, false
	for _, tf := range fieldAddrs(tr) {
		switch fieldName(tf) {
		case "ResponseHeaderTimeout":
			header = header || storesNonZero(tf)
		case "DialContext", "Dial":
			for _, d := range storedAt(tf) {
				if mc, ok := d.(*ssa.MakeClosure); ok && len(mc.Bindings) == 1 {
					dial = dial || ev.eval(domDialer, mc.Bindings[0]).state() == stBounded
				}
				unix = unix || ev.dialsOnlyUnix(d)
			}
		}
	}
	if unix || ev.e.transportTimeouts && header && dial {
		return bounded()
	}
	return unknown
}

// dialsOnlyUnix reports whether a dial function is a function literal
// whose outbound calls are all dials (net's and crypto/tls's, by the
// knowledge table) of Unix sockets named by constant networks, and
// there is at least one.
func (ev *evaluator) dialsOnlyUnix(v ssa.Value) bool {
	var fn *ssa.Function
	switch v := v.(type) {
	case *ssa.MakeClosure:
		fn, _ = v.Fn.(*ssa.Function)
	case *ssa.Function:
		fn = v
	}
	if fn == nil || fn.Parent() == nil {
		return false
	}
	dials := 0
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			call, ok := instr.(ssa.CallInstruction)
			if !ok {
				continue
			}
			name := calleeName(call.Common())
			o, ok := ev.e.ext.OutboundOf(name)
			if !ok {
				continue
			}
			if o.Kind != knowledge.Net && o.Kind != knowledge.TLS || !unixNetwork(call.Common(), name) {
				return false
			}
			dials++
		}
	}
	return dials > 0
}

// sendsThroughClient reports whether a value stored into a client's
// Transport field is a round tripper that sends through another client
// (a retrying client's RoundTripper holding that client, which holds an
// *http.Client): the outer client's bound is the inner one's, set where
// the inner client is configured, so the outer one is not known to be
// unbounded.
func sendsThroughClient(fa *ssa.FieldAddr) bool {
	for _, v := range storedAt(fa) {
		mi, ok := v.(*ssa.MakeInterface)
		if ok && holdsClient(mi.X.Type(), 2) {
			return true
		}
	}
	return false
}

// holdsClient reports whether a struct of type t (or pointed to by t)
// has an *http.Client field, directly or in a struct it points to, up to
// depth levels down.
func holdsClient(t types.Type, depth int) bool {
	st, ok := structOf(t)
	if !ok || depth == 0 {
		return false
	}
	for f := range st.Fields() {
		if isNamedPtr(f.Type(), "net/http", "Client") || holdsClient(f.Type(), depth-1) {
			return true
		}
	}
	return false
}

// setAfter reports a client or dialer that a function made elsewhere
// returned and the caller then gave a timeout (c := newClient();
// c.Timeout = d): bounded by that store, whatever the function returned.
func (ev *evaluator) setAfter(d domain, v ssa.Value) (value, bool) {
	var fields []string
	switch d {
	case domClient:
		fields = []string{"Timeout"}
	case domDialer:
		fields = []string{"Timeout", "Deadline"}
	default:
		return nil, false
	}
	st, ok := structOf(v.Type())
	if !ok {
		return nil, false
	}
	if _, ok := v.Type().Underlying().(*types.Pointer); !ok {
		return nil, false
	}
	for _, fa := range fieldAddrs(v) {
		if slices.Contains(fields, st.Field(fa.Field).Name()) && storesNonZero(fa) {
			return ev.boundedBy(typeShort(v.Type())+"{"+st.Field(fa.Field).Name()+"}", fa), true
		}
	}
	return nil, false
}

// storesNonZero reports whether a value other than the zero constant is
// stored at the field address.
func storesNonZero(fa *ssa.FieldAddr) bool {
	for _, val := range storedAt(fa) {
		if c, ok := val.(*ssa.Const); ok && (c.Value == nil || c.Value.Kind() == constant.Int && constant.Sign(c.Value) == 0) {
			continue
		}
		return true
	}
	return false
}

// fieldAddrs returns the addresses of fields taken of the struct at addr
// (&v.f for each use of a field of a literal or variable).
func fieldAddrs(addr ssa.Value) []*ssa.FieldAddr {
	var out []*ssa.FieldAddr
	if refs := addr.Referrers(); refs != nil {
		for _, r := range *refs {
			if fa, ok := r.(*ssa.FieldAddr); ok {
				out = append(out, fa)
			}
		}
	}
	return out
}

// storedAt returns the values stored at a field address.
func storedAt(fa *ssa.FieldAddr) []ssa.Value {
	var out []ssa.Value
	if refs := fa.Referrers(); refs != nil {
		for _, r := range *refs {
			if st, ok := r.(*ssa.Store); ok && st.Addr == fa {
				out = append(out, st.Val)
			}
		}
	}
	return out
}

// fieldName names the field a field address takes.
func fieldName(fa *ssa.FieldAddr) string {
	if st, ok := structOf(fa.X.Type()); ok {
		return st.Field(fa.Field).Name()
	}
	return ""
}

// isMethodReceiver reports whether v is only the receiver of a static
// method call (c.Do(req)), not an ordinary argument.
func isMethodReceiver(c *ssa.CallCommon, v ssa.Value) bool {
	callee := c.StaticCallee()
	if callee == nil || callee.Signature.Recv() == nil || len(c.Args) == 0 || c.Args[0] != v {
		return false
	}
	for _, a := range c.Args[1:] {
		if a == v {
			return false
		}
	}
	return true
}

// call follows the index-th result of a call.
func (ev *evaluator) call(d domain, call *ssa.Call, index int) value {
	c := call.Common()
	name := calleeName(c)
	args := c.Args
	switch d {
	case domCtx:
		if index != 0 {
			break
		}
		if setsContextDeadline(name) {
			return ev.boundedBy(deadlineWhat(c, name), call)
		}
		switch name {
		case "context.Background", "context.TODO":
			return value{{kind: srcUnbounded, fn: call.Parent(), pos: call.Pos(), what: name + "()"}}
		case "context.WithoutCancel":
			return value{{kind: srcUnbounded, fn: call.Parent(), pos: call.Pos(), what: "context.WithoutCancel(…), which drops the deadline,", detached: true}}
		case "context.WithCancel", "context.WithCancelCause":
			if cancelledBeforeUse(call) {
				// cancel() runs before every use: an already-done
				// context, made on purpose (close now, do not wait).
				return bounded()
			}
			if cancelScheduled(call) {
				// time.AfterFunc(d, cancel): a deadline by another name.
				return bounded()
			}
			return ev.eval(domCtx, args[0])
		case "context.WithValue":
			return ev.eval(domCtx, args[0])
		case "(*net/http.Request).Context":
			return ev.eval(domRequest, args[0])
		}
	case domConn:
		switch name {
		case grpcPkg + ".NewClient", grpcPkg + ".Dial", grpcPkg + ".DialContext":
			if index == 0 {
				return ev.dialedConn(call)
			}
		}
	case domRequest:
		switch name {
		case "net/http.NewRequest", "net/http/httptest.NewRequest":
			return value{{kind: srcUnbounded, fn: call.Parent(), pos: call.Pos(), what: calleeDisplay(c) + "'s context.Background()"}}
		case "net/http.NewRequestWithContext", "net/http/httptest.NewRequestWithContext":
			return ev.eval(domCtx, args[0])
		case "(*net/http.Request).WithContext", "(*net/http.Request).Clone":
			if index == 0 {
				return ev.eval(domCtx, args[1])
			}
		}
	}
	if v, ok := ev.resultClaim(d, call, index); ok {
		return v
	}
	// A call we know nothing about that returns a context and takes one
	// derives its result from it (tracing spans, value wrappers).
	if d == domCtx && index == 0 {
		sig := c.Signature()
		if sig.Results().Len() > 0 && analysisutil.IsContext(sig.Results().At(0).Type()) {
			for _, a := range args {
				if analysisutil.IsContext(a.Type()) {
					return ev.eval(domCtx, a)
				}
			}
		}
	}
	return unknown
}

// cancelledBeforeUse reports whether the cancel function a WithCancel
// call returns is called (not deferred) on every path to every use of its
// context (cancelledBefore, the check the root flow makes at each sink).
func cancelledBeforeUse(call *ssa.Call) bool {
	var ctxs, cancels []ssa.Value
	for _, r := range *call.Referrers() {
		if x, ok := r.(*ssa.Extract); ok {
			if x.Index == 0 {
				ctxs = append(ctxs, x)
			} else {
				cancels = append(cancels, x)
			}
		}
	}
	if len(ctxs) == 0 || !slices.ContainsFunc(cancels, isCalled) {
		return false
	}
	for _, x := range ctxs {
		for _, use := range *x.Referrers() {
			if !slices.ContainsFunc(cancels, func(c ssa.Value) bool { return cancelledBefore(c, use) }) {
				return false
			}
		}
	}
	return true
}

// isCalled reports whether the function value f is called.
func isCalled(f ssa.Value) bool {
	for _, r := range *f.Referrers() {
		if c, ok := r.(*ssa.Call); ok && c.Call.Value == f {
			return true
		}
	}
	return false
}

// cancelScheduled reports whether the cancel function a WithCancel call
// returns is handed to time.AfterFunc, directly or in a closure that
// calls it: the context ends when the timer fires.
func cancelScheduled(call *ssa.Call) bool {
	for _, r := range *call.Referrers() {
		x, ok := r.(*ssa.Extract)
		if !ok || x.Index != 1 {
			continue
		}
		// The cancel function itself (CancelFunc converted to func()),
		// or a closure that captures it.
		vals := []ssa.Value{x}
		for _, u := range *x.Referrers() {
			switch u := u.(type) {
			case *ssa.ChangeType:
				vals = append(vals, u)
			case *ssa.MakeClosure:
				vals = append(vals, u)
			}
		}
		for _, v := range vals {
			for _, u := range *v.Referrers() {
				if c, ok := u.(ssa.CallInstruction); ok && calleeName(c.Common()) == "time.AfterFunc" && len(c.Common().Args) == 2 && c.Common().Args[1] == v {
					return true
				}
			}
		}
	}
	return false
}

// before reports whether a runs before b on every path to b.
// Instructions of different functions are not ordered.
func before(a, b ssa.Instruction) bool {
	if a.Parent() != b.Parent() {
		return false
	}
	if a.Block() != b.Block() {
		return a.Block().Dominates(b.Block())
	}
	for _, i := range a.Block().Instrs {
		if i == a {
			return true
		}
		if i == b {
			return false
		}
	}
	return false
}

// resultClaim applies the callee's summary to one of its results.
func (ev *evaluator) resultClaim(d domain, call *ssa.Call, index int) (value, bool) {
	c := call.Common()
	var claims []ValueClaim
	if fn := c.StaticCallee(); fn != nil && ev.e.local[fn] != nil {
		if !ev.e.local[fn].resultsDone {
			return value{}, true // not computed yet: bottom (engine.run)
		}
		claims = ev.e.local[fn].results
	} else if s := ev.e.summaryOf(c); s != nil {
		claims = s.Results
	} else if fns, ok := ev.e.funcTargets(c.Value, 0); ok && !c.IsInvoke() && c.StaticCallee() == nil {
		// A call through a func value whose functions are known (a
		// factory held in a field): the join of what each returns.
		var vs []value
		for _, fn := range fns {
			v, ok := ev.claimValue(d, call, index, ev.e.resultsOfFunc(fn))
			if !ok {
				return nil, false
			}
			vs = append(vs, v)
		}
		return join(vs...), true
	} else {
		return nil, false
	}
	return ev.claimValue(d, call, index, claims)
}

// claimValue applies the result claims of a called function to one of
// its results at the call.
func (ev *evaluator) claimValue(d domain, call *ssa.Call, index int, claims []ValueClaim) (value, bool) {
	c := call.Common()
	for _, cl := range claims {
		if cl.Index != index || cl.Of != d.String() {
			continue
		}
		switch cl.State {
		case stateNone:
			return value{}, true
		case "bounded":
			return ev.boundedBy(calleeDisplay(c)+"'s result", call), true
		case "unbounded":
			what := cl.What + " (from " + calleeDisplay(c) + ")"
			return value{{kind: srcUnbounded, fn: call.Parent(), pos: call.Pos(), what: what, at: cl.At}}, true
		case "param":
			if cl.BoundedIf != nil {
				if k, ok := argOf(c, cl.BoundedIf.Param).(*ssa.Const); ok && cl.BoundedIf.Holds(k.Value) {
					return ev.boundedBy(calleeDisplay(c)+"'s result", call), true
				}
			}
			if a := argOf(c, cl.Param); a != nil {
				pd := d
				if cl.ParamOf != "" {
					if x, ok := domainOf(cl.ParamOf); ok {
						pd = x
					}
				}
				return ev.eval(pd, a), true
			}
		}
	}
	return nil, false
}

// argOf returns the argument passed for the signature's i-th parameter
// (receiver excluded; -1 is the receiver).
func argOf(c *ssa.CallCommon, i int) ssa.Value {
	if i == -1 && c.IsInvoke() {
		return c.Value // the receiver of an interface method
	}
	if !c.IsInvoke() && c.Signature().Recv() != nil {
		i++
	} else if fn := c.StaticCallee(); fn != nil && fn.Signature.Recv() != nil {
		i++
	}
	if i < 0 || i >= len(c.Args) {
		return nil
	}
	return c.Args[i]
}

// structOf returns the struct type behind t, a struct or a pointer to one.
func structOf(t types.Type) (*types.Struct, bool) {
	if p, ok := t.Underlying().(*types.Pointer); ok {
		t = p.Elem()
	}
	st, ok := t.Underlying().(*types.Struct)
	return st, ok
}

const runtimeDeadline = "github.com/resilvet/resilvet/runtime/deadline"

// setsContextDeadline reports whether the named function derives a
// context with a deadline from the one it is given.
// typeShort names a struct type, or what a pointer points to, by package
// name: "http.Client".
func typeShort(t types.Type) string {
	if p, ok := t.Underlying().(*types.Pointer); ok {
		t = p.Elem()
	}
	if n, ok := t.(*types.Named); ok && n.Obj().Pkg() != nil {
		return n.Obj().Pkg().Name() + "." + n.Obj().Name()
	}
	return types.TypeString(t, func(p *types.Package) string { return p.Name() })
}

// deadlineWhat names a deadline-setting call for the resilience map, with
// its duration when it is a constant: "context.WithTimeout(3s)".
func deadlineWhat(c *ssa.CallCommon, name string) string {
	short := name[strings.LastIndex(name, "/")+1:]
	short = strings.TrimPrefix(short, "(")
	short = strings.Replace(short, ").", ".", 1)
	for _, a := range c.Args {
		if k, ok := a.(*ssa.Const); ok && k.Value != nil && k.Value.Kind() == constant.Int && analysisutil.IsDuration(k.Type()) {
			if d, exact := constant.Int64Val(k.Value); exact {
				return short + "(" + time.Duration(d).String() + ")"
			}
		}
	}
	return short
}

func setsContextDeadline(name string) bool {
	switch name {
	case "context.WithTimeout", "context.WithDeadline", "context.WithTimeoutCause", "context.WithDeadlineCause",
		runtimeDeadline + ".Ensure", runtimeDeadline + ".Reserve",
		"(" + runtimeDeadline + ".Budget).Ensure", "(" + runtimeDeadline + ".Budget).Reserve":
		return true
	}
	return false
}
