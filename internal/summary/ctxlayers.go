package summary

import (
	"go/token"

	"golang.org/x/tools/go/ssa"

	"github.com/resilvet/resilvet/internal/knowledge"
)

// A library layer that is not given the caller's context (retry-go's Do
// without retry.Context(ctx), backoff v4's Retry with a backoff not
// wrapped by WithContext, a failsafe-go executor without WithContext)
// goes on retrying after the caller gave up: once the request is
// cancelled or past its deadline, every attempt fails with the context's
// error and the layer sleeps and tries again until its count or time
// runs out. retrystack reports it (category ctxerr) where a context is in
// scope and the layer retries outbound work.

// CtxlessLayer is a library layer's call not given the context in scope.
type CtxlessLayer struct {
	Pos token.Pos
	// What names the layer ("retry.Do"), Hint how to give it the context.
	What, Hint string
}

// CtxlessLayers lists the package's library layers not given the context
// in scope, in source order.
func (r *Result) CtxlessLayers() []*CtxlessLayer { r.ready(); return r.ctxless }

// ctxlessLayer records the library layer's call c when a context is in
// scope and the layer is not given one.
func (e *engine) ctxlessLayer(info *fnInfo, c *ssa.CallCommon, l knowledge.RetryLayer) {
	if l.ContextHint == "" || !hasContext(info.fn) || e.givenContext(c, l) {
		return
	}
	for _, x := range e.res.ctxless {
		if x.Pos == c.Pos() {
			return // the call is visited again in each round
		}
	}
	e.res.ctxless = append(e.res.ctxless, &CtxlessLayer{Pos: c.Pos(), What: libraryName(c), Hint: l.ContextHint})
}

// givenContext reports whether the layer's call hands it a context: the
// option among its arguments (found through the wrappers around a
// backoff value), or the method on the way back to the executor's
// construction. A value it cannot follow counts as given.
func (e *engine) givenContext(c *ssa.CallCommon, l knowledge.RetryLayer) bool {
	if l.ContextMethod != "" {
		v := argOf(c, -1)
		for range 8 {
			made, ok := e.literalOf(stripIface(v)).(*ssa.Call)
			if !ok {
				return true
			}
			mc := made.Common()
			if !mc.IsInvoke() {
				_, executor := knowledge.ExecutorFrom(calleeName(mc))
				return !executor
			}
			if mc.Method.Name() == l.ContextMethod {
				return true
			}
			v = mc.Value
		}
		return true
	}
	for i := l.OptionsFrom; ; i++ {
		v := argOf(c, i)
		if v == nil {
			return false
		}
		given, known := e.holdsOption(v, l.ContextOption, 0)
		if given || !known {
			return true
		}
	}
}

// holdsOption reports whether v is, or is built from, a call of the named
// option: through variadic lists and the calls wrapping it (a backoff
// passed through WithMaxRetries); known is false when v cannot be
// followed (a parameter, a value from elsewhere).
func (e *engine) holdsOption(v ssa.Value, option string, depth int) (given, known bool) {
	if depth > 4 {
		return false, false
	}
	v = stripIface(v)
	switch v.(type) {
	case *ssa.Const:
		return false, true
	case *ssa.Parameter, *ssa.FreeVar:
		return false, false // the caller's: it may carry the context
	}
	if elems, ok := sliceElems(v, map[ssa.Value]bool{}); ok {
		if _, isSlice := v.(*ssa.Slice); isSlice {
			for _, el := range elems {
				if g, k := e.holdsOption(el, option, depth+1); g || !k {
					return g, k
				}
			}
			return false, true
		}
	}
	call, ok := e.literalOf(v).(*ssa.Call)
	if !ok {
		return false, false
	}
	if calleeName(call.Common()) == option {
		return true, true
	}
	known = true
	for _, a := range call.Call.Args {
		g, k := e.holdsOption(a, option, depth+1)
		if g {
			return true, true
		}
		known = known && k
	}
	return false, known
}
