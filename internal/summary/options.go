package summary

import (
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// The option claim module: functional options. A function whose result
// is a func(*T) that stores one of the function's parameters in an
// integer field of T (WithRetries(n) returning func(c *Client) { c.retries = n }) sets
// that field (Sets), as a fact. Read by the retry module: a client
// constructed with WithRetries(5), in any package, retries 5 times,
// whatever the field holds for other constructions (fieldCount).

// optionSets returns the fields an option function's result sets: this
// package's, computed once, or the function's fact.
func (e *engine) optionSets(f *types.Func) []FieldSet {
	f = f.Origin()
	if info := e.byObj[f]; info != nil {
		if !info.setsDone {
			info.setsDone = true
			info.sets = e.computeSets(info.fn)
		}
		return info.sets
	}
	if s := e.imported(f); s != nil {
		return s.Sets
	}
	return nil
}

// computeSets reads an option function: each return hands back a closure
// (of this function) whose body stores a captured parameter, possibly
// converted, in a field of what its own parameter points to.
func (e *engine) computeSets(fn *ssa.Function) []FieldSet {
	if optionTarget(fn.Signature) == nil {
		return nil
	}
	var out []FieldSet
	for _, b := range fn.Blocks {
		ret, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return)
		if !ok || len(ret.Results) != 1 {
			continue
		}
		mc := closureOf(stripIface(ret.Results[0]))
		if mc == nil {
			return nil
		}
		sets := closureSets(fn, mc)
		if out != nil && !sameSets(out, sets) {
			return nil // different options on different paths
		}
		out = sets
	}
	return out
}

// closureSets lists the stores of the closure mc into integer fields of
// its first parameter whose value is one of fn's parameters.
func closureSets(fn *ssa.Function, mc *ssa.MakeClosure) []FieldSet {
	cl := mc.Fn.(*ssa.Function)
	if len(cl.Params) != 1 {
		return nil
	}
	var out []FieldSet
	for _, b := range cl.Blocks {
		for _, instr := range b.Instrs {
			st, ok := instr.(*ssa.Store)
			if !ok {
				continue
			}
			fa, ok := st.Addr.(*ssa.FieldAddr)
			if !ok || fa.X != cl.Params[0] || !isInteger(fa.Type().(*types.Pointer).Elem()) {
				continue // only counts are read
			}
			v := st.Val
			for {
				if cv, ok := v.(*ssa.Convert); ok {
					v = cv.X
					continue
				}
				break
			}
			if u, ok := v.(*ssa.UnOp); ok && u.Op == token.MUL {
				v = u.X // a boxed capture
			}
			fv, ok := v.(*ssa.FreeVar)
			if !ok {
				continue
			}
			for i, f := range cl.FreeVars {
				if f != fv {
					continue
				}
				if p := boundParam(fn, mc.Bindings[i]); p != nil {
					out = append(out, FieldSet{Field: fa.Field, Param: sigIndex(fn, p)})
				}
			}
		}
	}
	return out
}

func sameSets(a, b []FieldSet) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// optionTarget returns T when sig's single result is a func(*T) with no
// results and T a struct, else nil.
func optionTarget(sig *types.Signature) types.Type {
	if sig.Results().Len() != 1 {
		return nil
	}
	opt, ok := sig.Results().At(0).Type().Underlying().(*types.Signature)
	if !ok || opt.Params().Len() != 1 || opt.Results().Len() != 0 {
		return nil
	}
	ptr, ok := opt.Params().At(0).Type().Underlying().(*types.Pointer)
	if !ok {
		return nil
	}
	if _, ok := ptr.Elem().Underlying().(*types.Struct); !ok {
		return nil
	}
	return ptr.Elem()
}

// fieldCount returns the integer field of the struct v points to, where
// v's construction is in sight: a constructor given options that set the
// field to a constant (the last one wins), or a composite literal setting
// it to one. False when nothing in sight sets it.
func (e *engine) fieldCount(v ssa.Value, field int) (int64, bool) {
	st, ok := structOf(v.Type())
	if !ok || field >= st.NumFields() {
		return 0, false
	}
	ptr, ok := v.Type().Underlying().(*types.Pointer)
	if !ok {
		return 0, false
	}
	switch x := e.literalOf(stripIface(v)).(type) {
	case *ssa.Alloc:
		for _, s := range fieldStores(x) {
			if s.field == st.Field(field).Name() {
				return e.intOf(s.val)
			}
		}
	case *ssa.Call:
		var n int64
		found := false
		for _, a := range x.Call.Args {
			opts, ok := sliceElems(a, map[ssa.Value]bool{})
			if !ok {
				opts = []ssa.Value{a}
			}
			for _, o := range opts {
				oc, ok := stripIface(o).(*ssa.Call)
				if !ok {
					continue
				}
				f := calleeFunc(oc.Common())
				if f == nil {
					continue
				}
				sig, _ := f.Type().(*types.Signature)
				if t := optionTarget(sig); t == nil || !types.Identical(t, ptr.Elem()) {
					continue
				}
				for _, s := range e.optionSets(f) {
					if s.Field != field {
						continue
					}
					k, ok := e.intArg(oc.Common(), s.Param)
					if !ok {
						return 0, false
					}
					n, found = k, true
				}
			}
		}
		return n, found
	}
	return 0, false
}

func isInteger(t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Info()&types.IsInteger != 0
}
