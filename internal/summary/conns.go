package summary

// The connections claim module: whether a gRPC client connection bounds
// every call made on it, because it was dialled with a client interceptor
// that puts a deadline on calls that have none.
//
// Readers: sites.go, at each unary gRPC call whose context has no
// deadline (a connection with a timeout interceptor bounds it), and at
// each call of a function whose reach claim names the connection it calls
// on (Reach.Conn: a generated client's methods). Facts carry the claim
// across packages on results (a constructor returning a client built on
// a dialled connection) and on fields, so a connection dialled in one
// package is judged where another package calls through it.
//
// A connection is followed through the values that carry it: the
// *grpc.ClientConn or grpc.ClientConnInterface itself, a generated client
// or any struct with exactly one field that carries a connection (the
// connection it was built with), interfaces holding them. Where the
// connection cannot be followed (a parameter nobody resolves, options
// built by a helper), the package-level rule decides: a package that
// builds a timeout interceptor anywhere is taken to set it on its
// connections.

import (
	"encoding/json"
	"go/constant"
	"go/types"
	"time"

	"golang.org/x/tools/go/ssa"

	"github.com/resilvet/resilvet/internal/analysisutil"
)

const grpcPkg = "google.golang.org/grpc"

// dialedConn is the value of the connection a dial call returns: bounded
// when its options set a timeout interceptor, unbounded when every option
// is known and none does, unknown when some option cannot be followed.
func (ev *evaluator) dialedConn(call *ssa.Call) value {
	c := call.Common()
	if len(c.Args) == 0 {
		return unknown
	}
	opts, ok := sliceElems(c.Args[len(c.Args)-1], map[ssa.Value]bool{})
	if !ok {
		return unknown
	}
	for _, o := range opts {
		oc, ok := stripIface(o).(*ssa.Call)
		if !ok {
			return unknown
		}
		var interceptors []ssa.Value
		switch calleeName(oc.Common()) {
		case grpcPkg + ".WithUnaryInterceptor":
			interceptors = oc.Common().Args
		case grpcPkg + ".WithChainUnaryInterceptor":
			if len(oc.Common().Args) == 1 {
				interceptors, ok = sliceElems(oc.Common().Args[0], map[ssa.Value]bool{})
				if !ok {
					return unknown
				}
			}
		case grpcPkg + ".WithDefaultServiceConfig":
			if k, ok := oc.Common().Args[0].(*ssa.Const); ok && k.Value != nil && k.Value.Kind() == constant.String {
				if serviceConfigTimeout(constant.StringVal(k.Value)) {
					return bounded()
				}
			} else {
				return unknown
			}
		default:
			if !isGRPCOption(oc.Common()) {
				return unknown // a helper's option may add an interceptor
			}
		}
		for _, i := range interceptors {
			if ev.e.timeoutInterceptor(i, 0) {
				return bounded()
			}
		}
	}
	return value{{kind: srcUnbounded, fn: call.Parent(), pos: call.Pos(), what: "a connection without a timeout interceptor"}}
}

// serviceConfigTimeout reports whether a gRPC service config (JSON) gives
// methods a timeout: the channel then puts that deadline on their calls.
// A timeout for some methods only counts too: which method a call makes
// is not followed, and a call on a connection configured with timeouts
// is taken to be one of them rather than reported.
func serviceConfigTimeout(js string) bool {
	var cfg struct {
		MethodConfig []struct {
			Timeout string `json:"timeout"`
		} `json:"methodConfig"`
	}
	if json.Unmarshal([]byte(js), &cfg) != nil {
		return false
	}
	for _, m := range cfg.MethodConfig {
		if d, err := time.ParseDuration(m.Timeout); err == nil && d > 0 {
			return true
		}
	}
	return false
}

// isGRPCOption reports whether c is one of grpc's own option
// constructors, none of which adds an interceptor apart from the two
// dialedConn reads.
func isGRPCOption(c *ssa.CallCommon) bool {
	fn := c.StaticCallee()
	return fn != nil && fn.Pkg != nil && fn.Pkg.Pkg.Path() == grpcPkg && fn.Signature.Recv() == nil
}

// timeoutInterceptor reports whether v is a unary client interceptor that
// sets a deadline: one built by a constructor of the knowledge table or
// the user's list, or a function of this package (declared or literal)
// that derives a context with a deadline, or returned by a function of
// this package that builds one.
func (e *engine) timeoutInterceptor(v ssa.Value, depth int) bool {
	switch v := stripIface(v).(type) {
	case *ssa.Call:
		if e.ext.TimeoutInterceptorOf(calleeName(v.Common())) {
			return true
		}
		fn := v.Common().StaticCallee()
		if fn == nil || e.local[fn] == nil || depth > 2 {
			return false
		}
		for _, b := range fn.Blocks {
			if ret, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return); ok && len(ret.Results) == 1 {
				if !e.timeoutInterceptor(ret.Results[0], depth+1) {
					return false
				}
			}
		}
		return len(fn.Blocks) > 0
	case *ssa.MakeClosure:
		return setsDeadline(v.Fn.(*ssa.Function))
	case *ssa.Function:
		return setsDeadline(v)
	}
	return false
}

// setsDeadline reports whether fn derives a context with a deadline.
func setsDeadline(fn *ssa.Function) bool {
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			if c, ok := instr.(ssa.CallInstruction); ok && setsContextDeadline(calleeName(c.Common())) {
				return true
			}
		}
	}
	return false
}

// sliceElems returns the elements a slice value holds, when every one is
// known: a variadic argument list, a slice literal, appends to them,
// nil, and the joins of these.
func sliceElems(v ssa.Value, seen map[ssa.Value]bool) ([]ssa.Value, bool) {
	if seen[v] {
		return nil, true
	}
	seen[v] = true
	switch v := v.(type) {
	case *ssa.Const:
		return nil, v.IsNil()
	case *ssa.Slice:
		al, ok := v.X.(*ssa.Alloc)
		if !ok {
			return nil, false
		}
		var out []ssa.Value
		for _, r := range *al.Referrers() {
			switch r := r.(type) {
			case *ssa.IndexAddr:
				for _, s := range *r.Referrers() {
					st, ok := s.(*ssa.Store)
					if !ok || st.Addr != r {
						return nil, false
					}
					out = append(out, st.Val)
				}
			case *ssa.Slice:
			default:
				return nil, false
			}
		}
		return out, true
	case *ssa.Call:
		if b, ok := v.Call.Value.(*ssa.Builtin); !ok || b.Name() != "append" {
			return nil, false
		}
		var out []ssa.Value
		for _, a := range v.Call.Args {
			es, ok := sliceElems(a, seen)
			if !ok {
				return nil, false
			}
			out = append(out, es...)
		}
		return out, true
	case *ssa.Phi:
		var out []ssa.Value
		for _, e := range v.Edges {
			es, ok := sliceElems(e, seen)
			if !ok {
				return nil, false
			}
			out = append(out, es...)
		}
		return out, true
	}
	return nil, false
}

func stripIface(v ssa.Value) ssa.Value {
	for {
		switch x := v.(type) {
		case *ssa.MakeInterface:
			v = x.X
		case *ssa.ChangeInterface:
			v = x.X
		case *ssa.ChangeType:
			v = x.X
		default:
			return v
		}
	}
}

// isConnType reports whether t is a gRPC client connection.
func isConnType(t types.Type) bool {
	if isNamedPtr(t, grpcPkg, "ClientConn") {
		return true
	}
	n, ok := types.Unalias(t).(*types.Named)
	return ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == grpcPkg && n.Obj().Name() == "ClientConnInterface"
}

// connField returns the one field of st that holds a connection, and
// false when it has none or several (a struct holding two connections
// does not say which one a call uses).
func connField(st *types.Struct) (int, bool) {
	found := -1
	for i := range st.NumFields() {
		if isConnType(st.Field(i).Type()) {
			if found >= 0 {
				return -1, false
			}
			found = i
		}
	}
	return found, found >= 0
}

// connOfAlloc is the connection stored into the connection field of a
// struct allocated here.
func (ev *evaluator) connOfAlloc(al *ssa.Alloc) value {
	st, ok := structOf(al.Type())
	if !ok {
		return unknown
	}
	f, ok := connField(st)
	if !ok {
		return unknown
	}
	var vs []value
	for _, r := range *al.Referrers() {
		fa, ok := r.(*ssa.FieldAddr)
		if !ok || fa.Field != f {
			continue
		}
		for _, s := range *fa.Referrers() {
			if st, ok := s.(*ssa.Store); ok && st.Addr == fa {
				vs = append(vs, ev.eval(domConn, st.Val))
			}
		}
	}
	if len(vs) == 0 {
		return unknown
	}
	return join(vs...)
}

// loadConn is the connection held by field f of x: what the package
// stores into it when that is known, else, for the one connection field
// of a struct, the connection the struct itself carries (a generated
// client's cc is whatever its receiver was built with).
func (ev *evaluator) loadConn(x ssa.Value, f *types.Var, index int) value {
	if v := ev.e.varValue(domConn, f); v.state() != stUnknown {
		return v
	}
	st, ok := structOf(x.Type())
	if !ok {
		return unknown
	}
	if i, ok := connField(st); !ok || i != index {
		return unknown
	}
	return ev.eval(domConn, x)
}

// dependsOnGRPC reports whether the package imports grpc, directly or
// through others: only then can its results and fields carry a
// connection, and only then are connection claims computed for them.
func dependsOnGRPC(pkg *types.Package) bool {
	return analysisutil.FindImport(pkg, func(path string) bool { return path == grpcPkg }) != nil
}

// carriesConn reports whether a value of type t may carry a connection:
// the engine computes connection claims only for such results and fields.
func carriesConn(t types.Type) bool {
	if types.Identical(t, types.Universe.Lookup("error").Type()) {
		return false
	}
	switch types.Unalias(t).Underlying().(type) {
	case *types.Pointer, *types.Interface, *types.Struct:
		_, followed := domainOfType(t)
		return !followed
	}
	return false
}
