package summary

import (
	"go/types"

	"golang.org/x/tools/go/ssa"
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
	if info := e.byObj[f]; info != nil {
		return info.summary()
	}
	return e.imported(f)
}
