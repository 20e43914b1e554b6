package summary

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"net/http"
	"sort"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/resilvet/resilvet/internal/analysisutil"
	"github.com/resilvet/resilvet/internal/knowledge"
)

// The effects claim module: what a call of a function does that is not
// idempotent, so that running it twice (a hedged copy, a retry after a
// timeout) may do it twice. An HTTP POST or PATCH whose request carries
// no idempotency key set before it is sent; an SQL INSERT without an
// upsert clause or an UPDATE adding to a column, read from the constant
// statement; a publish or a mail, by table; a gRPC method named for
// creating (CreateOrder, SendMail), unless configured idempotent. Effects
// travel up through callees, closures run by the function and the func
// values its callees call, and across packages as the Effects fact; a
// send of a request the function is given is decided by each caller, on
// the request it passes. A function documented //resilvet:idempotent has
// no effects: its author vouches for it. Read by the hedges module
// (hedges.go) and, through it, by hedgeidem.

// maxEffects caps a function's effects: one is enough to report, a few
// tell the reader what kind of work it is.
const maxEffects = 3

// IdempotentDirective marks a function its author vouches is idempotent.
const IdempotentDirective = "//resilvet:idempotent"

// effect is an Effect with the positions of its chain where they are in
// this package (NoPos elsewhere), for Diagnostic.Related.
type effect struct {
	Effect
	pos []token.Pos
	// made is the call building the request sent, when the effect is a
	// send of a request made in the function reporting it (for the fix).
	made *ssa.Call
	// layerPos is where the layer of a layered send is built.
	layerPos token.Pos
	// paramFn is, for a send of a request parameter, the function whose
	// parameter it is: a closure's effects can name its enclosing
	// function's (a request captured from it). nil in facts, where it is
	// the summarised function's own.
	paramFn *ssa.Function
}

// effectsOf computes (once) the Effects claim of a local function.
func (e *engine) effectsOf(info *fnInfo) []effect {
	if info.effectsDone {
		return info.effects
	}
	info.effectsDone = true // recursion: a function met again has none yet
	if vouched(info.fn) {
		return nil
	}
	var out []effect
	for _, instr := range info.ix.calls {
		out = addEffects(out, e.callEffects(info, instr))
	}
	info.effects = out
	return out
}

// vouched reports whether fn's declaration carries the idempotent
// directive.
func vouched(fn *ssa.Function) bool {
	decl, ok := fn.Syntax().(*ast.FuncDecl)
	if !ok || decl.Doc == nil {
		return false
	}
	for _, c := range decl.Doc.List {
		if c.Text == IdempotentDirective || strings.HasPrefix(c.Text, IdempotentDirective+" ") {
			return true
		}
	}
	return false
}

// addEffects adds effects to a list, without repeats (same kind, what and
// request parameter), up to the cap.
func addEffects(list []effect, more []effect) []effect {
	for _, m := range more {
		dup := false
		for _, l := range list {
			if l.Kind == m.Kind && l.What == m.What && sameRef(l.Request, m.Request) {
				dup = true
				break
			}
		}
		if !dup && len(list) < maxEffects {
			list = append(list, m)
		}
	}
	return list
}

func sameRef(a, b *ParamRef) bool { return a == nil && b == nil || a != nil && b != nil && *a == *b }

// callEffects returns the effects of one call: its own (a table entry,
// an SQL statement, a gRPC method, a request sent) or its callee's, and
// those of the func values it hands to callees that call them.
func (e *engine) callEffects(info *fnInfo, instr ssa.CallInstruction) []effect {
	c := instr.Common()
	name := calleeName(c)
	here := Link{Func: calleeDisplay(c), At: analysisutil.ShortPos(e.pass.Fset, c.Pos())}
	own := func(kind, what, why string) []effect {
		return []effect{{Effect: Effect{Kind: kind, What: what, Why: why, Chain: []Link{here}}, pos: []token.Pos{c.Pos()}}}
	}
	if knowledge.IdempotentByProtocol(name) {
		return nil
	}
	if ec, ok := knowledge.EffectOf(name); ok {
		if e.ownLibrary(calleeFunc(c)) {
			// A library's own calls of its API are its protocol (a
			// client acknowledging, replying to flow control), not
			// its users' effects.
			return nil
		}
		switch {
		case ec.Kind == "publish":
			return own("publish", here.Func, "publishes a message with "+here.Func)
		case ec.Kind == "mail":
			return own("mail", here.Func, "sends mail with "+here.Func)
		case ec.Method != "":
			if e.readsOverPost(c) {
				return nil
			}
			return own("http", ec.Method+" request", "sends a "+ec.Method+" request with "+here.Func+", which cannot carry an idempotency key")
		case ec.Request >= 0:
			return e.sendEffects(info, instr, argOf(c, ec.Request), here)
		}
	}
	if name == knowledge.FailsafeHTTPRequestDo {
		if made, ok := e.literalOf(argOf(c, -1)).(*ssa.Call); ok && calleeName(made.Common()) == knowledge.FailsafeHTTPNewRequest {
			return e.sendEffects(info, instr, made.Call.Args[0], here)
		}
		return nil
	}
	if o, ok := e.ext.OutboundOf(name); ok && o.Kind == knowledge.SQL {
		return e.sqlEffects(c, here)
	}
	if target, service, method := grpcTarget(c); target != nil && method != "" {
		if prefix := e.grpcNotIdempotent(service, method); prefix != "" {
			return own("grpc", here.Func, "calls "+here.Func+", whose name ("+prefix+"…) says it creates or adds")
		}
		return nil
	}
	out := e.calleeEffects(info, instr, here)
	// Func values handed to a callee that calls them (a helper, a retry
	// layer, an executor) run as part of this call.
	for _, fc := range e.calleeFuncCalls(c) {
		out = addEffects(out, e.funcValueEffects(info.fn, argOf(c, fc.Param), here))
	}
	if l, ok := retryLayerOf(c); ok && l.FuncArg >= 0 {
		out = addEffects(out, e.funcValueEffects(info.fn, argOf(c, l.FuncArg), here))
	}
	return out
}

// ownLibrary reports whether fn belongs to the package being analysed or
// to a package it sits below (nats.go's jetstream calling nats.go).
func (e *engine) ownLibrary(fn *types.Func) bool {
	if fn == nil || fn.Pkg() == nil || analysisutil.IsStdPath(fn.Pkg().Path()) {
		return false
	}
	p, lib := e.pass.Pkg.Path(), fn.Pkg().Path()
	return p == lib || strings.HasPrefix(p, lib+"/")
}

// calleeEffects returns the effects of the called function, each behind
// the call's link; a send of a request parameter is decided on the
// argument.
func (e *engine) calleeEffects(info *fnInfo, instr ssa.CallInstruction, here Link) []effect {
	c := instr.Common()
	var effs []effect
	if fn := c.StaticCallee(); fn != nil {
		if fn.Origin() != nil {
			fn = fn.Origin()
		}
		if callee := e.local[fn]; callee != nil {
			effs = e.effectsOf(callee)
		} else if s := e.imported(calleeFunc(c)); s != nil {
			effs = fromEffects(s.Effects)
		}
	} else if c.IsInvoke() {
		if s := e.imported(c.Method); s != nil {
			effs = fromEffects(s.Effects)
		}
	}
	var out []effect
	callee := c.StaticCallee()
	for _, ef := range effs {
		if ef.Request != nil {
			switch {
			case ef.paramFn == info.fn:
				// A closure sending a request the function captured.
				out = addEffects(out, []effect{prefixed(here, c.Pos(), ef)})
				continue
			case ef.paramFn != nil && ef.paramFn != callee && (callee == nil || ef.paramFn != callee.Origin()):
				continue // another function's parameter
			}
			arg := argOf(c, ef.Request.Param)
			if arg == nil {
				continue
			}
			out = addEffects(out, behind(e.sendEffects(info, instr, arg, here), ef))
			continue
		}
		out = addEffects(out, []effect{prefixed(here, c.Pos(), ef)})
	}
	return out
}

// behind puts the chain of a callee's effect (inner) after the links
// that decided it at the caller (the request's send at the caller is the
// callee's call).
func behind(decided []effect, inner effect) []effect {
	for i := range decided {
		decided[i].Chain = append(decided[i].Chain[:len(decided[i].Chain):len(decided[i].Chain)], inner.Chain...)
		decided[i].pos = append(decided[i].pos[:len(decided[i].pos):len(decided[i].pos)], inner.pos...)
		if len(decided[i].Chain) > maxChain {
			decided[i].Chain, decided[i].pos = decided[i].Chain[:maxChain], decided[i].pos[:maxChain]
		}
	}
	return decided
}

// prefixed returns ef behind the link of the call that reaches it.
func prefixed(here Link, at token.Pos, ef effect) effect {
	out := ef
	out.Chain = append([]Link{here}, ef.Chain...)
	out.pos = append([]token.Pos{at}, ef.pos...)
	if len(out.Chain) > maxChain {
		out.Chain, out.pos = out.Chain[:maxChain], out.pos[:maxChain]
	}
	return out
}

// fromEffects turns a fact's effects into the engine's (no positions).
func fromEffects(es []Effect) []effect {
	out := make([]effect, len(es))
	for i, ef := range es {
		out[i] = effect{Effect: ef, pos: make([]token.Pos, len(ef.Chain))}
	}
	return out
}

// funcValueEffects returns the effects of the function a func value is
// (a closure, a named function, a method value), handed to a call in
// owner: with them, the sends of owner's request parameters a closure
// captured.
func (e *engine) funcValueEffects(owner *ssa.Function, v ssa.Value, here Link) []effect {
	f := funcValue(v)
	if f == nil {
		return nil
	}
	f = wrapped(f)
	if f.Origin() != nil {
		f = f.Origin()
	}
	var effs []effect
	if info := e.local[f]; info != nil {
		effs = e.effectsOf(info)
	} else if obj, ok := f.Object().(*types.Func); ok {
		if s := e.imported(obj); s != nil {
			effs = fromEffects(s.Effects)
		}
	}
	var out []effect
	for _, ef := range effs {
		if ef.Request == nil || ef.paramFn == owner {
			out = append(out, ef)
		}
	}
	return out
}

// sendEffects returns the effect of sending the request v: a POST or
// PATCH without an idempotency key set before the send (at), or, when v
// is the function's parameter, a send its callers decide.
func (e *engine) sendEffects(info *fnInfo, at ssa.Instruction, v ssa.Value, here Link) []effect {
	r, ok := e.requestOf(info.fn, at, v, 0)
	if !ok {
		return nil
	}
	if r.param != nil {
		return []effect{{Effect: Effect{Kind: "http", What: "request", Request: r.param, Chain: []Link{here}}, pos: []token.Pos{at.Pos()}, paramFn: r.paramFn}}
	}
	if r.keyed || r.method != http.MethodPost && r.method != http.MethodPatch || r.readsOverPost {
		return nil
	}
	return []effect{{Effect: Effect{Kind: "http", What: r.method + " request", Why: "sends a " + r.method + " request without " + e.keyHeaderText() + " header set before the send", Chain: []Link{here}}, pos: []token.Pos{at.Pos()}, made: r.made}}
}

// request is what the requests module knows of a request sent.
type request struct {
	method string
	// keyed is set when an idempotency key header is set on it before
	// the send.
	keyed bool
	// readsOverPost is set when its URL names a search or query endpoint.
	readsOverPost bool
	// param is set when the request is a parameter of paramFn (the
	// function sending it, or the one a closure captured it from).
	param   *ParamRef
	paramFn *ssa.Function
	// made is the call building it, in this function.
	made *ssa.Call
}

// requestOf follows a request value back to where it is made (through
// copies with another context, free variables and phis that agree) and
// reads its method and whether a key header is set on it before at.
func (e *engine) requestOf(fn *ssa.Function, at ssa.Instruction, v ssa.Value, depth int) (request, bool) {
	if depth > 6 || v == nil {
		return request{}, false
	}
	v = stripIface(v)
	switch x := v.(type) {
	case *ssa.Parameter:
		if x.Parent() == fn {
			return request{param: &ParamRef{Param: sigIndex(fn, x), Field: -1}, paramFn: fn}, true
		}
	case *ssa.Alloc:
		if st := onlyStore(x); st != nil {
			return e.requestOf(fn, at, st, depth+1)
		}
	case *ssa.FreeVar:
		mc := e.makerOf(x)
		if mc == nil {
			return request{}, false
		}
		return e.requestOf(mc.Parent(), mc, e.bindingOf(x), depth+1)
	case *ssa.UnOp:
		if fv := freeVarOf(x); fv != nil {
			return e.requestOf(fn, at, fv, depth+1)
		}
		if x.Op == token.MUL {
			if al, ok := x.X.(*ssa.Alloc); ok {
				if st := onlyStore(al); st != nil {
					return e.requestOf(fn, at, st, depth+1)
				}
			}
		}
	case *ssa.Phi:
		var out request
		for i, edge := range x.Edges {
			r, ok := e.requestOf(fn, at, edge, depth+1)
			if !ok || r.param != nil {
				return request{}, false
			}
			if i == 0 || r.method == http.MethodPost || r.method == http.MethodPatch {
				if i == 0 || !r.keyed && !r.readsOverPost {
					out = r
				}
			}
		}
		return out, true
	case *ssa.Extract:
		if call, ok := x.Tuple.(*ssa.Call); ok && x.Index == 0 {
			return e.builtRequest(fn, at, call, depth)
		}
	case *ssa.Call:
		if knowledge.IsRequestCopy(calleeName(x.Common())) {
			r, ok := e.requestOf(fn, at, argOf(x.Common(), -1), depth+1)
			if ok && !r.keyed && r.made != nil {
				r.keyed = e.keyedBefore(x, at)
			}
			return r, ok
		}
		return e.builtRequest(fn, at, x, depth)
	}
	return request{}, false
}

// builtRequest reads a request made by call: a request builder with a
// constant method, or a function of this package returning one built
// there with a constant method (its key read there too).
func (e *engine) builtRequest(fn *ssa.Function, at ssa.Instruction, call *ssa.Call, depth int) (request, bool) {
	c := call.Common()
	if mi, ok := knowledge.RequestBuilder(calleeName(c)); ok {
		k, ok := e.constOf(c.Args[mi])
		if !ok || k.Kind() != constant.String {
			return request{}, false
		}
		r := request{method: strings.ToUpper(constant.StringVal(k)), made: call}
		if mi+1 < len(c.Args) {
			r.readsOverPost = e.urlReads(c.Args[mi+1])
		}
		r.keyed = e.keyedBefore(call, at)
		r.readsOverPost = r.readsOverPost || e.readMediaType(call)
		return r, true
	}
	// A helper of this package returning a request: the key must be set
	// inside it, or at the caller after the call.
	if callee := c.StaticCallee(); callee != nil && e.local[callee] != nil && len(callee.Blocks) > 0 {
		var out request
		rets := returnedValues(callee, 0)
		if len(rets) == 0 {
			return request{}, false
		}
		for _, rv := range rets {
			if k, ok := rv.(*ssa.Const); ok && k.IsNil() {
				continue
			}
			r, ok := e.requestOf(callee, lastInstr(rv), rv, depth+1)
			if !ok || r.param != nil {
				return request{}, false
			}
			r.made = call // the fix goes after the helper's call
			if !r.keyed {
				r.keyed = e.keyedBefore(call, at)
			}
			out = r
			if (r.method == http.MethodPost || r.method == http.MethodPatch) && !r.keyed {
				break
			}
		}
		return out, out.method != ""
	}
	return request{}, false
}

// lastInstr returns the return instruction of the block v is returned
// from (the point a key must be set before, inside a helper).
func lastInstr(v ssa.Value) ssa.Instruction {
	if refs := v.Referrers(); refs != nil {
		for _, r := range *refs {
			if ret, ok := r.(*ssa.Return); ok {
				return ret
			}
		}
	}
	return nil
}

// keyedBefore reports whether an idempotency key header is set on the
// request made by made (its value, or what the value is copied into)
// before the instruction at: by Header.Set or Add, by an assignment to
// the header map, or by a call of a function named for it
// (setIdempotencyKey(req)).
func (e *engine) keyedBefore(made ssa.Value, at ssa.Instruction) bool {
	if at == nil {
		return false
	}
	for _, r := range requestAliases(made) {
		refs := r.Referrers()
		if refs == nil {
			continue
		}
		for _, ref := range *refs {
			switch ref := ref.(type) {
			case *ssa.FieldAddr:
				if fieldName(ref) == "Header" && e.headerKeyed(ref, at) {
					return true
				}
			case ssa.CallInstruction:
				if f := calleeFunc(ref.Common()); f != nil && strings.Contains(strings.ToLower(f.Name()), "idempoten") && before(ref, at) {
					return true
				}
			}
		}
	}
	return false
}

// requestAliases returns the values holding the request made by v: the
// request result (Extract 0 of a tuple), and the *http.Request embedded
// in a retryablehttp request.
func requestAliases(v ssa.Value) []ssa.Value {
	var out []ssa.Value
	if _, ok := v.Type().(*types.Tuple); ok {
		if refs := v.Referrers(); refs != nil {
			for _, r := range *refs {
				if ex, ok := r.(*ssa.Extract); ok && ex.Index == 0 {
					out = append(out, ex)
				}
			}
		}
	} else {
		out = append(out, v)
	}
	for _, r := range out {
		if refs := r.Referrers(); refs != nil {
			for _, ref := range *refs {
				if fa, ok := ref.(*ssa.FieldAddr); ok && fieldName(fa) == "Request" {
					out = append(out, derefs(fa)...)
				}
			}
		}
	}
	return out
}

// derefs returns the loads of an address.
func derefs(addr ssa.Value) []ssa.Value {
	var out []ssa.Value
	if refs := addr.Referrers(); refs != nil {
		for _, r := range *refs {
			if u, ok := r.(*ssa.UnOp); ok && u.Op == token.MUL {
				out = append(out, u)
			}
		}
	}
	return out
}

// readMediaType reports whether the request made by made gets a
// Content-Type of a query protocol (an OCSP request, a DNS message):
// a POST that reads.
func (e *engine) readMediaType(made ssa.Value) bool {
	for _, r := range requestAliases(made) {
		refs := r.Referrers()
		if refs == nil {
			continue
		}
		for _, ref := range *refs {
			fa, ok := ref.(*ssa.FieldAddr)
			if !ok || fieldName(fa) != "Header" {
				continue
			}
			for _, set := range e.headerSets(fa) {
				if strings.EqualFold(set.key, "Content-Type") && knowledge.IsReadMediaType(set.value) {
					return true
				}
			}
		}
	}
	return false
}

// headerSet is a header set on a request with constant name and value.
type headerSet struct {
	instr      ssa.Instruction
	key, value string
}

// headerSets lists the headers set through the request's Header field
// (its address hdr) with a constant name: Set, Add, or an assignment to
// the map; the value when it is a constant too.
func (e *engine) headerSets(hdr *ssa.FieldAddr) []headerSet {
	var out []headerSet
	for _, h := range derefs(hdr) {
		refs := h.Referrers()
		if refs == nil {
			continue
		}
		for _, ref := range *refs {
			var key, val ssa.Value
			switch ref := ref.(type) {
			case *ssa.MapUpdate:
				key = ref.Key
			case ssa.CallInstruction:
				switch calleeName(ref.Common()) {
				case "(net/http.Header).Set", "(net/http.Header).Add":
					key, val = ref.Common().Args[1], ref.Common().Args[2]
				}
			}
			if key == nil {
				continue
			}
			k, ok := e.constOf(key)
			if !ok || k.Kind() != constant.String {
				continue
			}
			set := headerSet{instr: ref, key: constant.StringVal(k)}
			if val != nil {
				if v, ok := e.constOf(val); ok && v.Kind() == constant.String {
					set.value = constant.StringVal(v)
				}
			}
			out = append(out, set)
		}
	}
	return out
}

// headerKeyed reports whether the request's Header field (its address
// hdr) gets a key header set before at.
func (e *engine) headerKeyed(hdr *ssa.FieldAddr, at ssa.Instruction) bool {
	for _, set := range e.headerSets(hdr) {
		if e.isKeyHeader(set.key) && before(set.instr, at) {
			return true
		}
	}
	return false
}

// isKeyHeader reports whether a header name is one of the configured
// idempotency key headers, as HTTP compares them.
func (e *engine) isKeyHeader(name string) bool {
	for _, h := range e.keyHeaders {
		if strings.EqualFold(h, name) {
			return true
		}
	}
	return false
}

func (e *engine) keyHeaderText() string {
	if len(e.keyHeaders) == 0 {
		return "an idempotency key"
	}
	return "an " + e.keyHeaders[0]
}

// readsOverPost reports whether an http.Post-like call's URL (its first
// argument) names a search or query endpoint, or its content type (the
// second) is a query protocol's.
func (e *engine) readsOverPost(c *ssa.CallCommon) bool {
	if e.urlReads(argOf(c, 0)) {
		return true
	}
	if ct := argOf(c, 1); ct != nil {
		if k, ok := e.constOf(ct); ok && k.Kind() == constant.String && knowledge.IsReadMediaType(constant.StringVal(k)) {
			return true
		}
	}
	return false
}

// urlReads reports whether a URL value's constant parts name a search or
// query endpoint or open a resumable upload session, or it is an OAuth 2
// token endpoint's field.
func (e *engine) urlReads(v ssa.Value) bool {
	if fa := loadedField(v); fa != "" && knowledge.IsTokenURLField(fa) {
		return true
	}
	for _, s := range e.urlParts(v) {
		if knowledge.ReadsOverPost(s) || knowledge.OpensUploadSession(s) {
			return true
		}
	}
	return false
}

// loadedField names the struct field a value is loaded from (x.f or
// (*p).f), or "".
func loadedField(v ssa.Value) string {
	switch x := v.(type) {
	case *ssa.UnOp:
		if fa, ok := x.X.(*ssa.FieldAddr); ok && x.Op == token.MUL {
			return fieldName(fa)
		}
	case *ssa.Field:
		if st, ok := structOf(x.X.Type()); ok {
			return st.Field(x.Field).Name()
		}
	}
	return ""
}

// sqlEffects returns the effect of an SQL call whose statement (its
// first string argument) is known and not idempotent.
func (e *engine) sqlEffects(c *ssa.CallCommon, here Link) []effect {
	if recv := argOf(c, -1); recv != nil && inTransaction(recv.Type()) {
		// A statement of a transaction takes effect when the transaction
		// commits: a failed attempt rolls back, and a layer retrying the
		// transaction runs it again whole.
		return nil
	}
	for _, a := range c.Args {
		if b, ok := a.Type().Underlying().(*types.Basic); !ok || b.Kind() != types.String {
			continue
		}
		for _, q := range e.statementsOf(a) {
			if why := knowledge.NotIdempotentSQL(q); why != "" {
				return []effect{{Effect: Effect{Kind: "sql", What: statementHead(q), Why: "runs " + why + " (" + statementHead(q) + ")", Chain: []Link{here}}, pos: []token.Pos{c.Pos()}}}
			}
		}
		return nil
	}
	return nil
}

// inTransaction reports whether a database handle is a transaction
// (database/sql's *Tx, pgx's Tx, sqlx's *Tx): a type named Tx.
func inTransaction(t types.Type) bool {
	n, ok := types.Unalias(derefType(t)).(*types.Named)
	return ok && n.Obj().Name() == "Tx"
}

// statementHead returns a statement's first words, for messages
// ("INSERT INTO orders").
func statementHead(q string) string {
	fields := strings.Fields(q)
	if len(fields) > 3 {
		fields = fields[:3]
	}
	return strings.Join(fields, " ")
}

// grpcNotIdempotent returns the configured prefix a gRPC method's name
// starts with, when it is not configured idempotent; "" otherwise.
func (e *engine) grpcNotIdempotent(service, method string) string {
	for _, m := range e.idempotentMethods {
		svc, meth, _ := strings.Cut(strings.TrimPrefix(m, "/"), "/")
		if meth == method && (svc == service || strings.HasSuffix(svc, "."+service)) {
			return ""
		}
	}
	p, ok := knowledge.HasMethodPrefix(method, e.grpcPrefixes)
	if !ok {
		return ""
	}
	return p
}

// exportEffects sorts a function's effects into its fact.
func exportEffects(owner *ssa.Function, effs, sendDups []effect) []Effect {
	var out []Effect
	for _, ef := range effs {
		// Sends of the function's own request parameters only: a
		// closure's captured ones are its enclosing function's.
		if ef.Request == nil || ef.paramFn == nil || ef.paramFn == owner {
			out = append(out, ef.Effect)
		}
	}
	for _, ef := range sendDups {
		out = append(out, ef.Effect)
	}
	if len(out) == 0 {
		return nil
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].Kind != out[j].Kind {
			return out[i].Kind < out[j].Kind
		}
		return out[i].What < out[j].What
	})
	return out
}

// onlyStore returns the value stored in a local variable's cell when
// there is exactly one store.
func onlyStore(al *ssa.Alloc) ssa.Value {
	var val ssa.Value
	for _, r := range *al.Referrers() {
		if st, ok := r.(*ssa.Store); ok && st.Addr == al {
			if val != nil {
				return nil
			}
			val = st.Val
		}
	}
	return val
}
