package summary

import (
	"go/token"
	"go/types"
	"slices"
	"sort"

	"golang.org/x/tools/go/ssa"

	"github.com/resilvet/resilvet/internal/knowledge"
)

// The retry claim module: which retry layers a call of a function goes
// through, and how they multiply. A layer is a hand-written loop that
// goes round again when a call failed (retryloops.go), a retry library's
// call from the knowledge table with the options that change its count,
// a retrying client's method (retrylibs.go), or a helper that retries
// the func it is given (the Params of its claim). The claim (Retries)
// holds the path with the most attempts, the func parameters the
// function retries, and whether it does outbound work; it is computed
// callees first, so a caller's layers multiply with its callees' across
// functions, closures and packages. Read by retrystack: each place where
// a layer wraps a call that retries is a nest (Result.RetryNests), and
// each hand-written layer is described for its own categories
// (retrycats.go, Result.RetryLoops).

// chainLink is a retry layer with its position when it is in this
// package (NoPos for another package's, known by its At text only).
type chainLink struct {
	RetryLink
	pos token.Pos
	// backoff is the backoff object the layer draws on, in the function
	// holding the chain (retryshare.go).
	backoff backOffID
}

// retryChain is a path of layers, outermost first.
type retryChain []chainLink

// effective reports, for each layer of c, whether it multiplies: a
// runtime layer without AllowNested makes one attempt inside another
// runtime layer (it finds the outer attempt in its context), and a layer
// drawing on the backoff object a layer around it draws on spends the
// same budget.
func (c retryChain) effective() []bool { return c.effectiveBelow(false) }

// effectiveBelow is effective for a chain whose caller is inside a
// runtime layer when runtimeAbove is set.
func (c retryChain) effectiveBelow(runtimeAbove bool) []bool {
	out := make([]bool, len(c))
	var drawn []backOffID
	for i, l := range c {
		shared := l.backoff.v != nil && slices.Contains(drawn, l.backoff)
		out[i] = !(l.Runtime && !l.Nested && runtimeAbove) && !shared
		if l.Runtime {
			runtimeAbove = true
		}
		if l.backoff.v != nil {
			drawn = append(drawn, l.backoff)
		}
	}
	return out
}

// product is the number of attempts the innermost operation gets.
func (c retryChain) product() times { return c.productBelow(false) }

// productBelow is the product for a caller inside a runtime layer
// (runtime true), where the chain's runtime layers yield.
func (c retryChain) productBelow(runtime bool) times {
	t := times(1)
	for i, eff := range c.effectiveBelow(runtime) {
		if eff {
			t = t.mul(times(c[i].Attempts))
		}
	}
	return t
}

// rank orders products for "the path with the most attempts":
// unbounded first, then larger counts, then unknown ones.
func rank(t times) int {
	switch t {
	case timesUnbounded:
		return maxTimes + 1
	case timesUnknown:
		return 0
	}
	return int(t)
}

// links returns c's layers as they travel in facts, capped, with the
// backoff objects that are fn's parameters.
func (c retryChain) links(fn *ssa.Function) []RetryLink {
	out := make([]RetryLink, 0, min(len(c), maxChain))
	for _, l := range c {
		if len(out) == maxChain {
			break
		}
		link := l.RetryLink
		link.BackOff = backOffRef(fn, l.backoff)
		out = append(out, link)
	}
	return out
}

func fromLinks(ls []RetryLink) retryChain {
	out := make(retryChain, len(ls))
	for i, l := range ls {
		out[i] = chainLink{RetryLink: l}
	}
	return out
}

func concat(cs ...retryChain) retryChain {
	var out retryChain
	for _, c := range cs {
		out = append(out, c...)
	}
	return out
}

// RetryNest is a place where retry layers stack: layers of a function
// (Outer) wrap a call into code that retries (Inner).
type RetryNest struct {
	// Pos is the call into retrying code (or, for a library layer given a
	// function from elsewhere, the library call).
	Pos token.Pos
	// Func names the function holding the call.
	Func string
	// Outer and Inner are the layers, outermost first; OuterPos and
	// InnerPos their positions (NoPos for another package's layers).
	Outer, Inner       []RetryLink
	OuterPos, InnerPos []token.Pos
	// Product is the attempts the innermost operation gets per call of
	// the outermost layer: a count, unbounded (-1) or unknown (0).
	Product int
}

// RetryNests lists the places in the package where retry layers stack,
// in source order.
func (r *Result) RetryNests() []*RetryNest { r.ready(); return r.retryNests }

// candidate is what one call contributes to its caller's chains: the
// layers the call itself makes (a library layer around the func it is
// given, a retrying helper's layers), then the layers inside what it
// runs; at is where the nest is reported.
type candidate struct {
	layers, sub retryChain
	at          token.Pos
}

// retryClaims computes the retry claim of every function, callees first.
func (e *engine) retryClaims(order [][]*ssa.Function) {
	for _, scc := range order {
		for _, fn := range scc {
			e.retryClaim(e.local[fn])
		}
	}
	e.interfaceRetries()
	sort.Slice(e.res.retryNests, func(i, j int) bool { return e.res.retryNests[i].Pos < e.res.retryNests[j].Pos })
	sort.Slice(e.res.retryLoops, func(i, j int) bool { return e.res.retryLoops[i].Pos < e.res.retryLoops[j].Pos })
	sort.Slice(e.res.openPolicies, func(i, j int) bool { return e.res.openPolicies[i].Pos < e.res.openPolicies[j].Pos })
	sort.Slice(e.res.ctxless, func(i, j int) bool { return e.res.ctxless[i].Pos < e.res.ctxless[j].Pos })
}

// retryClaim computes one function's claim and records its nests, once:
// a function met as a value before its turn (a method value, whose
// wrapper the call graph does not order) is computed then; one that is
// being computed (recursion) has no claim yet.
func (e *engine) retryClaim(info *fnInfo) {
	if info.retryDone {
		return
	}
	info.retryDone = true
	info.remote = e.doesRemote(info)
	loops := e.retryLoops(info)
	var best, under retryChain
	var bestAt, underAt token.Pos
	var params []RetriedParam
	if link, retries, method := e.callOptionLayer(info); method {
		// A generated client's method: outbound work, retried by its
		// default call options.
		info.remote = true
		if retries {
			best, bestAt = retryChain{link}, link.pos
		}
	}
	for _, instr := range info.ix.calls {
		around := aroundCall(info, loops, instr)
		cands := e.candidates(info, instr)
		if len(cands) == 0 && len(around) > 0 && e.callRemote(instr.Common()) {
			// Outbound work inside the function's own layers. Local work
			// tried again (a parser given another checker) is no layer
			// anyone downstream feels.
			cands = []candidate{{at: instr.Pos()}}
		}
		for _, cand := range cands {
			full := concat(around, cand.layers, cand.sub)
			if len(full) == 0 {
				continue
			}
			if p := full.product(); best == nil || rank(p) > rank(best.product()) || rank(p) == rank(best.product()) && len(full) > len(best) {
				best, bestAt = full, cand.at
			}
			if p := full.productBelow(true); under == nil || rank(p) > rank(under.productBelow(true)) {
				under, underAt = full, cand.at
			}
			// Where the function's own loops wrap the call, the nest is
			// the call, with everything it retries inside; where they do
			// not, a library layer or helper wrapping a closure nests at
			// the closure's call into retrying code.
			switch {
			case len(around) > 0:
				e.recordNest(info, around, concat(cand.layers, cand.sub), instr.Pos())
			case len(cand.sub) == 0 && len(cand.layers) > 1:
				// A helper whose own layers stack around the func it is
				// given: they meet outbound work here.
				e.recordNest(info, cand.layers[:1], cand.layers[1:], cand.at)
			default:
				e.recordNest(info, cand.layers, cand.sub, cand.at)
			}
		}
		params = e.retriedParams(info, instr, around, params)
	}
	if best == nil && params == nil {
		if info.remote {
			info.retry = &Retries{Outbound: true}
		}
		return
	}
	info.retry = &Retries{Params: params, Outbound: info.remote}
	if best != nil {
		info.retry.Product, info.retry.Chain = int(best.product()), best.links(info.fn)
		info.retryChain, info.retryAt = best, bestAt
		if rank(under.productBelow(true)) > rank(best.productBelow(true)) {
			// Inside a runtime layer, another path retries more.
			info.retry.UnderRuntime = under.links(info.fn)
			info.retryUnder, info.retryUnderAt = under, underAt
		}
	}
}

// recordNest records a nest when both the outer and the inner part hold
// a layer that multiplies.
func (e *engine) recordNest(info *fnInfo, outer, inner retryChain, at token.Pos) {
	if len(outer) == 0 || len(inner) == 0 || !at.IsValid() {
		return
	}
	full := concat(outer, inner)
	eff := full.effective()
	outerEff, innerEff := false, false
	for i, ok := range eff {
		if ok && full[i].Attempts != 1 {
			if i < len(outer) {
				outerEff = true
			} else {
				innerEff = true
			}
		}
	}
	if !outerEff || !innerEff {
		return
	}
	for _, n := range e.res.retryNests {
		if n.Pos == at {
			if p := full.product(); rank(times(n.Product)) > rank(p) || rank(times(n.Product)) == rank(p) && len(n.Outer)+len(n.Inner) >= len(full) {
				return
			}
			e.res.retryNests = removeNest(e.res.retryNests, n)
			break
		}
	}
	// Layers that do not multiply (a runtime layer inside another) and
	// disabled ones are left out of what is reported.
	n := &RetryNest{Pos: at, Func: funcDisplay(info.fn), Product: int(full.product())}
	for i, l := range full {
		if !eff[i] || l.Attempts == 1 {
			continue
		}
		if i < len(outer) {
			n.Outer, n.OuterPos = append(n.Outer, l.RetryLink), append(n.OuterPos, l.pos)
		} else {
			n.Inner, n.InnerPos = append(n.Inner, l.RetryLink), append(n.InnerPos, l.pos)
		}
	}
	e.res.retryNests = append(e.res.retryNests, n)
}

func removeNest(ns []*RetryNest, n *RetryNest) []*RetryNest {
	for i, m := range ns {
		if m == n {
			return append(ns[:i], ns[i+1:]...)
		}
	}
	return ns
}

// aroundCall returns the retry loops around a call, outermost first: the
// loops that go round again when it fails. A loop the call's failure
// leaves (a connection taken again between attempts, whose own failure
// ends the loop) calls it once a round but does not retry it.
func aroundCall(info *fnInfo, loops map[*loop]*loopLayer, instr ssa.CallInstruction) retryChain {
	var out retryChain
	for l := info.ix.loopOf[instr.Block()]; l != nil; l = l.parent {
		if ll := loops[l]; ll != nil && !failureLeaves(l, instr) {
			out = append(retryChain{ll.link}, out...)
		}
	}
	return out
}

// failureLeaves reports whether the loop tests the call's error and,
// when it failed, leaves without going round again.
func failureLeaves(l *loop, call ssa.CallInstruction) bool {
	v, ok := call.(ssa.Value)
	if !ok {
		return false
	}
	for _, b := range l.inOrder() {
		errv, failed, _, ok := nilTest(b)
		if !ok || !isErrorType(errv.Type()) {
			continue
		}
		if ex, ok := errv.(*ssa.Extract); ok {
			errv = ex.Tuple
		}
		if errv != v {
			continue
		}
		return !reachesHeader(l, failed)
	}
	return false
}

// reachesHeader reports whether control can go from b round the loop
// again without leaving it.
func reachesHeader(l *loop, b *ssa.BasicBlock) bool {
	seen := map[*ssa.BasicBlock]bool{}
	stack := []*ssa.BasicBlock{b}
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if n == l.header {
			return true
		}
		if seen[n] || !l.body[n] {
			continue
		}
		seen[n] = true
		stack = append(stack, n.Succs...)
	}
	return false
}

// candidates returns what a call contributes to chains: a library
// layer, a retrying helper, a callee whose calls go through layers.
func (e *engine) candidates(info *fnInfo, instr ssa.CallInstruction) []candidate {
	c := instr.Common()
	at := instr.Pos()
	if !at.IsValid() {
		at = c.Pos()
	}
	if link, ok := e.grpcLayer(info, c); ok {
		// A call on a connection dialled with retries.
		return []candidate{{sub: retryChain{link}, at: at}}
	}
	if sub, ok := e.httpSendLayers(info, c); ok {
		// A send with a client whose transport retries.
		return []candidate{{sub: sub, at: at}}
	}
	if l, ok := e.retryLayerAt(c); ok {
		link, ok := e.libraryLink(info, c, l)
		var layers retryChain
		if ok {
			layers = retryChain{link}
		}
		if l.FuncArg < 0 {
			// A retrying client's method: its attempts are the operation.
			return []candidate{{sub: layers, at: at}}
		}
		runs, remote := e.runs(argOf(c, l.FuncArg), at)
		if !remote {
			return nil // a parameter (retriedParams), or local work
		}
		if ok {
			e.ctxlessLayer(info, c, l)
		}
		return withLayers(layers, runs)
	}
	if cands, ok := e.callOptionCandidates(info, c, at); ok {
		// Retries turned on or off by the call's own options.
		return cands
	}
	var out []candidate
	s := e.retriesOf(c)
	if s == nil {
		return nil
	}
	if len(s.Chain) > 0 {
		out = append(out, candidate{sub: e.calleeChain(c, s, false), at: at})
	}
	if len(s.UnderRuntime) > 0 {
		out = append(out, candidate{sub: e.calleeChain(c, s, true), at: at})
	}
	for _, rp := range s.Params {
		layers := e.atCall(c, nil, fromLinks(rp.Chain))
		if rp.CountParam >= 0 && len(layers) > 0 {
			if n, ok := e.intArg(c, rp.CountParam); ok {
				layers[len(layers)-1].Attempts = int(attemptsOf(n))
			}
		}
		layers = dropDisabled(layers)
		runs, remote := e.runs(argOf(c, rp.Param), at)
		if !remote {
			continue
		}
		out = append(out, withLayers(layers, runs)...)
	}
	return out
}

// withLayers returns the candidates of layers around each of the paths a
// func value runs.
func withLayers(layers retryChain, runs []candidate) []candidate {
	for i := range runs {
		runs[i].layers = layers
	}
	return runs
}

// calleeChain returns a callee's chain (its path for callers inside a
// runtime layer when under is set), with positions when the callee is in
// this package.
func (e *engine) calleeChain(c *ssa.CallCommon, s *Retries, under bool) retryChain {
	if fn := c.StaticCallee(); fn != nil {
		if fn.Origin() != nil {
			fn = fn.Origin()
		}
		if info := e.local[fn]; info != nil && info.retryChain != nil {
			if under {
				return e.atCall(c, fn, info.retryUnder)
			}
			return e.atCall(c, fn, info.retryChain)
		}
	}
	if under {
		return e.atCall(c, nil, fromLinks(s.UnderRuntime))
	}
	return e.atCall(c, nil, fromLinks(s.Chain))
}

// retriesOf returns the retry claim of the called function.
func (e *engine) retriesOf(c *ssa.CallCommon) *Retries {
	if fn := c.StaticCallee(); fn != nil {
		if fn.Origin() != nil {
			fn = fn.Origin()
		}
		if info := e.local[fn]; info != nil {
			e.retryClaim(info)
			return info.retry
		}
	}
	if targets, ok := e.dynamicTargets(c); ok {
		var best *Retries
		for _, t := range targets {
			if s := e.summaryOfFunc(t.method); s != nil && s.Retries != nil && (best == nil || rank(times(s.Retries.Product)) > rank(times(best.Product))) {
				best = s.Retries
			}
		}
		return best
	}
	if s := e.imported(calleeFunc(c)); s != nil {
		return s.Retries
	}
	return nil
}

// runs returns what a call handing over a func value runs: its chain,
// where the nest is reported (the closure's call into retrying code, or
// at, the call itself), and whether it does outbound work; and, when the
// func value has one, its path for callers inside a runtime layer as a
// second candidate (Retries.UnderRuntime).
func (e *engine) runs(v ssa.Value, at token.Pos) ([]candidate, bool) {
	paths, remote := e.funcValueChains(v)
	var out []candidate
	for _, p := range paths {
		sub := p.sub
		if mc := closureOf(v); mc != nil {
			sub = inParent(mc, sub)
		} else {
			sub = withoutBackOffs(sub) // another function's objects
		}
		subAt := p.at
		if !subAt.IsValid() {
			subAt = at
		}
		out = append(out, candidate{sub: sub, at: subAt})
	}
	return out, remote
}

// funcValueChains returns the paths of the function a func value is (a
// closure, a named function, a method value): its chain and, when it
// differs, its path for callers inside a runtime layer, each with where
// its call into retrying code is when it is a closure of this package;
// and whether it does outbound work. A func value that is a parameter,
// or a function doing local work, grounds no chain.
func (e *engine) funcValueChains(v ssa.Value) ([]candidate, bool) {
	f := funcValue(v)
	if f == nil {
		return nil, false
	}
	f = wrapped(f)
	if f.Origin() != nil {
		f = f.Origin() // a generic function's instance: its summary
	}
	info := e.local[f]
	if info == nil {
		obj, ok := f.Object().(*types.Func)
		if !ok {
			return nil, false
		}
		if info = e.byObj[obj]; info == nil {
			s := e.imported(obj)
			if s == nil || s.Retries == nil {
				return nil, false
			}
			out := []candidate{{sub: fromLinks(s.Retries.Chain)}}
			if len(s.Retries.UnderRuntime) > 0 {
				out = append(out, candidate{sub: fromLinks(s.Retries.UnderRuntime)})
			}
			return out, s.Retries.Outbound
		}
	}
	e.retryClaim(info)
	if info.retry == nil {
		return []candidate{{}}, info.remote
	}
	out := []candidate{{sub: info.retryChain, at: info.retryAt}}
	if info.retryUnder != nil {
		out = append(out, candidate{sub: info.retryUnder, at: info.retryUnderAt})
	}
	if f.Parent() == nil {
		// A named function: the nest is where it is handed over.
		for i := range out {
			out[i].at = token.NoPos
		}
	}
	return out, info.remote
}

// retriedParams adds the func parameters the call retries: called
// directly inside the function's loops, handed to a library layer or to
// a helper that retries it.
func (e *engine) retriedParams(info *fnInfo, instr ssa.CallInstruction, around retryChain, params []RetriedParam) []RetriedParam {
	c := instr.Common()
	var add func(v ssa.Value, chain retryChain, countParam int)
	add = func(v ssa.Value, chain retryChain, countParam int) {
		if p := funcParam(info.fn, v); p != nil {
			if len(chain) == 0 {
				return
			}
			idx := sigIndex(info.fn, p)
			for _, q := range params {
				if q.Param == idx {
					return
				}
			}
			params = append(params, RetriedParam{Param: idx, Chain: chain.links(info.fn), CountParam: countParam})
			return
		}
		if fv := freeVarOf(v); fv != nil {
			// A closure calling what its enclosing function captured:
			// the enclosing function's layers around the closure apply.
			if old, ok := info.retriedFree[fv]; !ok || len(chain) > len(old) {
				if info.retriedFree == nil {
					info.retriedFree = map[*ssa.FreeVar]retryChain{}
				}
				info.retriedFree[fv] = chain
			}
			return
		}
		mc, ok := v.(*ssa.MakeClosure)
		if !ok {
			return
		}
		cl := e.local[mc.Fn.(*ssa.Function)]
		if cl == nil {
			return
		}
		e.retryClaim(cl)
		for i, fv := range cl.fn.FreeVars {
			inner, ok := cl.retriedFree[fv]
			if !ok {
				continue
			}
			b := mc.Bindings[i]
			if p := boundParam(info.fn, b); p != nil {
				b = p
			}
			add(b, concat(chain, inner), -1)
		}
	}
	if !c.IsInvoke() {
		add(c.Value, around, e.loopCountParam(info, instr.Block()))
	}
	if l, ok := e.retryLayerAt(c); ok && l.FuncArg >= 0 {
		if link, ok := e.libraryLink(info, c, l); ok {
			add(argOf(c, l.FuncArg), concat(around, retryChain{link}), -1)
		} else {
			add(argOf(c, l.FuncArg), around, -1)
		}
		return params
	}
	if s := e.retriesOf(c); s != nil {
		for _, rp := range s.Params {
			add(argOf(c, rp.Param), concat(around, fromLinks(rp.Chain)), -1)
		}
	}
	return params
}

// loopCountParam returns the parameter holding the attempts of the
// innermost retry loop around b, or -1.
func (e *engine) loopCountParam(info *fnInfo, b *ssa.BasicBlock) int {
	for l := info.ix.loopOf[b]; l != nil; l = l.parent {
		if ll := info.retryLoops[l]; ll != nil {
			return ll.countParam
		}
	}
	return -1
}

// attemptsOf turns a count into the times lattice: at least one attempt.
func attemptsOf(n int64) times {
	switch {
	case n <= 1:
		return 1
	case n > maxTimes:
		return timesUnbounded
	}
	return times(n)
}

// dropDisabled removes layers of one attempt.
func dropDisabled(c retryChain) retryChain {
	out := c[:0:0]
	for _, l := range c {
		if l.Attempts != 1 {
			out = append(out, l)
		}
	}
	return out
}

// interfaceRetries gives each interface method of the package the union
// of its implementations' retry claims: outbound when one is, the path
// with the most attempts. A generated gRPC client's interface carries
// its Invoke to callers in other packages this way, so their loops
// around it are retry layers. Kept apart from the other interface claims
// (ifaceSums), which the other modules read for what they are about.
func (e *engine) interfaceRetries() {
	for m, infos := range e.ifaceImpls {
		var out *Retries
		for _, info := range infos {
			r := info.retry
			if r == nil {
				continue
			}
			if out == nil {
				out = &Retries{}
			}
			out.Outbound = out.Outbound || r.Outbound
			if len(r.Chain) > 0 && (len(out.Chain) == 0 || rank(times(r.Product)) > rank(times(out.Product))) {
				out.Product, out.Chain = r.Product, r.Chain
			}
		}
		if out != nil {
			e.ifaceRetries[m] = out
		}
	}
}

// doesRemote reports whether fn does outbound work on a remote peer,
// itself, through its callees, or in the closures it makes.
func (e *engine) doesRemote(info *fnInfo) bool {
	for _, instr := range info.ix.calls {
		if e.callRemote(instr.Common()) {
			return true
		}
	}
	for _, mc := range info.ix.closures {
		if cl := e.local[mc.Fn.(*ssa.Function)]; cl != nil {
			e.retryClaim(cl)
			if cl.remote {
				return true
			}
		}
	}
	return false
}

// callRemote reports whether a call does outbound work on a remote peer:
// a call of the table (not SQL on an in-process database, not a Unix
// socket), or of a function whose claim says it does.
func (e *engine) callRemote(c *ssa.CallCommon) bool {
	// Asked for each call once by the function's claim, again by each
	// retry loop around it: memoised.
	if r, ok := e.remoteCalls[c]; ok {
		return r
	}
	r := e.computeCallRemote(c)
	e.remoteCalls[c] = r
	return r
}

func (e *engine) computeCallRemote(c *ssa.CallCommon) bool {
	name := calleeName(c)
	if c.IsInvoke() && knowledge.SendsThroughInterface(name) {
		return true
	}
	if o, ok := e.ext.OutboundOf(name); ok && e.outboundApplies(c, o) {
		return !e.localOutbound(c, name, o)
	}
	if l, ok := retryLayerOf(c); ok {
		if l.FuncArg < 0 {
			return true // a retrying client's request
		}
		_, remote := e.funcValueChains(argOf(c, l.FuncArg))
		return remote
	}
	s := e.retriesOf(c)
	if s == nil {
		return false
	}
	if s.Outbound {
		return true
	}
	// A helper that runs what it is given: remote when that is.
	for _, rp := range s.Params {
		if _, remote := e.funcValueChains(argOf(c, rp.Param)); remote {
			return true
		}
	}
	return false
}
