package summary

import (
	"go/token"
	"go/types"
	"sort"

	"golang.org/x/tools/go/ssa"

	"github.com/resilvet/resilvet/internal/analysisutil"
)

// The returned-roots part of the roots module: a function whose context
// result is a fresh root it makes (Detached(d) returning
// context.WithTimeout(context.Background(), d)) is, at its callers, a
// root context like context.Background() itself. Without it, a handler
// that swaps the request's context for the one a helper makes
// (ctx, cancel := httpx.Detached(3*time.Second)) drops the request's
// deadline and cancellation unseen. Read by ctxdrop's rule 1, through
// the RootUse entries added here; exported as ReturnsRoot for callers in
// other packages.

// maxMakerDepth caps how many helpers deep a returned root is followed
// inside one package (a helper returning a helper's root).
const maxMakerDepth = 3

// addReturnedRoots finds the functions whose context result is a root
// they make, records the claim on them, and adds a RootUse for every call
// of such a function (local, or imported with the fact) in the package.
func (e *engine) addReturnedRoots(roots []*RootUse, ctxIface *types.Interface) []*RootUse {
	makers := map[*ssa.Function]*ReturnedRoot{}
	record := func(us []*RootUse) bool {
		added := false
		for _, u := range us {
			if len(u.returned) == 0 {
				continue
			}
			info := e.local[u.Func]
			if info == nil || info.obj == nil || makers[u.Func] != nil {
				continue
			}
			if analysisutil.HasContextValueParam(u.Func.Signature) {
				// A function given a context that returns a root on some
				// path (if ctx == nil { return context.Background() }) makes
				// no fresh context for its callers: they pass theirs.
				continue
			}
			idx := u.returned[0]
			if res := u.Func.Signature.Results(); idx >= res.Len() || !analysisutil.IsContext(res.At(idx).Type()) {
				continue
			}
			if returnsHeld(u.Func, idx) {
				// A root only as the fallback for a context it holds
				// ((*http.Request).Context: r.ctx, or Background when
				// nil): its callers get the held one.
				continue
			}
			makers[u.Func] = &ReturnedRoot{Index: idx, Root: u.Root, Bounded: u.Bounded}
			info.returnsRoot = makers[u.Func]
			added = true
		}
		return added
	}
	record(roots)
	seen := map[*ssa.Call]bool{}
	for depth := 0; depth < maxMakerDepth; depth++ {
		var found []*RootUse
		for _, fn := range e.funcs {
			for _, instr := range e.local[fn].ix.calls {
				call, ok := instr.(*ssa.Call)
				if !ok || seen[call] {
					continue
				}
				if claim := e.returnedRootOf(call.Common(), makers); claim != nil {
					seen[call] = true
					found = append(found, e.makerUse(call, claim, ctxIface))
				}
			}
		}
		roots = append(roots, found...)
		if !record(found) {
			break
		}
	}
	sort.SliceStable(roots, func(i, j int) bool { return roots[i].Pos < roots[j].Pos })
	return roots
}

// returnedRootOf returns the ReturnsRoot claim of a call's static callee:
// one of this package's makers, or an imported function's fact.
func (e *engine) returnedRootOf(c *ssa.CallCommon, makers map[*ssa.Function]*ReturnedRoot) *ReturnedRoot {
	fn := c.StaticCallee()
	if fn == nil {
		return nil
	}
	if fn.Origin() != nil {
		fn = fn.Origin()
	}
	if r := makers[fn]; r != nil {
		return r
	}
	if e.local[fn] != nil {
		return nil
	}
	if s := e.imported(calleeFunc(c)); s != nil {
		return s.ReturnsRoot
	}
	return nil
}

// makerUse follows the root context a call of a maker returns, as
// findRoots follows context.Background().
func (e *engine) makerUse(call *ssa.Call, claim *ReturnedRoot, ctxIface *types.Interface) *RootUse {
	fn := call.Parent()
	u := &RootUse{Pos: call.Common().Pos(), Root: claim.Root, Maker: calleeDisplay(call.Common()), Func: fn, Bounded: claim.Bounded, Joins: waitsForGoroutines(fn), InGoroutine: madeInGoroutine(fn)}
	rf := &rootFlow{ctxIface: ctxIface, use: u, seen: map[ssa.Value]bool{}}
	if !isTuple(call.Type()) {
		u.Bounded = u.Bounded || boundedWhereMade(call)
		rf.follow(call)
	} else {
		// The helper's other results: a cancel function it hands back is
		// the context's, as WithCancel's is.
		results := call.Call.Signature().Results()
		for i := 0; i < results.Len(); i++ {
			if i != claim.Index && analysisutil.IsCancelFunc(results.At(i).Type()) {
				rf.cancels = append(rf.cancels, extracts(call, i)...)
			}
		}
		for _, x := range extracts(call, claim.Index) {
			rf.follow(x)
		}
	}
	sort.SliceStable(u.Sinks, func(i, j int) bool { return u.Sinks[i].Pos < u.Sinks[j].Pos })
	return u
}

// returnsHeld reports whether fn returns, as result idx on some path, a
// context it holds or is given rather than one it makes: a field or a
// variable's value, a parameter.
func returnsHeld(fn *ssa.Function, idx int) bool {
	for _, b := range fn.Blocks {
		ret, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return)
		if !ok || idx >= len(ret.Results) {
			continue
		}
		if held(ret.Results[idx], map[ssa.Value]bool{}) {
			return true
		}
	}
	return false
}

func held(v ssa.Value, seen map[ssa.Value]bool) bool {
	if seen[v] {
		return false
	}
	seen[v] = true
	switch v := v.(type) {
	case *ssa.Parameter, *ssa.FreeVar:
		return true
	case *ssa.UnOp:
		return v.Op == token.MUL
	case *ssa.Field:
		return true
	case *ssa.Phi:
		for _, e := range v.Edges {
			if held(e, seen) {
				return true
			}
		}
	case *ssa.ChangeInterface:
		return held(v.X, seen)
	case *ssa.MakeInterface:
		return held(v.X, seen)
	}
	return false
}
