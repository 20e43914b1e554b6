package summary

import (
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/resilvet/resilvet/internal/analysisutil"
	"github.com/resilvet/resilvet/internal/knowledge"
)

// HTTP clients whose sends retry. A send ((*http.Client).Do, Get, …) goes
// through layers when its client was made by a retrying client
// (retryablehttp's StandardClient) or has a Transport whose RoundTrip
// retries (its retry claim, with a count held in the transport's fields
// filled in where the transport is built). A retrying client's own
// methods are library layers (retrylibs.go); this module gives them their
// count where the client comes from another function. Clients are
// followed through locals, fields and package variables the package alone
// writes, and functions of any package that return one: their
// ReturnsClient claim, a fact.

// httpSends are the *http.Client methods that send.
var httpSends = map[string]bool{
	"(*net/http.Client).Do":       true,
	"(*net/http.Client).Get":      true,
	"(*net/http.Client).Head":     true,
	"(*net/http.Client).Post":     true,
	"(*net/http.Client).PostForm": true,
}

// httpSendLayers returns the layers a send goes through when its client
// retries.
func (e *engine) httpSendLayers(info *fnInfo, c *ssa.CallCommon) (retryChain, bool) {
	if !httpSends[calleeName(c)] {
		return nil, false
	}
	chain := dropDisabled(withoutHedges(e.clientLayers(info.fn, argOf(c, -1))))
	return chain, len(chain) > 0
}

// clientLayers returns the layers every send through the *http.Client v
// (a value of fn) goes through.
func (e *engine) clientLayers(fn *ssa.Function, v ssa.Value) retryChain {
	if fv := loadedVar(stripIface(v)); fv != nil {
		if fv.Pkg() != e.pass.Pkg {
			return fromLinks(e.importedVar(fv).Client)
		}
		if fv.Exported() && !e.soleWriter(fv) {
			// The package's own exported field or variable: what its
			// stores hold, as other packages see it.
			return e.varClient(fv)
		}
	}
	switch x := e.literalOf(stripIface(v)).(type) {
	case *ssa.Call:
		cc := x.Common()
		if link, ok := e.hedgingClient(fn, x); ok {
			return retryChain{link}
		}
		l, ok := knowledge.RetryingHTTPClientOf(calleeName(cc))
		if !ok {
			return e.returnedClient(cc)
		}
		attempts := e.clientAttempts(argOf(cc, -1), l.RetriesField, times(l.DefaultAttempts))
		return retryChain{{RetryLink: RetryLink{
			What:     libraryName(cc),
			Func:     funcDisplay(fn),
			At:       analysisutil.ShortPos(e.pass.Fset, x.Pos()),
			Attempts: int(attempts),
			Client:   true,
		}, pos: x.Pos()}}
	case *ssa.Alloc:
		return e.transportStored(fn, x)
	case nil:
		if p, ok := stripIface(v).(*ssa.Parameter); ok && p.Parent() == fn {
			// A client the function is given and sets a hedging
			// Transport on (dskit's hedging.Client(cfg, c)).
			if chain := e.transportStored(fn, p); hedgeOnly(chain) {
				return chain
			}
		}
	}
	return nil
}

// transportStored returns the layers of the Transport stored into a
// client's field: a hedging round tripper (made here or returned by a
// function), or one whose RoundTrip retries.
func (e *engine) transportStored(fn *ssa.Function, client ssa.Value) retryChain {
	for _, st := range fieldStores(client) {
		if st.field != "Transport" {
			continue
		}
		if made, ok := e.literalOf(stripIface(st.val)).(*ssa.Call); ok {
			if link, ok := e.hedgingClient(fn, made); ok {
				return retryChain{link}
			}
			if chain := e.returnedClient(made.Common()); hedgeOnly(chain) {
				return chain
			}
		}
		return e.transportLayers(st.val)
	}
	return nil
}

// hedgeOnly reports whether a chain is one hedging link.
func hedgeOnly(c retryChain) bool { return len(c) == 1 && c[0].Hedge }

// transportLayers returns the layers of a transport's RoundTrip, with the
// counts its fields hold where the transport is built in sight.
func (e *engine) transportLayers(v ssa.Value) retryChain {
	x := stripIface(v)
	sel := types.NewMethodSet(x.Type()).Lookup(nil, "RoundTrip")
	if sel == nil {
		return nil
	}
	m, ok := sel.Obj().(*types.Func)
	if !ok {
		return nil
	}
	var chain retryChain
	if info := e.byObj[m.Origin()]; info != nil {
		e.retryClaim(info)
		chain = info.retryChain
	} else if s := e.imported(m); s != nil && s.Retries != nil {
		chain = fromLinks(s.Retries.Chain)
	}
	out := withoutBackOffs(chain) // the transport's objects are its own
	for i, l := range chain {
		cf := l.CountFrom
		out[i].CountAdd = 0
		if cf == nil || cf.Param != -1 {
			continue
		}
		if n, ok := e.fieldCount(x, cf.Field); ok {
			out[i].Attempts = int(attemptsOf(n + int64(l.CountAdd)))
		}
	}
	return out
}

// returnedClient returns the ReturnsClient claim of the function a call
// calls.
func (e *engine) returnedClient(c *ssa.CallCommon) retryChain {
	f := calleeFunc(c)
	if f == nil {
		return nil
	}
	if info := e.byObj[f.Origin()]; info != nil {
		return e.returnsClient(info)
	}
	if s := e.imported(f); s != nil {
		return fromLinks(s.ReturnsClient)
	}
	return nil
}

// returnsClient computes (once) the ReturnsClient claim: every value the
// function returns first, other than nil, is an HTTP client whose sends
// go through the same number of attempts. A retrying client with its
// retries turned off is a claim too (one attempt): its callers then know
// it does not retry.
func (e *engine) returnsClient(info *fnInfo) retryChain {
	if info.clientDone {
		return info.client
	}
	info.clientDone = true
	res := info.fn.Signature.Results()
	if res.Len() == 0 {
		return nil
	}
	got := e.heldClient(res.At(0).Type(), returnedValues(info.fn, 0))
	info.client = got
	return got
}

// heldClient returns the layers of the HTTP client of type t that each of
// the values is (nil ones aside), when they agree: a retrying client with
// its count, or an *http.Client whose sends retry.
func (e *engine) heldClient(t types.Type, values []ssa.Value) retryChain {
	layer, retrying := knowledge.RetryingClientType(typeFullName(derefType(t)))
	if isRoundTripper(t) {
		return e.heldRoundTripper(values)
	}
	if !retrying && !analysisutil.IsHTTPClientPtr(t) {
		return nil
	}
	var got retryChain
	for _, v := range values {
		if k, ok := v.(*ssa.Const); ok && k.IsNil() {
			continue
		}
		fn := v.Parent()
		if fn == nil {
			return nil
		}
		var chain retryChain
		if retrying {
			attempts := e.clientAttempts(v, layer.RetriesField, times(layer.DefaultAttempts))
			pos := v.Pos()
			if made := e.literalOf(stripIface(v)); made != nil && made.Pos().IsValid() {
				pos = made.Pos()
			}
			if attempts != timesUnknown {
				chain = retryChain{{RetryLink: RetryLink{
					What:     typeDisplay(derefType(t)),
					Func:     funcDisplay(fn),
					At:       analysisutil.ShortPos(e.pass.Fset, pos),
					Attempts: int(attempts),
					Client:   true,
				}, pos: pos}}
			}
		} else {
			chain = e.clientLayers(fn, v)
		}
		if len(chain) == 0 || got != nil && rank(chain.product()) != rank(got.product()) {
			return nil
		}
		got = chain
	}
	return got
}

// heldRoundTripper returns the hedge link of the round tripper each of
// the values is (nil ones aside), when they all are the same hedging
// one: a function returning one makes its callers' clients hedge.
func (e *engine) heldRoundTripper(values []ssa.Value) retryChain {
	var got retryChain
	for _, v := range values {
		if k, ok := v.(*ssa.Const); ok && k.IsNil() {
			continue
		}
		made, ok := e.literalOf(stripIface(v)).(*ssa.Call)
		if !ok || v.Parent() == nil {
			return nil
		}
		link, ok := e.hedgingClient(v.Parent(), made)
		if !ok || got != nil && got[0].Attempts != link.Attempts {
			return nil
		}
		got = retryChain{link}
	}
	return got
}

// isRoundTripper reports whether t is net/http's RoundTripper interface.
func isRoundTripper(t types.Type) bool {
	n, ok := types.Unalias(t).(*types.Named)
	return ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == "net/http" && n.Obj().Name() == "RoundTripper"
}

// varClient returns the layers of the HTTP client an exported field or
// variable of the package holds on every store the package makes.
func (e *engine) varClient(v *types.Var) retryChain {
	if e.clientBusy[v] {
		return nil // a store of the field's own value: it adds no layer
	}
	e.clientBusy[v] = true
	defer delete(e.clientBusy, v)
	return e.heldClient(v.Type(), e.stores[v])
}

// importedVar returns another package's fact on its field or variable.
func (e *engine) importedVar(v *types.Var) *ValueSummary {
	var vs ValueSummary
	if e.std || v.Pkg() == nil || !e.pass.ImportObjectFact(v, &vs) {
		return &ValueSummary{}
	}
	return &vs
}

// derefType returns what a pointer type points to, or t.
func derefType(t types.Type) types.Type {
	if p, ok := types.Unalias(t).(*types.Pointer); ok {
		return p.Elem()
	}
	return t
}

// typeDisplay names a named type as messages show it ("retryablehttp.Client").
func typeDisplay(t types.Type) string {
	n, ok := types.Unalias(t).(*types.Named)
	if !ok || n.Obj().Pkg() == nil {
		return types.TypeString(t, nil)
	}
	return n.Obj().Pkg().Name() + "." + n.Obj().Name()
}
