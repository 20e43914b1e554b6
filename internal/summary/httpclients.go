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
	chain := dropDisabled(e.clientLayers(info, argOf(c, -1)))
	return chain, len(chain) > 0
}

// clientLayers returns the layers every send through the *http.Client v
// goes through.
func (e *engine) clientLayers(info *fnInfo, v ssa.Value) retryChain {
	switch x := e.literalOf(stripIface(v)).(type) {
	case *ssa.Call:
		cc := x.Common()
		l, ok := knowledge.RetryingHTTPClientOf(calleeName(cc))
		if !ok {
			return e.returnedClient(cc)
		}
		attempts := e.clientAttempts(argOf(cc, -1), l.RetriesField, times(l.DefaultAttempts))
		return retryChain{{RetryLink: RetryLink{
			What:     libraryName(cc),
			Func:     funcDisplay(info.fn),
			At:       analysisutil.ShortPos(e.pass.Fset, x.Pos()),
			Attempts: int(attempts),
			Client:   true,
		}, pos: x.Pos()}}
	case *ssa.Alloc:
		for _, st := range fieldStores(x) {
			if st.field == "Transport" {
				return e.transportLayers(st.val)
			}
		}
	}
	return nil
}

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
	t := res.At(0).Type()
	layer, retrying := knowledge.RetryingClientType(typeFullName(derefType(t)))
	if !retrying && !analysisutil.IsHTTPClientPtr(t) {
		return nil
	}
	var got retryChain
	for _, b := range info.fn.Blocks {
		ret, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return)
		if !ok {
			continue
		}
		v := ret.Results[0]
		if k, ok := v.(*ssa.Const); ok && k.IsNil() {
			continue
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
					Func:     funcDisplay(info.fn),
					At:       analysisutil.ShortPos(e.pass.Fset, pos),
					Attempts: int(attempts),
					Client:   true,
				}, pos: pos}}
			}
		} else {
			chain = e.clientLayers(info, v)
		}
		if len(chain) == 0 || got != nil && rank(chain.product()) != rank(got.product()) {
			return nil
		}
		got = chain
	}
	info.client = got
	return got
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
