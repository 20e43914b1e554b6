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
