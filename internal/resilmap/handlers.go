package resilmap

import (
	"fmt"

	"github.com/resilvet/resilvet/internal/summary"
)

// The handlers the entries run, resolved across the module's packages. A
// registration names the func value it registers as the engine sees it
// there (summary.MapFuncValue): often an adapter's result,
// withLogging(h.List), whose closure calls the handler it was given. The
// builder reads what the adapter returns (its Returns claim, from the
// adapter's own package) with the func values given for its parameters,
// so the walk goes from the adapter's closure into h.List. Where a value
// cannot be named, the entry says why instead of a guess.

// handler is a func value the walk runs: the function, and the func
// values it captured, by free variable; or why the map cannot name it.
type handler struct {
	key      string
	captured map[int]*handler
	why      string // a phrase after "the handler": "is nil"
}

// entryHandler returns what an entry runs: its function, or the func
// value it registers resolved.
func (b *builder) entryHandler(en *summary.MapEntry) *handler {
	if en.Handler == nil {
		return &handler{key: en.Func}
	}
	return b.resolveHandler(*en.Handler, nil, nil, 0)
}

// resolveHandler resolves a func value made where params holds the func
// values given for the function's parameters and captured those its
// closure captured.
func (b *builder) resolveHandler(v summary.MapFuncValue, params, captured map[int]*handler, depth int) *handler {
	if depth > maxDepth {
		return &handler{why: "is wrapped in more adapters than the map follows"}
	}
	switch v.Kind {
	case summary.FuncValueFunc:
		h := &handler{key: v.Key}
		for _, w := range v.With {
			if h.captured == nil {
				h.captured = map[int]*handler{}
			}
			h.captured[w.Index] = b.resolveHandler(w.Value, params, captured, depth+1)
		}
		return h
	case summary.FuncValueCall:
		f := b.funcs[v.Key]
		if f == nil || f.Returns == nil {
			return &handler{why: fmt.Sprintf("is made by %s, whose result the map cannot follow", v.Name)}
		}
		if f.Returns.Kind == summary.FuncValueUnknown {
			return &handler{why: fmt.Sprintf("is made by %s, whose result %s", v.Name, f.Returns.Why)}
		}
		given := map[int]*handler{}
		for _, w := range v.With {
			given[w.Index] = b.resolveHandler(w.Value, params, captured, depth+1)
		}
		return b.resolveHandler(*f.Returns, given, nil, depth+1)
	case summary.FuncValueParam:
		if h := params[v.Index]; h != nil {
			return h
		}
		return &handler{why: "is a parameter of the registering function: the map does not follow the registration back to its callers"}
	case summary.FuncValueCaptured:
		if h := captured[v.Index]; h != nil {
			return h
		}
		return &handler{why: "is a value a closure captured, which the map cannot resolve"}
	}
	return &handler{why: v.Why}
}

// capturedBy returns the func values a closure made on the walk captures,
// resolved where it is made: those the function making it captured
// itself pass on (the handler an adapter's closure hands to a closure of
// its own). Values the walk cannot name are left out: such a closure's
// call of one is not the entry's handler.
func (b *builder) capturedBy(with []summary.MapCapture, captured map[int]*handler) map[int]*handler {
	var out map[int]*handler
	for _, w := range with {
		var h *handler
		if w.Value.Kind == summary.FuncValueCaptured {
			h = captured[w.Value.Index]
		} else if r := b.resolveHandler(w.Value, nil, captured, 0); r.why == "" {
			h = r
		}
		if h == nil {
			continue
		}
		if out == nil {
			out = map[int]*handler{}
		}
		out[w.Index] = h
	}
	return out
}

// inner returns the handler an adapter's closure serves: down through
// closures that each call one captured handler, to the function the
// registration was given.
func (h *handler) inner() *handler {
	for range maxDepth {
		if len(h.captured) != 1 {
			return h
		}
		for _, c := range h.captured {
			if c.why != "" || c.key == "" {
				return h
			}
			h = c
		}
	}
	return h
}

// keys adds the functions a handler runs to set.
func (h *handler) keys(set map[string]bool) {
	if h.key != "" {
		set[h.key] = true
	}
	for _, c := range h.captured {
		c.keys(set)
	}
}
