package summary

import (
	"go/constant"
	"go/types"
	"sort"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/resilvet/resilvet/internal/knowledge"
)

// The resilience map's entry points, found where the package registers
// or starts them (map mode only): HTTP handlers registered on a mux or
// router (the knowledge table's routes), gRPC services registered with
// their generated Register…Server function, func main, goroutines main
// and the start-up functions start, and periodic jobs (a function that
// makes a ticker, or one a scheduler runs).

// Entry kinds of a MapEntry, as in the map.
const (
	EntryHTTP      = "http"
	EntryGRPC      = "grpc"
	EntryMain      = "main"
	EntryGoroutine = "goroutine"
	EntryPeriodic  = "periodic"
)

// MapEntry is an entry point the package registers or starts.
type MapEntry struct {
	Kind string
	// Name is what the entry answers to: "POST /checkout", "Orders/Create",
	// "main", or the started function's source form.
	Name string
	Func string // the entry's function, by map key; "" when the engine cannot name it
	At   string // where it is registered or started
	// Handler is the func value registered, when it is not a function
	// the registration names: an adapter's result (withLogging(h.List)),
	// a closure made with the handler it calls, or a value the engine
	// cannot name, with why (mapfuncvals.go). The map driver follows it
	// across the module's packages.
	Handler *MapFuncValue
	// Request is the index of the parameter that carries the incoming
	// request's deadline (the *http.Request, the gRPC method's context),
	// or -2 for none.
	Request int
}

// MapEntries returns the entry points the package registers or starts
// (map mode only), in source order.
func (r *Result) MapEntries() []*MapEntry { r.ready(); return r.mapEntries }

// noRequest is MapEntry.Request for entries no request starts.
const noRequest = -2

// mapEntries records the package's entry points.
func (e *engine) mapEntries() {
	var out []*MapEntry
	periodic := map[string]bool{}
	for _, fn := range e.funcs {
		info := e.local[fn]
		if info == nil {
			continue
		}
		if fn.Name() == "main" && fn.Parent() == nil && fn.Signature.Recv() == nil && e.pass.Pkg.Name() == "main" {
			out = append(out, &MapEntry{Kind: EntryMain, Name: "main", Func: MapKey(fn), At: e.fullPos(fn.Pos()), Request: noRequest})
		}
		startUp := fn.Parent() == nil && knowledge.IsStartupName(fn.Name())
		for _, instr := range info.ix.calls {
			c := instr.Common()
			name := calleeName(c)
			if knowledge.StartsPeriodic(name) && !periodic[MapKey(fn)] {
				periodic[MapKey(fn)] = true
				out = append(out, &MapEntry{Kind: EntryPeriodic, Name: funcDisplay(fn), Func: MapKey(fn), At: e.fullPos(c.Pos()), Request: noRequest})
			}
			if i, ok := knowledge.ScheduledFunc(name); ok {
				en := &MapEntry{Kind: EntryPeriodic, At: e.fullPos(c.Pos()), Request: noRequest}
				if target := handlerTarget(argOf(c, i)); target != nil {
					periodic[MapKey(target)] = true
					en.Name, en.Func = funcDisplay(target), MapKey(target)
				}
				e.setHandler(en, fn, argOf(c, i))
				if en.Handler != nil {
					// The map names it by the job an adapter runs.
					en.Name = "job scheduled by " + calleeDisplay(c)
				}
				out = append(out, en)
			}
			if r, ok := knowledge.RouteOf(name); ok {
				out = append(out, e.routeEntry(fn, c, r))
				continue
			}
			if isServiceRegistration(c) {
				out = append(out, e.serviceEntries(c)...)
				continue
			}
			if g, ok := instr.(*ssa.Go); ok && startUp {
				// The package's own work: a library's goroutine
				// (go srv.ListenAndServe()) serves entries of its own.
				if target := g.Call.StaticCallee(); target != nil && e.local[target] != nil {
					out = append(out, &MapEntry{Kind: EntryGoroutine, Name: funcDisplay(target), Func: MapKey(target), At: e.fullPos(g.Pos()), Request: noRequest})
				}
			}
		}
	}
	// A goroutine that runs a periodic job is the job.
	out = dropGoroutinesOf(out, periodic)
	sort.SliceStable(out, func(i, j int) bool { return out[i].At < out[j].At })
	e.res.mapEntries = out
}

func dropGoroutinesOf(entries []*MapEntry, periodic map[string]bool) []*MapEntry {
	var out []*MapEntry
	for _, en := range entries {
		if en.Kind == EntryGoroutine && periodic[en.Func] {
			continue
		}
		out = append(out, en)
	}
	return out
}

// routeEntry returns the entry of a handler registration. A handler the
// engine cannot name is an entry too, with no function and its Handler
// saying why: the map lists it as not followed rather than leave it out.
func (e *engine) routeEntry(fn *ssa.Function, c *ssa.CallCommon, r knowledge.Route) *MapEntry {
	v := argOf(c, r.Handler)
	target := handlerTarget(v)
	key, display := "", ""
	switch {
	case target != nil:
		key, display = MapKey(target), funcDisplay(target)
	default:
		if m := serveHTTPOf(v); m != nil {
			key, display = m.FullName(), typeShort(m.Type().(*types.Signature).Recv().Type())+"."+m.Name()
		}
	}
	en := &MapEntry{Kind: EntryHTTP, Func: key, At: e.fullPos(c.Pos()), Request: 1}
	e.setHandler(en, fn, v)
	// A pattern from configuration: the entry is named by its handler,
	// when the registration names it (not an adapter's closure).
	pattern := "(pattern not a constant)"
	if en.Handler == nil && display != "" {
		pattern = display
	}
	if k, ok := argOf(c, r.Pattern).(*ssa.Const); ok && k.Value != nil && k.Value.Kind() == constant.String {
		pattern = constant.StringVal(k.Value)
	}
	if r.Method != "" {
		pattern = r.Method + " " + pattern
	}
	en.Name = pattern
	return en
}

// setHandler records the func value an entry registers, unless it is the
// plain function the entry names. A parameter of the registering
// function is a value its callers decide, which the map does not follow
// (a registration helper's handler).
func (e *engine) setHandler(en *MapEntry, fn *ssa.Function, v ssa.Value) {
	if v == nil {
		return
	}
	fv := e.funcValue(v, 0)
	switch {
	case fv.plainFunc() && fv.Key == en.Func:
		return
	case fv.Kind == FuncValueParam:
		fv = unknownValue("is a parameter of " + funcDisplay(fn) + ": the map does not follow the registration back to its callers")
	case fv.Kind == FuncValueCaptured:
		fv = unknownValue("is a value the registering closure captured")
	}
	en.Handler = &fv
}

// handlerTarget returns the function a func value is: a function, a
// closure, a method value (through its wrapper, which MapKey names by
// the method), any of those converted (http.HandlerFunc(f)), or the one
// such function a constructor of the package returns
// (mux.Handle("/health", newHealthHandler(…))).
func handlerTarget(v ssa.Value) *ssa.Function {
	return handlerTargetIn(v, 0)
}

func handlerTargetIn(v ssa.Value, depth int) *ssa.Function {
	for range 4 {
		switch x := v.(type) {
		case *ssa.Function:
			return x
		case *ssa.MakeClosure:
			fn, _ := x.Fn.(*ssa.Function)
			return fn
		case *ssa.ChangeType:
			v = x.X
		case *ssa.Convert:
			v = x.X
		case *ssa.MakeInterface:
			v = x.X
		case *ssa.Call:
			if depth > 2 {
				return nil
			}
			return sameOf(returnedBy(x), func(r ssa.Value) *ssa.Function { return handlerTargetIn(r, depth+1) })
		default:
			return nil
		}
	}
	return nil
}

// serveHTTPOf returns the ServeHTTP method of the value registered as a
// handler, by its dynamic type (implementationType); nil for an
// http.HandlerFunc, whose method names no function of the service.
func serveHTTPOf(v ssa.Value) *types.Func {
	t := implementationType(v, 0)
	if t == nil {
		return nil
	}
	obj, _, _ := types.LookupFieldOrMethod(t, true, nil, "ServeHTTP")
	f, _ := obj.(*types.Func)
	if f == nil || f.FullName() == "(net/http.HandlerFunc).ServeHTTP" {
		return nil
	}
	return f
}

// implementationType returns the concrete type of the value made into
// an interface: where it is made, or by the constructor of the package
// that returns it (pb.RegisterKVServer(s, NewKVServer(…))); nil when it
// cannot be told.
func implementationType(v ssa.Value, depth int) types.Type {
	switch x := v.(type) {
	case *ssa.MakeInterface:
		return x.X.Type()
	case *ssa.Call:
		if depth > 2 {
			return nil
		}
		var found types.Type
		for _, r := range returnedBy(x) {
			if c, ok := r.(*ssa.Const); ok && c.IsNil() {
				continue
			}
			t := implementationType(r, depth+1)
			if t == nil || found != nil && !types.Identical(t, found) {
				return nil
			}
			found = t
		}
		return found
	}
	return nil
}

// returnedBy returns the first results a call's callee returns, when the
// callee is a function of the package (its body is known).
func returnedBy(call *ssa.Call) []ssa.Value {
	fn := call.Call.StaticCallee()
	if fn == nil || fn.Blocks == nil {
		return nil
	}
	var out []ssa.Value
	for _, b := range fn.Blocks {
		if ret, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return); ok && len(ret.Results) > 0 {
			out = append(out, ret.Results[0])
		}
	}
	return out
}

// sameOf returns what f finds in every value, when it finds the same
// thing in each (a nil result excepted: a constructor's error path);
// else the zero T.
func sameOf[T comparable](vs []ssa.Value, f func(ssa.Value) T) T {
	var found, zero T
	for _, v := range vs {
		if c, ok := v.(*ssa.Const); ok && c.IsNil() {
			continue
		}
		t := f(v)
		if t == zero || found != zero && t != found {
			return zero
		}
		found = t
	}
	return found
}

// isServiceRegistration reports whether c calls a generated gRPC
// Register…Server function: a registrar and the service's
// implementation, an interface.
func isServiceRegistration(c *ssa.CallCommon) bool {
	f := calleeFunc(c)
	if f == nil || !strings.HasPrefix(f.Name(), "Register") || !strings.HasSuffix(f.Name(), "Server") {
		return false
	}
	sig := f.Type().(*types.Signature)
	if sig.Params().Len() != 2 {
		return false
	}
	reg := types.TypeString(sig.Params().At(0).Type(), nil)
	if reg != "google.golang.org/grpc.ServiceRegistrar" && reg != "*google.golang.org/grpc.Server" {
		return false
	}
	_, ok := sig.Params().At(1).Type().Underlying().(*types.Interface)
	return ok
}

// serviceEntries returns an entry per method of a registered gRPC
// service, at the implementation's method.
func (e *engine) serviceEntries(c *ssa.CallCommon) []*MapEntry {
	f := calleeFunc(c)
	iface := f.Type().(*types.Signature).Params().At(1).Type()
	implType := implementationType(argOf(c, 1), 0)
	service := strings.TrimSuffix(types.TypeString(iface, func(*types.Package) string { return "" }), "Server")
	var out []*MapEntry
	ms := types.NewMethodSet(iface)
	for i := range ms.Len() {
		m := ms.At(i).Obj()
		if !m.Exported() {
			continue
		}
		if implType == nil {
			// Each method is still an entry point of the service.
			why := unknownValue("is a service implementation the engine cannot name")
			out = append(out, &MapEntry{Kind: EntryGRPC, Name: service + "/" + m.Name(), At: e.fullPos(c.Pos()), Request: 0, Handler: &why})
			continue
		}
		obj, _, _ := types.LookupFieldOrMethod(implType, true, m.Pkg(), m.Name())
		impl, ok := obj.(*types.Func)
		if !ok || impl.Pkg() == nil || strings.HasPrefix(impl.Name(), "mustEmbed") {
			continue
		}
		if isUnimplemented(impl) {
			continue
		}
		out = append(out, &MapEntry{Kind: EntryGRPC, Name: service + "/" + m.Name(), Func: impl.Origin().FullName(), At: e.fullPos(c.Pos()), Request: 0})
	}
	return out
}

// isUnimplemented reports whether a method is the generated
// Unimplemented…Server's, which answers Unimplemented and reaches
// nothing.
func isUnimplemented(f *types.Func) bool {
	recv := f.Type().(*types.Signature).Recv()
	return recv != nil && strings.Contains(types.TypeString(recv.Type(), nil), ".Unimplemented")
}
