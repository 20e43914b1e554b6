package summary

import (
	"go/constant"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// The constants claim module: integers and strings as a small constant
// domain. A value is a constant when it is a literal or a named constant
// (SSA folds both, across packages), or a load of a struct field or
// package variable that holds the same constant on every store, the
// package being its only writer: set in a constructor (c.maxRetries = 3).
// No fact carries a field's constant to other packages: a field they can
// read is exported, so they can write it too; what crosses packages is
// the claim computed from the constant (a method's FuncCalls count). Read
// by the driver for loops' trip counts (for i := 0; i < c.maxRetries;
// i++), and by retrystack and hedgeidem to come (attempt counts, HTTP
// methods, header names).

// constOf returns the constant v holds, if it is one.
func (e *engine) constOf(v ssa.Value) (constant.Value, bool) {
	switch v := v.(type) {
	case *ssa.Const:
		if v.Value == nil {
			return nil, false
		}
		return v.Value, true
	case *ssa.Convert:
		return e.constOf(v.X)
	case *ssa.ChangeType:
		return e.constOf(v.X)
	case *ssa.UnOp:
		if fv := loadedVar(v); fv != nil {
			return e.varConst(fv)
		}
	}
	return nil, false
}

// varConst returns the constant a field or package variable holds on
// every store, when the package is its only writer.
func (e *engine) varConst(v *types.Var) (constant.Value, bool) {
	if !e.soleWriter(v) {
		return nil, false
	}
	if r, ok := e.constMemo[v]; ok {
		return r, r != nil
	}
	e.constMemo[v] = nil // cycle guard
	var out constant.Value
	for _, stored := range e.stores[v] {
		c, ok := e.constOf(stored)
		if !ok || out != nil && !constant.Compare(out, token.EQL, c) {
			return nil, false
		}
		out = c
	}
	e.constMemo[v] = out
	return out, out != nil
}

// listedConsts returns the constants of a package-level list that v is
// read from (for _, stmt := range schema { db.Exec(stmt) }): a slice
// variable this package alone writes, and only with literals whose
// elements are all constants. Nil when any of that is not so.
func (e *engine) listedConsts(v ssa.Value) []constant.Value {
	ld, ok := v.(*ssa.UnOp)
	if !ok || ld.Op != token.MUL {
		return nil
	}
	elem, ok := ld.X.(*ssa.IndexAddr)
	if !ok {
		return nil
	}
	list := loadedVar(elem.X)
	if list == nil || list.Parent() != list.Pkg().Scope() || !e.soleWriter(list) {
		return nil
	}
	var out []constant.Value
	for _, stored := range e.stores[list] {
		sl, ok := stored.(*ssa.Slice)
		if !ok {
			return nil
		}
		lit, ok := sl.X.(*ssa.Alloc)
		if !ok || lit.Referrers() == nil {
			return nil
		}
		for _, r := range *lit.Referrers() {
			ia, ok := r.(*ssa.IndexAddr)
			if !ok {
				continue // the slice operation itself
			}
			for _, rr := range *ia.Referrers() {
				st, ok := rr.(*ssa.Store)
				if !ok || st.Addr != ia {
					return nil
				}
				k, ok := e.constOf(st.Val)
				if !ok {
					return nil
				}
				out = append(out, k)
			}
		}
	}
	return out
}

// intArg returns a call's integer argument i when it is a constant.
func (e *engine) intArg(c *ssa.CallCommon, i int) (int64, bool) {
	v := argOf(c, i)
	if v == nil {
		return 0, false
	}
	return e.intOf(v)
}

// intOf returns v's value when it is an integer constant.
func (e *engine) intOf(v ssa.Value) (int64, bool) {
	k, ok := e.constOf(v)
	if !ok {
		return 0, false
	}
	if k.Kind() != constant.Int {
		return 0, false
	}
	return constant.Int64Val(k)
}
