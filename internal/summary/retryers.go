package summary

import (
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/resilvet/resilvet/internal/knowledge"
)

// SDK clients that retry with the retryer they were built with
// (knowledge.RetryerConfig: the AWS SDK v2). The count comes, in the
// order the SDK applies them, from the shared config's options
// (config.WithRetryMaxAttempts, config.WithRetryer), the client's option
// functions (o.RetryMaxAttempts = n, o.Retryer = aws.NopRetryer{}), and
// the call's own. A retryer is read when it is one attempt
// (aws.NopRetryer), a count wrapped around another
// (retry.AddWithMaxAttempts) or the standard one with its options. Where
// the client's construction is not in sight the default stands; an option
// function that cannot be seen makes the count unknown.

// retryerState is what the options applied so far set.
type retryerState struct {
	count   times // a count set (0: none)
	retryer times // the retryer's count (0: the default)
	none    bool  // a retryer that makes one attempt
	unknown bool  // an option function not in sight
}

func (s retryerState) attempts(def times) times {
	switch {
	case s.unknown:
		return timesUnknown
	case s.none:
		return 1
	case s.count != 0:
		return s.count
	case s.retryer != 0:
		return s.retryer
	}
	return def
}

// retryerAttempts returns the attempts of a call of an SDK client's
// method (option functions from optsFrom on).
func (e *engine) retryerAttempts(c *ssa.CallCommon, optsFrom int, def times) times {
	pkg := typePkg(argOf(c, -1).Type())
	if pkg == nil {
		return def
	}
	rc, ok := knowledge.RetryerConfigOf(pkg.Path())
	if !ok {
		return def
	}
	var st retryerState
	if made, ok := e.literalOf(stripIface(argOf(c, -1))).(*ssa.Call); ok {
		e.construction(rc, made.Common(), &st)
	}
	if v := argOf(c, optsFrom); v != nil {
		e.optionFuncs(rc, v, &st)
	}
	return st.attempts(def)
}

// construction applies what a client's constructor is given.
func (e *engine) construction(rc knowledge.RetryerConfig, c *ssa.CallCommon, st *retryerState) {
	f := calleeFunc(c)
	if f == nil || f.Pkg() == nil || len(c.Args) < 2 {
		return
	}
	switch f.Name() {
	case rc.FromConfig:
		if load, ok := e.literalOf(c.Args[0]).(*ssa.Call); ok && calleeName(load.Common()) == rc.LoadConfig && len(load.Call.Args) > 0 {
			e.configOptions(rc, load.Call.Args[len(load.Call.Args)-1], st)
		}
	case rc.FromOptions:
		if u, ok := c.Args[0].(*ssa.UnOp); ok {
			if alloc, ok := u.X.(*ssa.Alloc); ok {
				for _, s := range fieldStores(alloc) {
					e.retryerField(rc, s.field, s.val, st)
				}
			}
		}
	default:
		return
	}
	e.optionFuncs(rc, c.Args[len(c.Args)-1], st)
}

// configOptions applies the shared config's options.
func (e *engine) configOptions(rc knowledge.RetryerConfig, v ssa.Value, st *retryerState) {
	opts, ok := sliceElems(v, map[ssa.Value]bool{})
	if !ok {
		return
	}
	for _, o := range opts {
		oc, ok := stripIface(o).(*ssa.Call)
		if !ok || len(oc.Call.Args) != 1 {
			continue
		}
		switch calleeName(oc.Common()) {
		case rc.ConfigMaxAttempts:
			e.setCount(oc.Call.Args[0], st)
		case rc.ConfigRetryer:
			e.setRetryer(e.returnedRetryer(rc, oc.Call.Args[0]), st)
		}
	}
}

// optionFuncs applies option functions func(*Options) given as a
// variadic argument.
func (e *engine) optionFuncs(rc knowledge.RetryerConfig, v ssa.Value, st *retryerState) {
	fns, ok := sliceElems(v, map[ssa.Value]bool{})
	if !ok {
		st.unknown = true
		return
	}
	for _, fv := range fns {
		f := funcValue(fv)
		if f == nil || len(f.Params) == 0 {
			st.unknown = true
			continue
		}
		for _, s := range paramFieldStores(f, f.Params[0]) {
			e.retryerField(rc, s.field, s.val, st)
		}
	}
}

// retryerField applies a store into a field of the client's options.
func (e *engine) retryerField(rc knowledge.RetryerConfig, field string, v ssa.Value, st *retryerState) {
	switch field {
	case rc.MaxAttemptsField:
		e.setCount(v, st)
	case rc.RetryerField:
		e.setRetryer(e.retryerOf(rc, v), st)
	}
}

// setCount applies a count, where 0 keeps what was there.
func (e *engine) setCount(v ssa.Value, st *retryerState) {
	n, ok := e.intOf(v)
	switch {
	case !ok:
		st.unknown = true
	case n > 0:
		st.count = attemptsOf(n)
	}
}

// setRetryer applies a retryer's count (1: one attempt).
func (e *engine) setRetryer(t times, st *retryerState) {
	st.none = t == 1
	st.retryer = t
	if t == timesUnknown {
		st.unknown = true
	}
}

// returnedRetryer returns the count of the retryer a func() Retryer
// returns on every path.
func (e *engine) returnedRetryer(rc knowledge.RetryerConfig, v ssa.Value) times {
	f := funcValue(v)
	if f == nil {
		return timesUnknown
	}
	if f.Signature.Results().Len() != 1 {
		return timesUnknown
	}
	var got times
	for _, r := range returnedValues(f, 0) {
		t := e.retryerOf(rc, r)
		if got != 0 && t != got {
			return timesUnknown
		}
		got = t
	}
	if got == 0 {
		return timesUnknown
	}
	return got
}

// retryerOf returns the count of a retryer value.
func (e *engine) retryerOf(rc knowledge.RetryerConfig, v ssa.Value) times {
	x := stripIface(v)
	if typeFullName(derefType(x.Type())) == rc.NoRetries {
		return 1
	}
	call, ok := x.(*ssa.Call)
	if !ok {
		return timesUnknown
	}
	switch calleeName(call.Common()) {
	case rc.WithMaxAttempts:
		if n, ok := e.intArg(call.Common(), 1); ok && n > 0 {
			return attemptsOf(n)
		}
	case rc.Standard:
		var st retryerState
		if len(call.Call.Args) > 0 {
			fns, ok := sliceElems(call.Call.Args[len(call.Call.Args)-1], map[ssa.Value]bool{})
			if !ok {
				return timesUnknown
			}
			for _, fv := range fns {
				f := funcValue(fv)
				if f == nil || len(f.Params) == 0 {
					return timesUnknown
				}
				for _, s := range paramFieldStores(f, f.Params[0]) {
					if s.field == rc.StandardField {
						e.setCount(s.val, &st)
					}
				}
			}
		}
		return st.attempts(times(rc.StandardAttempts))
	}
	return timesUnknown
}

// paramFieldStores lists the stores a function makes into fields of the
// struct its parameter p points to (an option function's o.Field = v).
func paramFieldStores(f *ssa.Function, p *ssa.Parameter) []fieldStore {
	var out []fieldStore
	st, ok := structOf(p.Type())
	if !ok {
		return nil
	}
	if _, ptr := p.Type().Underlying().(*types.Pointer); !ptr {
		return nil
	}
	for _, b := range f.Blocks {
		for _, instr := range b.Instrs {
			s, ok := instr.(*ssa.Store)
			if !ok {
				continue
			}
			if fa, ok := s.Addr.(*ssa.FieldAddr); ok && fa.X == p {
				out = append(out, fieldStore{st.Field(fa.Field).Name(), s.Val})
			}
		}
	}
	return out
}
