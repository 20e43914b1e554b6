package summary

import (
	"go/token"
	"go/types"
	"slices"

	"golang.org/x/tools/go/ssa"

	"github.com/resilvet/resilvet/internal/analysisutil"
)

// The context-I/O claim module: which context parameters of a function
// reach outbound work, a wait on ctx.Done() or a check of ctx.Err(), or a
// callback whose work is not known, bounded or not, directly or through
// callees. It answers whether a function's context matters at all: a
// function named FooContext beside Foo whose context only reaches local
// work (reading /proc, detecting a host's resources) is no reason to call
// the Context variant. Read by ctxdrop, for the context-taking
// alternatives it finds by name rather than by the knowledge table.

// ioParams are context parameters whose context matters: all of them,
// and those reaching work on a remote peer.
type ioParams struct{ all, remote []int }

// ctxIOAt records, at one call, the caller's context parameters whose
// context reaches outbound work, a wait or a callback through the call;
// remote says the work is on a remote peer (or not known).
func (e *engine) ctxIOAt(info *fnInfo, ctxArgs []ssa.Value, remote bool) {
	for _, a := range ctxArgs {
		fn, idx := e.ctxParamOf(a, 0)
		if fn == nil || idx < 0 {
			continue
		}
		if fn == info.fn {
			info.ctxIO = addInt(info.ctxIO, idx)
			if remote {
				info.ctxRemote = addInt(info.ctxRemote, idx)
			}
			continue
		}
		p := e.pendingIO[fn]
		p.all = addInt(p.all, idx)
		if remote {
			p.remote = addInt(p.remote, idx)
		}
		e.pendingIO[fn] = p
	}
}

// ctxArgsReaching returns the arguments of a call that are contexts
// reaching outbound work: the table's context parameter of an outbound
// call, or the parameters the callee's CtxIO names; remote are those
// reaching work on a remote peer (an outbound call that is not local,
// the callee's CtxRemote).
func (e *engine) ctxArgsReaching(c *ssa.CallCommon, outbound, local bool, ctxParam int, s *FuncSummary) (all, remote []ssa.Value) {
	if outbound {
		var out []ssa.Value
		idx := ctxParam
		if idx < 0 {
			idx = firstContextParam(c.Signature())
		}
		if a := argOf(c, idx); idx >= 0 && a != nil {
			out = append(out, a)
		}
		// (*http.Client).Do: the request carries the context.
		for _, a := range c.Args {
			if analysisutil.IsHTTPRequestPtr(a.Type()) {
				out = append(out, a)
			}
		}
		all = append(all, out...)
		if !local {
			remote = append(remote, out...)
		}
	}
	if s != nil {
		for _, k := range s.CtxIO {
			if a := argOf(c, k); a != nil {
				all = append(all, a)
				if slices.Contains(s.CtxRemote, k) {
					remote = append(remote, a)
				}
			}
		}
	}
	return all, remote
}

// ctxParamOf follows a context back to the parameter it derives from,
// through phis whose edges agree, conversions, derivations
// (context.WithTimeout(ctx, d), any call that takes a context and returns
// one) and closures' free variables: the function whose parameter it is
// and its signature index, or nil.
func (e *engine) ctxParamOf(v ssa.Value, depth int) (*ssa.Function, int) {
	if depth > 8 {
		return nil, -1
	}
	switch v := v.(type) {
	case *ssa.Parameter:
		return v.Parent(), sigIndex(v.Parent(), v)
	case *ssa.ChangeType:
		return e.ctxParamOf(v.X, depth+1)
	case *ssa.MakeInterface:
		return e.ctxParamOf(v.X, depth+1)
	case *ssa.ChangeInterface:
		return e.ctxParamOf(v.X, depth+1)
	case *ssa.Extract:
		if call, ok := v.Tuple.(*ssa.Call); ok && v.Index == 0 {
			if a := derivedArg(call.Common()); a != nil {
				return e.ctxParamOf(a, depth+1)
			}
			if a := requestCtxArg(call.Common()); a != nil {
				return e.ctxParamOf(a, depth+1)
			}
		}
	case *ssa.Call:
		if a := derivedArg(v.Common()); a != nil {
			return e.ctxParamOf(a, depth+1)
		}
		if a := requestCtxArg(v.Common()); a != nil {
			return e.ctxParamOf(a, depth+1)
		}
	case *ssa.Phi:
		var fn *ssa.Function
		idx := -1
		for _, edge := range v.Edges {
			f, i := e.ctxParamOf(edge, depth+1)
			if f == nil || fn != nil && (f != fn || i != idx) {
				return nil, -1
			}
			fn, idx = f, i
		}
		return fn, idx
	case *ssa.FreeVar:
		if b := e.bindingOf(v); b != nil {
			return e.ctxParamOf(b, depth+1)
		}
	case *ssa.UnOp:
		// A load of the box the SSA builder puts a captured parameter
		// in: the parameter, when only it is ever stored there.
		if v.Op != token.MUL {
			break
		}
		box := v.X
		if fv, ok := box.(*ssa.FreeVar); ok {
			box = e.bindingOf(fv)
		}
		if al, ok := box.(*ssa.Alloc); ok {
			if p := boundParam(al.Parent(), al); p != nil {
				return p.Parent(), sigIndex(p.Parent(), p)
			}
		}
	}
	return nil, -1
}

// bindingOf returns the value bound to a closure's free variable where
// the closure is made, when its parent makes it exactly once.
func (e *engine) bindingOf(v *ssa.FreeVar) ssa.Value {
	mc := e.makerOf(v)
	if mc == nil {
		return nil
	}
	for i, fv := range v.Parent().FreeVars {
		if fv == v {
			return mc.Bindings[i]
		}
	}
	return nil
}

// requestCtxArg returns the context a call builds its *http.Request
// with: NewRequestWithContext's, WithContext's or Clone's.
func requestCtxArg(c *ssa.CallCommon) ssa.Value {
	switch calleeName(c) {
	case "net/http.NewRequestWithContext", "net/http/httptest.NewRequestWithContext":
		return c.Args[0]
	case "(*net/http.Request).WithContext", "(*net/http.Request).Clone":
		return c.Args[1]
	}
	return nil
}

// importAlternatives reads the facts of the context-taking alternatives
// (FooContext beside Foo) of the functions the package calls: ctxdrop
// reads their CtxIO after the summary's run, when facts can no longer be
// imported.
func (e *engine) importAlternatives() {
	if e.std {
		return
	}
	seen := map[*types.Func]bool{}
	for _, fn := range e.funcs {
		for _, c := range e.local[fn].ix.calls {
			callee := calleeFunc(c.Common())
			if callee == nil || seen[callee] || callee.Pkg() == e.pass.Pkg {
				continue
			}
			seen[callee] = true
			if alt := contextAlternative(callee); alt != nil {
				e.imported(alt)
			}
		}
	}
}

// makerOf returns the MakeClosure that makes the closure whose free
// variable fv is, when its parent makes it exactly once (from the
// parent's index).
func (e *engine) makerOf(fv *ssa.FreeVar) *ssa.MakeClosure {
	fn := fv.Parent()
	parent := e.local[fn.Parent()]
	if parent == nil {
		return nil
	}
	var found *ssa.MakeClosure
	for _, mc := range parent.ix.closures {
		if mc.Fn == fn {
			if found != nil {
				return nil
			}
			found = mc
		}
	}
	return found
}

func addInt(xs []int, x int) []int {
	if slices.Contains(xs, x) {
		return xs
	}
	xs = append(xs, x)
	slices.Sort(xs)
	return xs
}
