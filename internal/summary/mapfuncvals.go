package summary

import (
	"fmt"
	"go/token"
	"go/types"
	"reflect"

	"golang.org/x/tools/go/ssa"
)

// The resilience map's func values (map mode): what a handler registered
// on a router is, when it is not a function the registration names. A
// service often registers every handler through an adapter of its own,
// mux.Handle(path, withLogging(h.List)), where withLogging returns a
// closure that calls the handler it was given. The registration names
// only withLogging's closure, and that closure calls a func value: the
// map follows it only if it knows which value withLogging was given
// there. The engine says what it sees in each package (what the
// registration passes, what each function returns, which free variable a
// closure calls), and the map driver joins them across the module's
// packages, so an adapter declared in another package than the routes
// is followed too. Where a value is not one the code names (a handler
// chosen at run time, read from a table, made outside the module), the
// claim says why, and the map says the entry is not followed rather than
// guess.

// Kinds of a MapFuncValue.
const (
	FuncValueFunc     = "func"     // Key is the function run; With the func values it captured, by free variable
	FuncValueCall     = "call"     // the result of calling Key (an adapter); With the func values given, by parameter
	FuncValueParam    = "param"    // the value of the function's parameter Index (in a Returns claim)
	FuncValueCaptured = "captured" // the value of the closure's free variable Index
	FuncValueUnknown  = "unknown"  // not a value the engine can name: Why says why
)

// MapFuncValue is a func value (or an http.Handler, by the ServeHTTP it
// runs) where it is made or passed.
type MapFuncValue struct {
	Kind string
	// Key is the map key of the function run (FuncValueFunc) or called
	// (FuncValueCall); Name the called function's source form.
	Key, Name string
	Index     int
	// With lists the func values a closure captured (by free variable
	// index) or a call is given (by parameter), for those of func or
	// handler type.
	With []MapCapture
	// Why says why the engine cannot name the value, as a phrase after
	// "the handler": "is chosen at run time among several".
	Why string
}

// MapCapture is a func value bound to a closure's free variable or given
// for a function's parameter.
type MapCapture struct {
	Index int
	Value MapFuncValue
}

// maxFuncValueDepth caps how many adapters deep a func value is followed.
const maxFuncValueDepth = 6

// funcValue says what the func value v is.
func (e *engine) funcValue(v ssa.Value, depth int) MapFuncValue {
	if depth > maxFuncValueDepth {
		return unknownValue("is wrapped in more adapters than the map follows")
	}
	v = handlerValue(v)
	switch x := v.(type) {
	case *ssa.Function:
		return MapFuncValue{Kind: FuncValueFunc, Key: MapKey(x)}
	case *ssa.MakeClosure:
		fn, ok := x.Fn.(*ssa.Function)
		if !ok {
			return unknownValue("is a closure the engine cannot name")
		}
		return MapFuncValue{Kind: FuncValueFunc, Key: MapKey(fn), With: e.capturedValues(x, depth)}
	case *ssa.MakeInterface:
		// A type whose ServeHTTP serves: the method is the handler, and
		// the handlers a middleware struct holds in its fields are what
		// it captured.
		if m := serveHTTPMethod(x.X.Type()); m != nil {
			return MapFuncValue{Kind: FuncValueFunc, Key: m.Origin().FullName(), With: e.fieldValues(x.X, depth)}
		}
		return unknownValue("is of a type the engine cannot name")
	case *ssa.Parameter:
		return MapFuncValue{Kind: FuncValueParam, Index: sigIndex(x.Parent(), x)}
	case *ssa.FreeVar:
		// The enclosing closure's captured variable, handed on to a
		// closure it makes.
		if i, ok := freeVarIndex(x); ok {
			return MapFuncValue{Kind: FuncValueCaptured, Index: i}
		}
	case *ssa.UnOp:
		if fv, ok := x.X.(*ssa.FreeVar); ok && x.Op == token.MUL {
			if i, ok := freeVarIndex(fv); ok {
				return MapFuncValue{Kind: FuncValueCaptured, Index: i}
			}
		}
	case *ssa.Extract:
		if call, ok := x.Tuple.(*ssa.Call); ok && x.Index == 0 {
			return e.callValue(call, depth)
		}
	case *ssa.Call:
		return e.callValue(x, depth)
	case *ssa.Phi:
		return e.sameValue(x.Edges, depth, "is chosen at run time among several")
	case *ssa.Const:
		if x.IsNil() {
			return unknownValue("is nil")
		}
	}
	return unknownValue("is a func value read from a variable, a field or a table")
}

// handlerValue strips what makes a func value a handler without changing
// what runs: conversions (http.HandlerFunc(f)) and a func value made into
// an http.Handler.
func handlerValue(v ssa.Value) ssa.Value {
	for {
		switch x := v.(type) {
		case *ssa.ChangeType:
			v = x.X
		case *ssa.Convert:
			v = x.X
		case *ssa.MakeInterface:
			if _, ok := x.X.Type().Underlying().(*types.Signature); !ok {
				return v
			}
			v = x.X
		default:
			return v
		}
	}
}

// capturedValues returns the func values a closure captures, by free
// variable, for those of func or handler type.
func (e *engine) capturedValues(mc *ssa.MakeClosure, depth int) []MapCapture {
	var out []MapCapture
	for i, b := range mc.Bindings {
		v, ok := bindingValue(b)
		if !ok {
			continue
		}
		if v == nil {
			out = append(out, MapCapture{Index: i, Value: unknownValue("is a variable assigned more than once")})
			continue
		}
		out = append(out, MapCapture{Index: i, Value: e.funcValue(v, depth+1)})
	}
	return out
}

// bindingValue returns the value a closure's binding holds, when it is of
// func or handler type (ok). A closure captures a variable by its
// address: the value is the one stored in it, or nil when the variable
// is stored to more than once (here or in a closure) or escapes, so the
// closure may call another. The enclosing closure's own captured
// variable, handed on, is itself.
func bindingValue(b ssa.Value) (v ssa.Value, ok bool) {
	ptr, isPtr := b.Type().Underlying().(*types.Pointer)
	switch x := b.(type) {
	case *ssa.Alloc:
		if !isPtr || !runsAsFunc(ptr.Elem()) {
			return nil, false
		}
		return storedValue(x), true
	case *ssa.FreeVar:
		if !isPtr || !runsAsFunc(ptr.Elem()) {
			return nil, false
		}
		return x, true
	}
	// A bound method's receiver, captured by value.
	return b, runsAsFunc(b.Type())
}

// storedValue returns the one value stored in a captured variable, or nil
// when it is stored to more than once or used other than by loads and
// the closures that capture it (which only load it).
func storedValue(alloc *ssa.Alloc) ssa.Value {
	var stored ssa.Value
	for _, r := range *alloc.Referrers() {
		switch x := r.(type) {
		case *ssa.Store:
			if x.Addr != alloc || stored != nil {
				return nil
			}
			stored = x.Val
		case *ssa.UnOp, *ssa.DebugRef:
		case *ssa.MakeClosure:
			for i, b := range x.Bindings {
				if b == alloc && !onlyLoaded(x.Fn.(*ssa.Function).FreeVars[i], 0) {
					return nil
				}
			}
		default:
			return nil
		}
	}
	return stored
}

// onlyLoaded reports whether a closure only loads its captured variable,
// itself or through the closures it hands it to.
func onlyLoaded(fv *ssa.FreeVar, depth int) bool {
	if depth > maxFuncValueDepth || fv.Referrers() == nil {
		return depth <= maxFuncValueDepth
	}
	for _, r := range *fv.Referrers() {
		switch x := r.(type) {
		case *ssa.UnOp, *ssa.DebugRef:
		case *ssa.MakeClosure:
			for i, b := range x.Bindings {
				if b == fv && !onlyLoaded(x.Fn.(*ssa.Function).FreeVars[i], depth+1) {
					return false
				}
			}
		default:
			return false
		}
	}
	return true
}

// freeVarIndex returns the index of a closure's free variable.
func freeVarIndex(fv *ssa.FreeVar) (int, bool) {
	for i, x := range fv.Parent().FreeVars {
		if x == fv {
			return i, true
		}
	}
	return 0, false
}

// callValue says what the func value a call returns is: the result of
// the module's function called, with the func values it is given; the
// map driver reads what that function returns (its Returns claim).
func (e *engine) callValue(call *ssa.Call, depth int) MapFuncValue {
	fn := call.Call.StaticCallee()
	if fn == nil {
		return unknownValue("is made by a call of a func value")
	}
	obj, ok := fn.Object().(*types.Func)
	if !ok {
		return unknownValue("is made by a closure")
	}
	if obj.Pkg() != e.pass.Pkg && !e.inModule(obj.Pkg()) {
		return unknownValue(fmt.Sprintf("is made by %s, outside the module, which the map does not follow", funcDisplay(fn)))
	}
	out := MapFuncValue{Kind: FuncValueCall, Key: MapKey(fn), Name: funcDisplay(fn)}
	for i, p := range paramsOf(fn.Signature) {
		if !runsAsFunc(p.Type()) {
			continue
		}
		if a := argOf(&call.Call, i); a != nil {
			out.With = append(out.With, MapCapture{Index: i, Value: e.funcValue(a, depth+1)})
		}
	}
	return out
}

// sameValue returns the func value every one of vs is, nil results left
// out (a constructor's error path); unknown, with why, when they differ.
func (e *engine) sameValue(vs []ssa.Value, depth int, why string) MapFuncValue {
	var found *MapFuncValue
	for _, v := range vs {
		if c, ok := v.(*ssa.Const); ok && c.IsNil() {
			continue
		}
		fv := e.funcValue(v, depth+1)
		if found != nil && !reflect.DeepEqual(*found, fv) {
			return unknownValue(why)
		}
		found = &fv
	}
	if found == nil {
		return unknownValue("is nil")
	}
	return *found
}

// mapReturns returns what fn returns as its first result, when that is a
// func value or a handler: the claim the map driver reads where a
// registration calls fn (an adapter, a handler's constructor).
func (e *engine) mapReturns(fn *ssa.Function) *MapFuncValue {
	res := fn.Signature.Results()
	if res.Len() == 0 || !runsAsFunc(res.At(0).Type()) || fn.Blocks == nil {
		return nil
	}
	var vs []ssa.Value
	for _, b := range fn.Blocks {
		if ret, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return); ok && len(ret.Results) > 0 {
			vs = append(vs, ret.Results[0])
		}
	}
	if len(vs) == 0 {
		return nil
	}
	fv := e.sameValue(vs, 0, "is chosen at run time among several")
	return &fv
}

// capturedCallee returns the free variable a call runs, when the call is
// of a func value the closure captured (next(w, r)) or serves through a
// handler it captured (next.ServeHTTP(w, r)); for a method, the field of
// its receiver the call runs (a middleware struct's l.next.ServeHTTP).
func capturedCallee(c *ssa.CallCommon) (int, bool) {
	if c.IsInvoke() && c.Method.Name() != "ServeHTTP" {
		return 0, false
	}
	switch x := c.Value.(type) {
	case *ssa.UnOp:
		// A captured variable is loaded from its address where it is
		// used, a field through a pointer receiver from the field's.
		if x.Op != token.MUL {
			return 0, false
		}
		switch y := x.X.(type) {
		case *ssa.FreeVar:
			return freeVarIndex(y)
		case *ssa.FieldAddr:
			if isReceiver(y.X) {
				return y.Field, true
			}
		}
	case *ssa.Field:
		if isReceiver(x.X) {
			return x.Field, true
		}
	}
	return 0, false
}

// isReceiver reports whether v is its method's receiver, or a copy of
// it (a value receiver whose field is used is copied to a local first)
// whose fields the method does not change.
func isReceiver(v ssa.Value) bool {
	if alloc, ok := v.(*ssa.Alloc); ok {
		stored, copied, known := structStores(alloc)
		if !known || len(stored) > 0 {
			return false
		}
		v = copied
	}
	p, ok := v.(*ssa.Parameter)
	if !ok {
		return false
	}
	fn := p.Parent()
	return fn.Signature.Recv() != nil && len(fn.Params) > 0 && fn.Params[0] == p
}

// fieldValues returns the func values of a struct's fields of func or
// handler type, by field index, as the function that makes the struct
// stores them: each field stored once, in a struct that goes nowhere but
// into the handler (a literal, mux.Handle("/", logging{next: h})).
func (e *engine) fieldValues(v ssa.Value, depth int) []MapCapture {
	t := v.Type()
	if p, ok := t.Underlying().(*types.Pointer); ok {
		t = p.Elem()
	}
	st, ok := t.Underlying().(*types.Struct)
	if !ok {
		return nil
	}
	var out []MapCapture
	stored, copied, known := structStores(v)
	for i := range st.NumFields() {
		if !runsAsFunc(st.Field(i).Type()) {
			continue
		}
		fv := unknownValue("is a field of a value the map cannot follow")
		switch s, ok := stored[i]; {
		case !known:
		case !ok && copied != nil:
			// Copied from another struct, whose field it is.
		case !ok:
			fv = unknownValue("is nil")
		case s == nil:
			fv = unknownValue("is a field assigned more than once")
		default:
			fv = e.funcValue(s, depth+1)
		}
		out = append(out, MapCapture{Index: i, Value: fv})
	}
	return out
}

// structStores returns the value stored in each field of the struct v
// is (an allocation, or a load of one), nil for a field stored more than
// once, and the struct it was copied from, if it was (stored whole: a
// value receiver copied to a local); known is false when the struct goes
// elsewhere than loads of it and into interfaces, where its fields may
// change, or is copied from more than one.
func structStores(v ssa.Value) (stored map[int]ssa.Value, copied ssa.Value, known bool) {
	if load, ok := v.(*ssa.UnOp); ok && load.Op == token.MUL {
		v = load.X
	}
	alloc, ok := v.(*ssa.Alloc)
	if !ok {
		return nil, nil, false
	}
	stored = map[int]ssa.Value{}
	for _, r := range *alloc.Referrers() {
		switch x := r.(type) {
		case *ssa.FieldAddr:
			for _, fr := range *x.Referrers() {
				switch y := fr.(type) {
				case *ssa.Store:
					if y.Addr != x {
						return nil, nil, false
					}
					if _, twice := stored[x.Field]; twice {
						stored[x.Field] = nil
					} else {
						stored[x.Field] = y.Val
					}
				case *ssa.UnOp, *ssa.DebugRef:
				default:
					return nil, nil, false
				}
			}
		case *ssa.Store:
			if x.Addr != alloc || copied != nil {
				return nil, nil, false
			}
			copied = x.Val
		case *ssa.UnOp, *ssa.MakeInterface, *ssa.DebugRef:
		default:
			return nil, nil, false
		}
	}
	return stored, copied, true
}

// runsAsFunc reports whether a value of type t is run as a function: a
// func value, or a handler (an interface with a ServeHTTP method).
func runsAsFunc(t types.Type) bool {
	switch u := t.Underlying().(type) {
	case *types.Signature:
		return true
	case *types.Interface:
		for i := range u.NumMethods() {
			if u.Method(i).Name() == "ServeHTTP" {
				return true
			}
		}
	}
	return false
}

// serveHTTPMethod returns the ServeHTTP method of a concrete type, if it
// has one.
func serveHTTPMethod(t types.Type) *types.Func {
	if types.IsInterface(t) {
		return nil
	}
	obj, _, _ := types.LookupFieldOrMethod(t, true, nil, "ServeHTTP")
	f, _ := obj.(*types.Func)
	return f
}

func unknownValue(why string) MapFuncValue {
	return MapFuncValue{Kind: FuncValueUnknown, Why: why}
}

// plainFunc reports whether v is a function the code names, with no func
// value captured: the entry's function says all there is.
func (v MapFuncValue) plainFunc() bool {
	return v.Kind == FuncValueFunc && len(v.With) == 0
}
