package summary

import (
	"go/token"
	"go/types"
	"sort"

	"golang.org/x/tools/go/ssa"

	"github.com/resilvet/resilvet/internal/analysisutil"
)

// The func-values claim module: which func-typed parameters a function
// calls, how many times per call of the function (once, N, unbounded,
// unknown), and with which of its own parameters as arguments. The claim
// survives forwarding: a helper that passes its func parameter on to
// another that calls it, a closure that captures the parameter and is
// itself called or handed to such a helper. Read by:
//   - the engine, for notimeout: a closure (or function) handed to a
//     helper is summarised as if called where the helper calls it, so a
//     deadline-less context handed to the same helper reaches the
//     closure's outbound calls (applyFuncArgs);
//   - retrystack (to come): a parameter called N times is a retry layer
//     of N attempts.

// funcSite is one place a function calls (or has called) a func-typed
// parameter: directly, through a helper, or through a closure.
type funcSite struct {
	param int // signature index of the parameter
	times times
	// args maps the called func's parameters to the caller's own: args[i]
	// is the signature index of the parameter passed as argument i, or -1.
	args  []int
	block *ssa.BasicBlock
	order int // position of the instruction in its block
	at    string
}

// funcCalls computes fn's func-values claim from its sites.
func (e *engine) funcCalls(info *fnInfo) []FuncCall {
	byParam := map[int][]funcSite{}
	for _, s := range e.funcSites(info) {
		byParam[s.param] = append(byParam[s.param], s)
	}
	var out []FuncCall
	for p, sites := range byParam {
		out = append(out, FuncCall{Param: p, Times: int(longestPath(info, sites)), Args: joinArgs(sites), At: sites[0].at})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Param < out[j].Param })
	return out
}

// funcSites lists the places fn calls one of its func-typed parameters.
func (e *engine) funcSites(info *fnInfo) []funcSite {
	fn, ix := info.fn, info.ix
	var out []funcSite
	add := func(instr ssa.Instruction, p *ssa.Parameter, t times, args []int) {
		idx := sigIndex(fn, p)
		if idx < 0 {
			return
		}
		out = append(out, funcSite{param: idx, times: t.mul(ix.multiplicity(instr.Block())), args: args, block: instr.Block(), order: instrIndex(instr), at: analysisutil.ShortPos(e.pass.Fset, instr.Pos())})
	}
	for _, instr := range ix.calls {
		c := instr.Common()
		// Called directly: f(x).
		if p := funcParam(fn, c.Value); p != nil && !c.IsInvoke() {
			args := make([]int, len(c.Args))
			for i, a := range c.Args {
				args[i] = paramIndex(fn, a)
			}
			add(instr, p, 1, args)
			continue
		}
		// Handed to a helper that calls it: helper(f).
		for _, fc := range e.calleeFuncCalls(c) {
			p := funcParam(fn, argOf(c, fc.Param))
			if p == nil {
				continue
			}
			args := make([]int, len(fc.Args))
			for i, j := range fc.Args {
				args[i] = -1
				if x := argOf(c, j); j >= 0 && x != nil {
					args[i] = paramIndex(fn, x)
				}
			}
			add(instr, p, times(fc.Times), args)
		}
	}
	// Captured by a closure that calls it: the closure's count times the
	// number of times fn runs the closure.
	for _, mc := range ix.closures {
		cl := e.local[mc.Fn.(*ssa.Function)]
		if cl == nil {
			continue
		}
		for i, fv := range cl.fn.FreeVars {
			p := boundParam(fn, mc.Bindings[i])
			if p == nil {
				continue
			}
			inner := cl.freeCalls[fv]
			if inner == 0 && !cl.freeCalled[fv] {
				continue
			}
			add(mc, p, inner.mul(e.closureRuns(info, mc)), nil)
		}
	}
	return out
}

// freeVarCalls computes, for a closure, how many times it calls each of
// its free variables that holds a func (directly or through helpers).
func (e *engine) freeVarCalls(info *fnInfo) {
	info.freeCalls, info.freeCalled = map[*ssa.FreeVar]times{}, map[*ssa.FreeVar]bool{}
	for _, instr := range info.ix.calls {
		c := instr.Common()
		if fv := freeVarOf(c.Value); fv != nil && !c.IsInvoke() {
			e.addFreeCall(info, fv, times(1).mul(info.ix.multiplicity(instr.Block())))
			continue
		}
		for _, fc := range e.calleeFuncCalls(c) {
			if fv := freeVarOf(argOf(c, fc.Param)); fv != nil {
				e.addFreeCall(info, fv, times(fc.Times).mul(info.ix.multiplicity(instr.Block())))
			}
		}
	}
}

func (e *engine) addFreeCall(info *fnInfo, fv *ssa.FreeVar, t times) {
	if info.freeCalled[fv] {
		info.freeCalls[fv] = info.freeCalls[fv].add(t)
		return
	}
	info.freeCalled[fv], info.freeCalls[fv] = true, t
}

// closureRuns counts how many times fn runs the closure mc makes: each
// direct call, each helper that calls it; unknown when it escapes
// anywhere else (stored, returned, sent).
func (e *engine) closureRuns(info *fnInfo, mc *ssa.MakeClosure) times {
	refs := mc.Referrers()
	if refs == nil {
		return timesUnknown
	}
	total, any := times(0), false
	for _, r := range *refs {
		call, ok := r.(ssa.CallInstruction)
		if !ok {
			if _, ok := r.(*ssa.DebugRef); ok {
				continue
			}
			return timesUnknown
		}
		c := call.Common()
		var t times
		switch {
		case c.Value == ssa.Value(mc):
			t = 1
		default:
			t = timesUnknown
			for _, fc := range e.calleeFuncCalls(c) {
				if argOf(c, fc.Param) == ssa.Value(mc) {
					t = times(fc.Times)
				}
			}
		}
		t = t.mul(info.ix.multiplicity(call.Block()))
		if !any {
			total, any = t, true
		} else {
			total = total.add(t)
		}
	}
	if !any {
		return timesUnknown
	}
	return total
}

// calleeFuncCalls returns the func-values claim of the called function:
// for an interface call, the implementations' that flow into it when
// known, else the interface method's (the union of the package's
// implementations, or its fact).
func (e *engine) calleeFuncCalls(c *ssa.CallCommon) []FuncCall {
	if c.IsInvoke() {
		if targets, ok := e.dynamicTargets(c); ok {
			var out []FuncCall
			for _, t := range targets {
				if s := e.summaryOfFunc(t.method); s != nil {
					out = joinFuncCalls(out, s.FuncCalls)
				}
			}
			return out
		}
		if s := e.ifaceSums[c.Method]; s != nil {
			return s.FuncCalls
		}
		if s := e.imported(c.Method); s != nil {
			return s.FuncCalls
		}
		return nil
	}
	if fn := c.StaticCallee(); fn != nil {
		if fn.Origin() != nil {
			fn = fn.Origin()
		}
		if info := e.local[fn]; info != nil {
			return info.calls
		}
	}
	if s := e.imported(calleeFunc(c)); s != nil {
		return s.FuncCalls
	}
	return nil
}

// longestPath adds the counts of sites that can run one after another
// and takes the larger of sites on alternative paths: the most calls any
// one execution of the function makes. Loops are already in each site's
// count, so back edges are left out and the graph of sites is acyclic.
func longestPath(info *fnInfo, sites []funcSite) times {
	sort.Slice(sites, func(i, j int) bool {
		if sites[i].block.Index != sites[j].block.Index {
			return sites[i].block.Index < sites[j].block.Index
		}
		return sites[i].order < sites[j].order
	})
	best := make([]times, len(sites))
	for j := range sites {
		best[j] = sites[j].times
		for i := range j {
			if precedes(sites[i], sites[j]) {
				best[j] = best[j].max(best[i].add(sites[j].times))
			}
		}
	}
	result := best[0]
	for _, t := range best[1:] {
		result = result.max(t)
	}
	return result
}

// precedes reports whether site a can run before site b in one execution
// without going around a loop.
func precedes(a, b funcSite) bool {
	if a.block == b.block {
		return a.order < b.order
	}
	seen := map[*ssa.BasicBlock]bool{}
	stack := []*ssa.BasicBlock{a.block}
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, s := range n.Succs {
			if s.Dominates(n) || seen[s] {
				continue // a back edge
			}
			if s == b.block {
				return true
			}
			seen[s] = true
			stack = append(stack, s)
		}
	}
	return false
}

// joinFuncCalls joins the func-values claims of alternative callees (the
// implementations of one interface method): per parameter, the larger
// count and the argument mapping they agree on.
func joinFuncCalls(a, b []FuncCall) []FuncCall {
	out := append([]FuncCall(nil), a...)
	for _, fc := range b {
		found := false
		for i := range out {
			if out[i].Param != fc.Param {
				continue
			}
			found = true
			out[i].Times = int(times(out[i].Times).max(times(fc.Times)))
			out[i].Args = joinArgs([]funcSite{{args: out[i].Args}, {args: fc.Args}})
		}
		if !found {
			out = append(out, fc)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Param < out[j].Param })
	return out
}

// joinArgs keeps the argument mapping the sites agree on.
func joinArgs(sites []funcSite) []int {
	var out []int
	for _, s := range sites {
		if s.args == nil {
			continue
		}
		if out == nil {
			out = append([]int(nil), s.args...)
			continue
		}
		for i := range out {
			if i >= len(s.args) || s.args[i] != out[i] {
				out[i] = -1
			}
		}
	}
	for _, a := range out {
		if a >= 0 {
			return out
		}
	}
	return nil
}

// applyFuncArgs summarises the functions passed to a helper as if called
// where the helper calls them: a closure whose parameter i reaches an
// outbound call, handed to a helper that calls it with the helper's own
// parameter j, makes the argument passed for j reach that call.
func (e *engine) applyFuncArgs(info *fnInfo, instr ssa.CallInstruction) {
	c := instr.Common()
	for _, fc := range e.calleeFuncCalls(c) {
		if fc.Args == nil {
			continue
		}
		f := funcValue(argOf(c, fc.Param))
		if f == nil {
			continue
		}
		var reaches []Reach
		if fi := e.local[f]; fi != nil {
			reaches = fi.reaches
		} else if obj, ok := f.Object().(*types.Func); ok {
			if s := e.imported(obj); s != nil {
				reaches = s.Reaches
			}
		}
		for _, r := range reaches {
			if r.Param < 0 || r.Param >= len(fc.Args) || fc.Args[r.Param] < 0 {
				continue
			}
			via := Link{Func: funcDisplay(f), At: analysisutil.ShortPos(e.pass.Fset, f.Pos())}
			r.Chain = capChain(append([]Link{via}, r.Chain...))
			r.Param = fc.Args[r.Param]
			e.checkReach(info, instr, r)
		}
	}
}

// funcValue returns the function a func value is known to be: a
// closure, or a named function used as a value.
func funcValue(v ssa.Value) *ssa.Function {
	switch v := v.(type) {
	case *ssa.MakeClosure:
		f, _ := v.Fn.(*ssa.Function)
		return f
	case *ssa.Function:
		return v
	case *ssa.ChangeType:
		return funcValue(v.X)
	}
	return nil
}

// wrapped returns the method a method value's wrapper calls, or f
// itself.
func wrapped(f *ssa.Function) *ssa.Function {
	if f.Synthetic == "" || len(f.Blocks) == 0 {
		return f
	}
	for _, instr := range f.Blocks[0].Instrs {
		if call, ok := instr.(*ssa.Call); ok && call.Common().StaticCallee() != nil {
			return call.Common().StaticCallee()
		}
	}
	return f
}

// funcParam returns the parameter of fn that v holds: the parameter
// itself, or a load of the variable the SSA builder boxes a parameter in
// when a closure captures it, as long as only the parameter is ever
// stored there.
func funcParam(fn *ssa.Function, v ssa.Value) *ssa.Parameter {
	if u, ok := v.(*ssa.UnOp); ok && u.Op == token.MUL {
		return boundParam(fn, u.X)
	}
	if p, ok := v.(*ssa.Parameter); ok && p.Parent() == fn {
		return p
	}
	return nil
}

// boundParam returns the parameter of fn that a closure binding holds:
// the parameter, or the box it lives in (see funcParam).
func boundParam(fn *ssa.Function, v ssa.Value) *ssa.Parameter {
	switch v := v.(type) {
	case *ssa.Parameter:
		if v.Parent() == fn {
			return v
		}
	case *ssa.Alloc:
		var p *ssa.Parameter
		for _, r := range *v.Referrers() {
			st, ok := r.(*ssa.Store)
			if !ok || st.Addr != v {
				continue
			}
			q, ok := st.Val.(*ssa.Parameter)
			if !ok || q.Parent() != fn || p != nil && q != p {
				return nil
			}
			p = q
		}
		return p
	}
	return nil
}

// freeVarOf returns the free variable v holds: the variable, or a load
// of the box it refers to.
func freeVarOf(v ssa.Value) *ssa.FreeVar {
	if u, ok := v.(*ssa.UnOp); ok && u.Op == token.MUL {
		v = u.X
	}
	fv, _ := v.(*ssa.FreeVar)
	return fv
}

// paramIndex returns the signature index of v when it is one of fn's
// parameters, else -1.
func paramIndex(fn *ssa.Function, v ssa.Value) int {
	if p, ok := v.(*ssa.Parameter); ok && p.Parent() == fn {
		return sigIndex(fn, p)
	}
	return -1
}

// instrIndex returns instr's position in its block.
func instrIndex(instr ssa.Instruction) int {
	for i, x := range instr.Block().Instrs {
		if x == instr {
			return i
		}
	}
	return -1
}
