package summary

import (
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/ssa"
	"golang.org/x/tools/go/types/typeutil"

	"github.com/resilvet/resilvet/internal/analysisutil"
	"github.com/resilvet/resilvet/internal/knowledge"
)

// Clients generated with per-method call options (Google Cloud's, through
// gax-go: knowledge.CallOptionRetries) retry inside a method when the
// method's default options turn the retries on. gax.Invoke then tries
// again, with backoff, until the call's deadline (the options' own
// timeout where the context has none), so the layer has no count. The
// defaults are a literal in the client's package keyed by method name:
// that package's run reads them and puts the layer on the method's claim
// (Retries, with the option's position), and callers in other packages
// read it like any callee's chain. A call passing the retry option turns
// the layer on, or off when the function it is given returns nil.

// callOptionMethod returns the description of a generated client's method
// taking call options, and the struct type of the client's per-method
// options; ok is false for any other function.
func callOptionMethod(obj *types.Func) (knowledge.CallOptionRetries, *types.Named, bool) {
	var none knowledge.CallOptionRetries
	if obj == nil || obj.Pkg() == nil {
		return none, nil, false
	}
	cr, ok := knowledge.CallOptionRetriesOf(obj.Pkg().Path())
	if !ok {
		return none, nil, false
	}
	sig, ok := obj.Type().(*types.Signature)
	if !ok || sig.Recv() == nil || !sig.Variadic() || sig.Params().Len() < 2 || sig.Results().Len() == 0 {
		return none, nil, false
	}
	params, results := sig.Params(), sig.Results()
	last, ok := params.At(params.Len() - 1).Type().(*types.Slice)
	if !ok || typeFullName(last.Elem()) != cr.Option || !analysisutil.IsContext(params.At(0).Type()) {
		return none, nil, false
	}
	if !types.Identical(results.At(results.Len()-1).Type(), types.Universe.Lookup("error").Type()) {
		return none, nil, false // an iterator: its Next calls
	}
	recv, ok := types.Unalias(sig.Recv().Type()).(*types.Pointer)
	if !ok {
		return none, nil, false
	}
	st, ok := recv.Elem().Underlying().(*types.Struct)
	if !ok {
		return none, nil, false
	}
	for i := range st.NumFields() {
		f := st.Field(i)
		if f.Name() != cr.OptionsField {
			continue
		}
		p, ok := f.Type().(*types.Pointer)
		if !ok {
			return none, nil, false
		}
		opts, ok := types.Unalias(p.Elem()).(*types.Named)
		if !ok {
			return none, nil, false
		}
		if ost, ok := opts.Underlying().(*types.Struct); !ok || !hasField(ost, obj.Name()) {
			return none, nil, false
		}
		return cr, opts, true
	}
	return none, nil, false
}

// callOptionLayer returns the layer a generated client's method of this
// package is by its default options, and whether the function is such a
// method at all (its calls are then outbound work).
func (e *engine) callOptionLayer(info *fnInfo) (chainLink, bool, bool) {
	obj, _ := info.fn.Object().(*types.Func)
	cr, opts, ok := callOptionMethod(obj)
	if !ok || opts.Obj().Pkg() != e.pass.Pkg {
		return chainLink{}, false, false
	}
	at, on := e.callOptionDefaults(cr, opts)[obj.Name()]
	if !on {
		return chainLink{}, false, true
	}
	return chainLink{RetryLink: RetryLink{
		What:     funcDisplay(info.fn),
		Func:     funcDisplay(info.fn),
		At:       analysisutil.ShortPos(e.pass.Fset, at),
		Attempts: int(timesUnbounded),
		Client:   true,
	}, pos: at}, true, true
}

// callOptionDefaults returns, for the options struct opts, the methods
// whose default options turn retries on, with the retry option's
// position: read from the functions returning opts's defaults, the
// transport's that are not REST first.
func (e *engine) callOptionDefaults(cr knowledge.CallOptionRetries, opts *types.Named) map[string]token.Pos {
	if m, ok := e.optionDefaults[opts.Obj()]; ok {
		return m
	}
	var main, rest map[string]token.Pos
	for _, f := range e.pass.Files {
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Recv != nil || fd.Body == nil || !strings.HasPrefix(fd.Name.Name, cr.DefaultsPrefix) {
				continue
			}
			obj, ok := e.pass.TypesInfo.Defs[fd.Name].(*types.Func)
			if !ok {
				continue
			}
			res := obj.Type().(*types.Signature).Results()
			if res.Len() != 1 {
				continue
			}
			if p, ok := res.At(0).Type().(*types.Pointer); !ok || types.Unalias(p.Elem()) != types.Type(opts) {
				continue
			}
			m := e.retryingKeys(cr, fd.Body)
			if strings.Contains(fd.Name.Name, cr.REST) {
				rest = m
			} else {
				main = m
			}
		}
	}
	if main == nil {
		main = rest
	}
	if e.optionDefaults == nil {
		e.optionDefaults = map[*types.TypeName]map[string]token.Pos{}
	}
	e.optionDefaults[opts.Obj()] = main
	return main
}

// retryingKeys returns the keys of the composite literals in body whose
// value holds a call of the retry option not given a function that
// returns nil.
func (e *engine) retryingKeys(cr knowledge.CallOptionRetries, body *ast.BlockStmt) map[string]token.Pos {
	out := map[string]token.Pos{}
	ast.Inspect(body, func(n ast.Node) bool {
		kv, ok := n.(*ast.KeyValueExpr)
		if !ok {
			return true
		}
		key, ok := kv.Key.(*ast.Ident)
		if !ok {
			return true
		}
		ast.Inspect(kv.Value, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok || len(call.Args) != 1 || calleeOf(e.pass.TypesInfo, call) != cr.Retry {
				return true
			}
			if _, seen := out[key.Name]; !seen && !returnsOnlyNil(call.Args[0]) {
				out[key.Name] = call.Pos()
			}
			return false
		})
		return false
	})
	return out
}

// callOptionRetry reads the call options a call of a generated client's
// method is given: a retry option turns the layer on (on, with the
// option's position) or off (off, given a function that returns nil);
// ok is false when the call gives none.
func (e *engine) callOptionRetry(c *ssa.CallCommon) (at token.Pos, off, ok bool) {
	cr, _, isMethod := callOptionMethod(calleeFunc(c))
	if !isMethod || len(c.Args) == 0 {
		return token.NoPos, false, false
	}
	elems, known := sliceElems(c.Args[len(c.Args)-1], map[ssa.Value]bool{})
	if !known {
		return token.NoPos, false, false
	}
	for _, el := range elems {
		call, isCall := el.(*ssa.Call)
		if !isCall || calleeName(&call.Call) != cr.Retry || len(call.Call.Args) != 1 {
			continue
		}
		at, ok = call.Pos(), true
		off = false
		if f := funcValue(call.Call.Args[0]); f != nil && ssaReturnsOnlyNil(f) {
			off = true
		} else if k, isConst := call.Call.Args[0].(*ssa.Const); isConst && k.IsNil() {
			off = true
		}
	}
	return at, off, ok
}

// callOptionCandidates returns what a call of a generated client's method
// given a retry option contributes; handled is false when the call gives
// none, and its callee's claim decides.
func (e *engine) callOptionCandidates(info *fnInfo, c *ssa.CallCommon, at token.Pos) ([]candidate, bool) {
	optAt, off, ok := e.callOptionRetry(c)
	if !ok {
		return nil, false
	}
	if off {
		return nil, true // one attempt: outbound work, no layer
	}
	link := chainLink{RetryLink: RetryLink{
		What:     calleeDisplay(c),
		Func:     funcDisplay(info.fn),
		At:       analysisutil.ShortPos(e.pass.Fset, optAt),
		Attempts: int(timesUnbounded),
		Client:   true,
	}, pos: optAt}
	return []candidate{{sub: retryChain{link}, at: at}}, true
}

// returnsOnlyNil reports whether a function literal's every return
// statement returns nil.
func returnsOnlyNil(x ast.Expr) bool {
	lit, ok := x.(*ast.FuncLit)
	if !ok {
		return false
	}
	found, only := false, true
	ast.Inspect(lit.Body, func(n ast.Node) bool {
		if _, ok := n.(*ast.FuncLit); ok {
			return false
		}
		if r, ok := n.(*ast.ReturnStmt); ok {
			found = true
			if len(r.Results) != 1 {
				only = false
			} else if id, ok := r.Results[0].(*ast.Ident); !ok || id.Name != "nil" {
				only = false
			}
		}
		return true
	})
	return found && only
}

// ssaReturnsOnlyNil is returnsOnlyNil for a function's SSA form.
func ssaReturnsOnlyNil(f *ssa.Function) bool {
	if f.Signature.Results().Len() != 1 {
		return false
	}
	rets := returnedValues(f, 0)
	for _, r := range rets {
		if !isNil(r) {
			return false
		}
	}
	return len(rets) > 0
}

// typeFullName names a named type by its package path and name.
func typeFullName(t types.Type) string {
	n, ok := types.Unalias(t).(*types.Named)
	if !ok || n.Obj().Pkg() == nil {
		return ""
	}
	return n.Obj().Pkg().Path() + "." + n.Obj().Name()
}

// calleeOf returns the full name of the function a call expression
// calls, or "".
func calleeOf(info *types.Info, call *ast.CallExpr) string {
	if f, ok := typeutil.Callee(info, call).(*types.Func); ok {
		return f.FullName()
	}
	return ""
}

// hasField reports whether st has a field of that name.
func hasField(st *types.Struct, name string) bool {
	for i := range st.NumFields() {
		if st.Field(i).Name() == name {
			return true
		}
	}
	return false
}
