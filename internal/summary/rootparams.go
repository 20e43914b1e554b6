package summary

import (
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/resilvet/resilvet/internal/analysisutil"
	"github.com/resilvet/resilvet/internal/knowledge"
)

// Root parameters: context parameters that every call in the package
// fills with a root context (and request parameters filled with requests
// whose context is one), so that no caller's deadline or
// cancellation can arrive through them. An accept loop making a context
// per connection (ctx := context.Background(), values added) and handing
// it to the connection's handler is the shape: the handler's ctx is no
// request context, and a call in it on a context of its own drops
// nothing. Where the root is made while a context was in scope, that is
// reported there (ctxdrop's rule 1). Read by ctxdrop.
//
// Only functions whose every use the package sees qualify: unexported
// functions and methods never taken as values nor named by an interface
// of the package, and function literals called where they are made
// (go func(ctx context.Context) { … }(context.Background())). Exported
// functions have callers elsewhere.

// rootParams returns the context parameters of the package's functions
// that receive, at every call, a root context or one that only adds
// values to a root (see knowledge.AddsOnlyValues), or another such
// parameter; and the *http.Request parameters that receive, at every
// call, a request whose context is a root (http.ReadRequest's).
func (e *engine) rootParams() map[*types.Var]bool {
	sites, escaped := e.staticCallSites()
	named := interfaceMethodNames(e.pass.TypesInfo)
	// Start from every candidate and strike out, to the greatest fixed
	// point: a parameter passed round a cycle of calls and from nowhere
	// else stays a root.
	cand := map[*ssa.Parameter]bool{}
	for fn, calls := range sites {
		if escaped[fn] || len(calls) == 0 || !onlyLocalCallers(fn, named) {
			continue
		}
		for _, p := range fn.Params {
			if analysisutil.IsContext(p.Type()) || analysisutil.IsHTTPRequestPtr(p.Type()) {
				cand[p] = true
			}
		}
	}
	for changed := true; changed; {
		changed = false
		for p := range cand {
			fn := p.Parent()
			for _, call := range sites[fn] {
				if a := argOf(call.Common(), sigIndex(fn, p)); a == nil || !e.rootValue(a, cand) {
					delete(cand, p)
					changed = true
					break
				}
			}
		}
	}
	if len(cand) == 0 {
		return nil
	}
	out := map[*types.Var]bool{}
	for p := range cand {
		if v, ok := p.Object().(*types.Var); ok {
			out[v] = true
		}
	}
	return out
}

// staticCallSites returns, for each function of the package, the calls
// naming it directly (a function literal through the closure made for
// it), and the functions used otherwise: stored, passed, converted,
// bound as a method value.
func (e *engine) staticCallSites() (map[*ssa.Function][]ssa.CallInstruction, map[*ssa.Function]bool) {
	sites := map[*ssa.Function][]ssa.CallInstruction{}
	escaped := map[*ssa.Function]bool{}
	byObj := map[*types.Func]*ssa.Function{}
	for _, fn := range e.funcs {
		sites[fn] = nil
		if obj, ok := fn.Object().(*types.Func); ok {
			byObj[obj] = fn
		}
	}
	var ops []*ssa.Value
	for _, fn := range e.funcs {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				var callee ssa.Value
				if c, ok := instr.(ssa.CallInstruction); ok && !c.Common().IsInvoke() {
					callee = c.Common().Value
					switch v := callee.(type) {
					case *ssa.Function:
						sites[v] = append(sites[v], c)
					case *ssa.MakeClosure:
						sites[v.Fn.(*ssa.Function)] = append(sites[v.Fn.(*ssa.Function)], c)
					}
				}
				if mc, ok := instr.(*ssa.MakeClosure); ok {
					if !calledOnly(mc) {
						escaped[mc.Fn.(*ssa.Function)] = true
					}
					continue
				}
				for _, op := range instr.Operands(ops[:0]) {
					f, ok := (*op).(*ssa.Function)
					if !ok || *op == callee {
						continue
					}
					escaped[f] = true
				}
			}
		}
	}
	// A method value or expression calls the method from a synthetic
	// wrapper the package's functions do not include: the method escapes.
	for f := range escaped {
		if f.Synthetic == "" {
			continue
		}
		if obj, ok := f.Object().(*types.Func); ok && byObj[obj] != nil {
			escaped[byObj[obj]] = true
		}
	}
	return sites, escaped
}

// calledOnly reports whether every use of the closure mc is as the
// function of a call.
func calledOnly(mc *ssa.MakeClosure) bool {
	refs := mc.Referrers()
	if refs == nil || len(*refs) == 0 {
		return false
	}
	for _, r := range *refs {
		c, ok := r.(ssa.CallInstruction)
		if !ok || c.Common().IsInvoke() || c.Common().Value != ssa.Value(mc) {
			return false
		}
		for _, a := range c.Common().Args {
			if a == ssa.Value(mc) {
				return false
			}
		}
	}
	return true
}

// onlyLocalCallers reports whether the package sees every call of fn:
// a function literal, or an unexported function or method that no
// interface of the package names (an unexported method can satisfy
// only the package's own interfaces). Generic functions are left out.
func onlyLocalCallers(fn *ssa.Function, named map[string]bool) bool {
	if fn.Synthetic != "" || fn.TypeParams().Len() > 0 || len(fn.TypeArgs()) > 0 {
		return false
	}
	if fn.Parent() != nil {
		return true
	}
	obj, ok := fn.Object().(*types.Func)
	if !ok || obj.Exported() || obj.Name() == "main" || obj.Name() == "init" {
		return false
	}
	return fn.Signature.Recv() == nil || !named[obj.Name()]
}

// interfaceMethodNames returns the names of the methods of every
// interface type the package writes.
func interfaceMethodNames(info *types.Info) map[string]bool {
	out := map[string]bool{}
	for _, tv := range info.Types {
		it, ok := tv.Type.Underlying().(*types.Interface)
		if !ok {
			continue
		}
		for m := range it.Methods() {
			out[m.Name()] = true
		}
	}
	return out
}

// rootValue reports whether v holds, on every path, a root context, one
// that only adds values to a root, context.WithoutCancel's (no deadline
// and no cancellation, whatever its parent had), a request whose context
// is a root, or a parameter still taken for a root. Anything else, a
// derivation that may set a deadline among them, is not.
func (e *engine) rootValue(v ssa.Value, roots map[*ssa.Parameter]bool) bool {
	seen := map[ssa.Value]bool{}
	var leaf func(ssa.Value) bool
	leaf = func(v ssa.Value) bool {
		switch v := v.(type) {
		case *ssa.Call:
			name := calleeName(v.Common())
			return name == "context.WithoutCancel" || knowledge.MakesRootRequest(name)
		case *ssa.Parameter:
			return roots[v]
		case *ssa.FreeVar:
			b := e.bindingOf(v)
			return b != nil && fromRoot(b, valueDerivation, leaf, seen)
		}
		return false
	}
	return fromRoot(v, valueDerivation, leaf, seen)
}

// valueDerivation returns the context a call derives its result from
// when it only adds values to it (knowledge.AddsOnlyValues), or nil.
func valueDerivation(c *ssa.CallCommon) ssa.Value {
	if !knowledge.AddsOnlyValues(calleeName(c)) {
		return nil
	}
	return derivedArg(c)
}
