package summary

import (
	"go/token"

	"golang.org/x/tools/go/ssa"

	"github.com/resilvet/resilvet/internal/knowledge"
)

// Shared backoff objects. A backoff object (cenkalti/backoff's BackOff)
// holds a budget: its NextBackOff hands out delays until it says Stop.
// Two layers drawing on one object, a loop calling b.NextBackOff around
// a helper that is given b and loops on it too, or backoff.Retry(op, b)
// around an op retrying with b, spend one budget between them: the
// inner layer does not multiply the outer. Each layer records the object
// it draws on as an identity in the function holding the chain; facts
// carry it as a parameter (or a parameter's field), which each call site
// turns back into its argument.

// backOffID identifies a backoff object within a function: a value, or
// the field of a value (a receiver's c.b) when field is not -1. The zero
// value means no object.
type backOffID struct {
	v     ssa.Value
	field int
}

// backOffOf returns the object v is, through interface conversions,
// wrappers that draw on the object they wrap (WithMaxRetries,
// WithContext), the cell of a captured variable and field loads.
func backOffOf(v ssa.Value) backOffID {
	for {
		if v == nil {
			return backOffID{}
		}
		switch x := stripIface(v).(type) {
		case *ssa.TypeAssert:
			v = x.X
		case *ssa.Call:
			if o, ok := knowledge.RetryOptionOf(calleeName(&x.Call)); ok && o.WrapsBackOff {
				v = argOf(&x.Call, 0)
				continue
			}
			return backOffID{v: x, field: -1}
		case *ssa.UnOp:
			if x.Op != token.MUL {
				return backOffID{v: x, field: -1}
			}
			switch a := x.X.(type) {
			case *ssa.FieldAddr:
				base := backOffOf(a.X)
				if base.v == nil || base.field != -1 {
					return backOffID{}
				}
				return backOffID{v: base.v, field: a.Field}
			case *ssa.Alloc, *ssa.FreeVar, *ssa.Global:
				return backOffID{v: a, field: -1}
			}
			return backOffID{v: x, field: -1}
		default:
			return backOffID{v: x, field: -1}
		}
	}
}

// loopBackOff returns the object a loop's body calls NextBackOff on, when
// it is one, and the count that object gives the loop when the loop
// leaves once it says Stop (backoff.WithMaxRetries(b, 2): 3 attempts;
// unknown when it says nothing of a count).
func (e *engine) loopBackOff(l *loop) (backOffID, times) {
	var id backOffID
	count := timesUnknown
	for b := range l.body {
		for _, instr := range b.Instrs {
			call, ok := instr.(*ssa.Call)
			if !ok || !knowledge.NextBackOff(calleeName(call.Common())) {
				continue
			}
			c := call.Common()
			recv := c.Value
			if !c.IsInvoke() {
				if len(c.Args) == 0 {
					continue
				}
				recv = c.Args[0]
			}
			got := backOffOf(recv)
			if id.v != nil && got != id {
				return backOffID{}, timesUnknown // two objects
			}
			id = got
			if t, ok := e.optionAttempts(recv); ok && leavesOnStop(l, call) {
				count = t
			}
		}
	}
	return id, count
}

// leavesOnStop reports whether one of the loop's exits is taken on a
// comparison of the delay next with something (backoff.Stop).
func leavesOnStop(l *loop, next *ssa.Call) bool {
	for _, ex := range l.exits {
		if cmp, ok := ex.cond.(*ssa.BinOp); ok && (cmp.X == next || cmp.Y == next) {
			return true
		}
	}
	return false
}

// backOffRef says which parameter of fn, or field of one, the object is,
// for facts; nil when it is neither.
func backOffRef(fn *ssa.Function, id backOffID) *ParamRef {
	p, ok := id.v.(*ssa.Parameter)
	if !ok || p.Parent() != fn {
		return nil
	}
	return &ParamRef{Param: sigIndex(fn, p), Field: id.field}
}

// backOffAt returns the object of the caller that a callee's parameter
// reference is at call c.
func backOffAt(c *ssa.CallCommon, ref *ParamRef) backOffID {
	if ref == nil {
		return backOffID{}
	}
	base := backOffOf(argOf(c, ref.Param))
	if ref.Field < 0 || base.v == nil {
		return base
	}
	if base.field != -1 {
		return backOffID{}
	}
	return backOffID{v: base.v, field: ref.Field}
}

// atCall returns a callee's chain as its caller sees it at c (callee is
// nil for a chain read from a fact): each layer's backoff object becomes
// the caller's argument, and a count held in a field of an argument
// (CountFrom) is read from the argument's construction when the caller
// sees it (options.go), or refers to the caller's parameter it comes
// from.
func (e *engine) atCall(c *ssa.CallCommon, callee *ssa.Function, chain retryChain) retryChain {
	out := make(retryChain, len(chain))
	for i, l := range chain {
		ref := l.BackOff
		if callee != nil {
			ref = backOffRef(callee, l.backoff)
		}
		out[i] = l
		out[i].backoff = backOffAt(c, ref)
		if cf := l.CountFrom; cf != nil {
			out[i].CountFrom, out[i].CountAdd = nil, 0
			v := argOf(c, cf.Param)
			if v == nil {
				continue
			}
			if n, ok := e.fieldCount(v, cf.Field); ok {
				out[i].Attempts = int(attemptsOf(n + int64(l.CountAdd)))
			} else if p, ok := v.(*ssa.Parameter); ok {
				out[i].CountFrom = &ParamRef{Param: sigIndex(p.Parent(), p), Field: cf.Field}
				out[i].CountAdd = l.CountAdd
			}
		}
	}
	return out
}

// inParent returns a closure's chain as the function making it sees it:
// an object the closure captured becomes the value it was bound to.
func inParent(mc *ssa.MakeClosure, chain retryChain) retryChain {
	fn := mc.Fn.(*ssa.Function)
	out := make(retryChain, len(chain))
	for i, l := range chain {
		out[i] = l
		out[i].backoff = backOffID{}
		out[i].CountFrom = nil
		fv, ok := l.backoff.v.(*ssa.FreeVar)
		if !ok {
			continue
		}
		for j, f := range fn.FreeVars {
			if f != fv {
				continue
			}
			b := mc.Bindings[j]
			if _, cell := b.(*ssa.Alloc); !cell {
				b = backOffOf(b).v
			}
			if b != nil {
				out[i].backoff = backOffID{v: b, field: l.backoff.field}
			}
		}
	}
	return out
}

// withoutBackOffs returns chain with no objects: they belong to a function
// the caller does not share them with.
func withoutBackOffs(chain retryChain) retryChain {
	out := make(retryChain, len(chain))
	for i, l := range chain {
		out[i] = l
		out[i].backoff = backOffID{}
		out[i].CountFrom = nil
	}
	return out
}

// closureOf returns the closure a func value is made by, through
// conversions to named func types.
func closureOf(v ssa.Value) *ssa.MakeClosure {
	for {
		switch x := v.(type) {
		case *ssa.MakeClosure:
			return x
		case *ssa.ChangeType:
			v = x.X
		default:
			return nil
		}
	}
}
