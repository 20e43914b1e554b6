package summary

import (
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/resilvet/resilvet/internal/analysisutil"
	"github.com/resilvet/resilvet/internal/knowledge"
)

// Interfaces per call site. A call through an interface is judged by the
// implementation that flows into it when the engine can see it: a
// *http.Client stored behind a Doer field is a client's Do, with that
// client's Timeout; a decorator that adds a timeout, stored behind the
// same field, is the decorator's Do. Only when the dynamic type is not
// known does a call fall back to the union of the package's
// implementations (interfaceClaims in sites.go) or the interface method's
// fact. Read by the outbound-call module (sites.go) and by summaryOf.

// dynTarget is one implementation an interface call may reach: the
// concrete method and the value that is its receiver.
type dynTarget struct {
	method *types.Func
	recv   ssa.Value
}

// dynamicTargets returns the implementations an interface call reaches,
// when every value flowing into its receiver is known (made into the
// interface from a concrete value in this package); ok is false
// otherwise.
func (e *engine) dynamicTargets(c *ssa.CallCommon) ([]dynTarget, bool) {
	if !c.IsInvoke() {
		return nil, false
	}
	var vals []ssa.Value
	if !e.concreteValues(c.Value, &vals, 0) || len(vals) == 0 {
		return nil, false
	}
	var out []dynTarget
	for _, v := range vals {
		obj, _, _ := types.LookupFieldOrMethod(v.Type(), true, c.Method.Pkg(), c.Method.Name())
		m, ok := obj.(*types.Func)
		if !ok {
			return nil, false
		}
		out = append(out, dynTarget{method: m.Origin(), recv: v})
	}
	return out, true
}

// concreteValues collects the concrete values made into the interface v:
// through phis, conversions between interfaces, and loads of fields and
// package variables this package alone writes. It reports false when
// some value cannot be followed.
func (e *engine) concreteValues(v ssa.Value, out *[]ssa.Value, depth int) bool {
	if depth > 6 || len(*out) > 4 {
		return false
	}
	switch v := v.(type) {
	case *ssa.MakeInterface:
		*out = append(*out, v.X)
		return true
	case *ssa.ChangeInterface:
		return e.concreteValues(v.X, out, depth+1)
	case *ssa.Phi:
		for _, edge := range v.Edges {
			if !e.concreteValues(edge, out, depth+1) {
				return false
			}
		}
		return true
	case *ssa.UnOp:
		fv := loadedVar(v)
		if fv == nil || !e.soleWriter(fv) {
			return false
		}
		stored := e.stores[fv]
		if len(stored) == 0 {
			return false
		}
		for _, s := range stored {
			if !e.concreteValues(s, out, depth+1) {
				return false
			}
		}
		return true
	}
	return false
}

// soleWriter reports whether the package is the only writer of a field or
// package variable: its stores are every value it holds.
func (e *engine) soleWriter(v *types.Var) bool {
	if v.Pkg() != e.pass.Pkg {
		return false
	}
	return !v.Exported() || e.pass.Pkg.Name() == "main"
}

// summaryOfFunc returns the summary of a function: a local one or a fact.
func (e *engine) summaryOfFunc(f *types.Func) *FuncSummary {
	if knowledge.RetainsContext(f.Origin().FullName()) {
		// It keeps its context for the life of what it builds, reached
		// through an interface or a known dynamic type as directly.
		return nil
	}
	if info := e.byObj[f]; info != nil {
		return info.summary()
	}
	return e.imported(f)
}

// funcTargets returns the functions a func value may be: a closure or a
// named function, through phis and loads of fields and package variables
// this package alone writes. It reports false when some value cannot be
// followed.
func (e *engine) funcTargets(v ssa.Value, depth int) ([]*ssa.Function, bool) {
	if depth > 6 {
		return nil, false
	}
	if f := funcValue(v); f != nil {
		return []*ssa.Function{f}, true
	}
	var vals []ssa.Value
	switch v := v.(type) {
	case *ssa.Phi:
		vals = v.Edges
	case *ssa.UnOp:
		fv := loadedVar(v)
		if fv == nil || !e.soleWriter(fv) {
			return nil, false
		}
		vals = e.stores[fv]
	default:
		return nil, false
	}
	if len(vals) == 0 {
		return nil, false
	}
	var out []*ssa.Function
	for _, x := range vals {
		fs, ok := e.funcTargets(x, depth+1)
		if !ok {
			return nil, false
		}
		out = append(out, fs...)
	}
	return out, true
}

// resultsOfFunc returns the result claims of a function: local, or from
// its fact.
func (e *engine) resultsOfFunc(fn *ssa.Function) []ValueClaim {
	if info := e.local[fn]; info != nil {
		return info.results
	}
	if obj, ok := fn.Object().(*types.Func); ok {
		if s := e.imported(obj.Origin()); s != nil {
			return s.Results
		}
	}
	return nil
}

// visibleImpls gives a method of an interface declared in another
// package, which carries no fact of its own, the union of the reach claims
// of the implementations this package can see: its own types and those
// of the packages it imports directly. A call through it whose dynamic
// type is not known is judged by them.
func (e *engine) visibleImpls(m *types.Func) *FuncSummary {
	if m == nil || e.std {
		return nil
	}
	if s, ok := e.implSums[m]; ok {
		return s
	}
	e.implSums[m] = nil // cycle guard
	var sum FuncSummary
	e.eachVisibleImpl(m, func(impl *types.Func) {
		s := e.summaryOfFunc(impl.Origin())
		if s == nil {
			return
		}
		for _, r := range s.Reaches {
			r.Chain = capChain(append([]Link{{Func: analysisutil.FuncName(impl), At: analysisutil.ShortPos(e.pass.Fset, impl.Pos())}}, r.Chain...))
			sum.Reaches = addReach(sum.Reaches, r)
		}
		for _, k := range s.CtxIO {
			sum.CtxIO = addInt(sum.CtxIO, k)
		}
		for _, k := range s.CtxRemote {
			sum.CtxRemote = addInt(sum.CtxRemote, k)
		}
	})
	if len(sum.Reaches) == 0 && len(sum.CtxIO) == 0 {
		return nil
	}
	e.implSums[m] = &sum
	return &sum
}

// implsIgnoreCtx reports whether an interface method has implementations
// this package can see and every one ignores its context (a store whose
// methods take "_ context.Context" and use one of their own).
func (e *engine) implsIgnoreCtx(m *types.Func) bool {
	if e.std {
		return false
	}
	n, all := 0, true
	e.eachVisibleImpl(m, func(impl *types.Func) {
		n++
		impl = impl.Origin()
		if info := e.byObj[impl]; info != nil {
			all = all && info.ignoresCtx
			return
		}
		s := e.imported(impl)
		all = all && s != nil && s.IgnoresCtx
	})
	return n > 0 && all
}

// eachVisibleImpl calls f with the implementations of interface method m
// declared in this package and the packages it imports directly.
func (e *engine) eachVisibleImpl(m *types.Func, f func(impl *types.Func)) {
	recv := m.Type().(*types.Signature).Recv()
	if recv == nil {
		return
	}
	iface, ok := recv.Type().Underlying().(*types.Interface)
	if !ok || iface.NumMethods() == 0 {
		return
	}
	pkgs := append([]*types.Package{e.pass.Pkg}, e.pass.Pkg.Imports()...)
	for _, p := range pkgs {
		scope := p.Scope()
		for _, name := range scope.Names() {
			tn, ok := scope.Lookup(name).(*types.TypeName)
			if !ok || tn.IsAlias() || types.IsInterface(tn.Type()) {
				continue
			}
			named, ok := tn.Type().(*types.Named)
			if !ok || named.TypeParams().Len() > 0 {
				continue
			}
			var t types.Type = named
			if !types.Implements(t, iface) {
				if t = types.NewPointer(named); !types.Implements(t, iface) {
					continue
				}
			}
			obj, _, _ := types.LookupFieldOrMethod(t, true, m.Pkg(), m.Name())
			if impl, ok := obj.(*types.Func); ok {
				f(impl)
			}
		}
	}
}
