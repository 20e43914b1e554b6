package summary

import (
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/resilvet/resilvet/internal/analysisutil"
	"github.com/resilvet/resilvet/internal/knowledge"
)

// The retained-context claim module: a function that keeps its context
// past its return, for the life of what it builds (a pool, a room, a
// worker started in a constructor). The context such a function should
// get is a long-lived one: a request's would be cancelled under it when
// the request ends, so a root context handed to it is a lifetime choice,
// not a dropped request context. The knowledge table names library
// constructors that do this (pgxpool.New); this claim finds the rest in
// code. Read by ctxdrop's rule 1 (through Result.Exempt) and by the
// DropsCtx claim (a helper making a root for such a callee drops
// nothing).

// computeRetains sets the RetainsCtx claim of the named functions that
// take a context, to a fixed point over their callees.
func (e *engine) computeRetains(named []*fnInfo) {
	var takers []*fnInfo
	for _, info := range named {
		if analysisutil.TakesContext(info.obj.Type().(*types.Signature)) {
			takers = append(takers, info)
		}
	}
	for changed := true; changed; {
		changed = false
		for _, info := range takers {
			if !info.retains && e.retainsCtx(info.fn) {
				info.retains, changed = true, true
			}
		}
	}
}

// retainsCtx reports whether fn keeps one of its context parameters, or
// a context derived from one, for the life of something it starts: hands
// it to a goroutine it does not wait for; stores it where it outlives the
// call (a field of a parameter or the receiver, of a value it returns, a
// package variable) together with its cancel function or while starting
// a goroutine it does not wait for (a worker that will read it); or
// passes it to a callee that retains its own. A context merely stored in
// a value that is returned (a request builder's &Req{ctx: ctx}) is not
// retained: the caller usually runs the work at once.
func (e *engine) retainsCtx(fn *ssa.Function) bool {
	var fromParam func(v ssa.Value) bool
	fromParam = func(v ssa.Value) bool {
		if al, ok := v.(*ssa.Alloc); ok && isLocalCell(al) {
			// A closure captures the variable, not its value: the cell
			// holds the parameter when every store into it does.
			return cellHolds(al, fromParam)
		}
		if !analysisutil.IsContext(v.Type()) {
			return false
		}
		f, idx := e.ctxParamOf(v, 0)
		return f == fn && idx >= 0
	}
	joins := -1 // whether fn waits for its goroutines, read at the first go statement
	starts, stored := false, false
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			switch in := instr.(type) {
			case *ssa.Store:
				if fromParam(in.Val) && outlivesCall(in.Addr) {
					if cancelStored(in.Val) {
						return true
					}
					stored = true
				}
			case *ssa.Go:
				if joins < 0 {
					joins = 0
					if waitsForGoroutines(fn) {
						joins = 1
					}
				}
				if joins == 1 {
					continue
				}
				if receivesResult(fn, in.Common()) {
					// done := make(chan error, 1); go func() { done <- run(ctx) }();
					// select { case err := <-done: … case <-ctx.Done(): … }:
					// the function waits for this goroutine's outcome.
					continue
				}
				starts = true
				for _, a := range goArgs(in.Common()) {
					if fromParam(a) {
						return true
					}
				}
			case *ssa.Call:
				callee := calleeFunc(in.Common())
				if callee == nil || !e.retainsOwn(callee) {
					continue
				}
				for _, a := range in.Common().Args {
					if fromParam(a) {
						return true
					}
				}
			}
		}
	}
	return stored && starts
}

// cancelStored reports whether ctx is the context of a cancellable
// derivation (context.WithCancel and its kin) whose cancel function is
// stored where it outlives the call: the lifetime is managed by whoever
// holds it.
func cancelStored(ctx ssa.Value) bool {
	ex, ok := ctx.(*ssa.Extract)
	if !ok || ex.Index != 0 {
		return false
	}
	call, ok := ex.Tuple.(*ssa.Call)
	if !ok {
		return false
	}
	switch calleeName(call.Common()) {
	case "context.WithCancel", "context.WithCancelCause", "context.WithTimeout", "context.WithDeadline", "context.WithTimeoutCause", "context.WithDeadlineCause":
	default:
		return false
	}
	for _, cancel := range extracts(call, 1) {
		for _, r := range *cancel.Referrers() {
			if st, ok := r.(*ssa.Store); ok && st.Val == cancel && outlivesCall(st.Addr) {
				return true
			}
		}
	}
	return false
}

// retainsOwn reports whether callee keeps its context: by the knowledge
// table, this package's claim so far, or its fact.
func (e *engine) retainsOwn(callee *types.Func) bool {
	callee = callee.Origin()
	if knowledge.RetainsContext(callee.FullName()) {
		return true
	}
	if info := e.byObj[callee]; info != nil {
		return info.retains
	}
	s := e.imported(callee)
	return s != nil && s.RetainsCtx
}

// goArgs returns the values a go statement hands its goroutine: the
// call's arguments and, for a closure, what it captures.
func goArgs(c *ssa.CallCommon) []ssa.Value {
	out := append([]ssa.Value(nil), c.Args...)
	if mc, ok := c.Value.(*ssa.MakeClosure); ok {
		out = append(out, mc.Bindings...)
	}
	return out
}

// outlivesCall reports whether memory at addr lives past the call that
// writes it: a field or element of a parameter (the receiver), of a
// package variable, or of a value the function returns.
func outlivesCall(addr ssa.Value) bool {
	switch base := memoryBase(addr).(type) {
	case *ssa.Global, *ssa.Parameter:
		return true
	case *ssa.Alloc:
		return base.Heap && returned(base, map[ssa.Value]bool{})
	}
	return false
}

// memoryBase returns the variable or allocation an address is a field
// or element of (s.state.ctx: s), through at most four selections, or
// nil.
func memoryBase(addr ssa.Value) ssa.Value {
	for range 5 {
		switch a := addr.(type) {
		case *ssa.FieldAddr:
			addr = a.X
		case *ssa.IndexAddr:
			addr = a.X
		case *ssa.UnOp:
			addr = a.X
		default:
			return addr
		}
	}
	return nil
}

// returned reports whether v reaches one of its function's return
// statements, through conversions and loads.
func returned(v ssa.Value, seen map[ssa.Value]bool) bool {
	if seen[v] {
		return false
	}
	seen[v] = true
	refs := v.Referrers()
	if refs == nil {
		return false
	}
	for _, r := range *refs {
		switch r := r.(type) {
		case *ssa.Return:
			return true
		case *ssa.MakeInterface, *ssa.ChangeType, *ssa.Phi:
			if returned(r.(ssa.Value), seen) {
				return true
			}
		}
	}
	return false
}

// waitsForGoroutines reports whether fn waits for the goroutines it
// starts (sync.WaitGroup's or errgroup.Group's Wait): their work ends
// before it returns.
func waitsForGoroutines(fn *ssa.Function) bool {
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			call, ok := instr.(*ssa.Call)
			if !ok {
				continue
			}
			if knowledge.JoinsGoroutines(calleeName(call.Common())) {
				return true
			}
		}
	}
	return false
}

// cellHolds reports whether every value stored into a local variable's
// cell (a variable a closure captures) meets ok, and one is.
func cellHolds(al *ssa.Alloc, ok func(ssa.Value) bool) bool {
	stored := false
	for _, r := range *al.Referrers() {
		if st, isStore := r.(*ssa.Store); isStore && st.Addr == al {
			if !ok(st.Val) {
				return false
			}
			stored = true
		}
	}
	return stored
}

// receivesResult reports whether fn receives from a channel it hands the
// goroutine a go statement starts (as an argument or a captured
// variable), or returns that channel for its caller to receive from: the
// goroutine's outcome is awaited, not left running on its own.
func receivesResult(fn *ssa.Function, c *ssa.CallCommon) bool {
	chans := map[ssa.Value]bool{}
	for _, a := range goArgs(c) {
		if _, ok := a.Type().Underlying().(*types.Chan); ok {
			chans[a] = true
			continue
		}
		if al, ok := a.(*ssa.Alloc); ok && isLocalCell(al) {
			// The goroutine captures the variable: fn reads the channel
			// from the cell to receive from it.
			for _, r := range *al.Referrers() {
				if ld, ok := r.(*ssa.UnOp); ok && ld.Op == token.MUL {
					chans[ld] = true
				}
				if st, ok := r.(*ssa.Store); ok && st.Addr == al {
					chans[st.Val] = true
				}
			}
		}
	}
	if len(chans) == 0 {
		return false
	}
	for ch := range chans {
		if returned(ch, map[ssa.Value]bool{}) {
			// A generator: the goroutine feeds a channel the function
			// returns, and the caller receives from it, as its own work.
			return true
		}
	}
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			switch in := instr.(type) {
			case *ssa.UnOp:
				if in.Op == token.ARROW && chans[in.X] {
					return true
				}
			case *ssa.Select:
				for _, st := range in.States {
					if st.Dir == types.RecvOnly && chans[st.Chan] {
						return true
					}
				}
			}
		}
	}
	return false
}
