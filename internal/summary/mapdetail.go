package summary

import (
	"go/constant"
	"go/token"
	"go/types"
	"net/http"
	"regexp"
	"sort"
	"strings"
	"unicode"

	"golang.org/x/tools/go/ssa"

	"github.com/resilvet/resilvet/internal/knowledge"
)

// The resilience map's detail of a call (map mode): the retry layers and
// breakers around it in the function that holds it, what the call
// reaches (its target, when the code says it), and whether the
// operation may run twice.

// MapLayer is a retry layer, a hedge or a breaker around a call, in the
// function that holds it.
type MapLayer struct {
	Kind string // "retry", "hedge" or "breaker"
	What string // "retry loop", "backoff.Retry", "breaker.Breaker.Do"
	// Attempts is a retry layer's count, the first attempt included:
	// above 1, -1 unbounded, 0 unknown (as RetryLink's).
	Attempts int
	At       string
	// Runtime marks a layer of resilvet's runtime, which makes one
	// attempt inside another runtime layer unless Nested (its policy's
	// AllowNested).
	Runtime, Nested bool
}

// Idempotence states of a MapIdem.
const (
	IdemYes   = "yes"   // safe to run twice: a read, a PUT or DELETE, a request with an idempotency key
	IdemNo    = "no"    // not safe: Why says why
	IdemParam = "param" // the request is the caller's: Owner's parameter Param
)

// MapIdem says whether an operation may safely run twice; the zero value
// is unknown.
type MapIdem struct {
	State string
	Why   string
	Owner string
	Param int
}

// mapLayers returns the retry loops of the function around instr,
// outermost first.
func (e *engine) mapLayers(info *fnInfo, instr ssa.CallInstruction) []MapLayer {
	type nested struct {
		depth int
		layer MapLayer
	}
	var around []nested
	for l, ll := range info.retryLoops {
		if !l.body[instr.Block()] {
			continue
		}
		depth := 0
		for p := l.parent; p != nil; p = p.parent {
			depth++
		}
		around = append(around, nested{depth, MapLayer{Kind: "retry", What: ll.link.What, Attempts: ll.link.Attempts, At: e.fullPos(ll.link.pos)}})
	}
	sort.Slice(around, func(i, j int) bool { return around[i].depth < around[j].depth })
	out := make([]MapLayer, len(around))
	for i, n := range around {
		out[i] = n.layer
	}
	return out
}

// sendLayers returns the layers around an outbound call: the loops
// around it, then its client's own retries (a retrying client, a
// retrying transport), then the hedge that sends it in copies.
func (e *engine) sendLayers(info *fnInfo, instr ssa.CallInstruction) []MapLayer {
	out := e.mapLayers(info, instr)
	if chain, ok := e.httpSendLayers(info, instr.Common()); ok {
		for _, l := range chain {
			out = append(out, MapLayer{Kind: "retry", What: l.What, Attempts: l.Attempts, At: e.fullPos(l.pos), Runtime: l.Runtime, Nested: l.Nested})
		}
	}
	if h, ok := e.hedgeAt(info, instr); ok && !h.declared {
		out = append(out, MapLayer{Kind: "hedge", What: h.layer, At: e.fullPos(h.pos)})
	}
	return out
}

// handedLayers returns the layers a function value runs in when handed
// to call as argument arg: the loops around the call, then the call's own
// layer (a library retry, a breaker), then the layers the callee keeps
// around its calls of that parameter (a helper withRetry(n, fn)).
func (e *engine) handedLayers(info *fnInfo, call ssa.CallInstruction, arg int) []MapLayer {
	out := e.mapLayers(info, call)
	c := call.Common()
	l, library := e.retryLayerAt(c)
	if library && (l.FuncArg < 0 || l.FuncArg == arg) {
		if link, ok := e.libraryLink(info, c, l); ok {
			out = append(out, MapLayer{Kind: "retry", What: link.What, Attempts: link.Attempts, At: e.fullPos(c.Pos()), Runtime: link.Runtime, Nested: link.Nested})
		}
	}
	if b, ok := knowledge.BreakerOf(calleeName(c)); ok && b.FuncArg == arg {
		out = append(out, MapLayer{Kind: "breaker", What: calleeDisplay(c), At: e.fullPos(c.Pos())})
	}
	if h, ok := e.hedgeAt(info, call); ok {
		// A function declared idempotent is hedge.Do's operation: it
		// runs in copies as any hedge's.
		at := h.pos
		if h.declared {
			at = c.Pos()
		}
		out = append(out, MapLayer{Kind: "hedge", What: h.layer, At: e.fullPos(at)})
	}
	// A library layer is read from the table, as retrystack reads it: its
	// own loop, which its summary shows, is that layer, not another.
	if s := e.summaryOf(c); s != nil && s.Retries != nil && !library {
		for _, p := range s.Retries.Params {
			if p.Param != arg {
				continue
			}
			for _, link := range p.Chain {
				out = append(out, MapLayer{Kind: "retry", What: link.What, Attempts: link.Attempts, At: link.At, Runtime: link.Runtime, Nested: link.Nested})
			}
		}
	}
	return out
}

// argIndex returns the signature index of v among call's arguments, or
// -2.
func argIndex(c *ssa.CallCommon, v ssa.Value) int {
	for i := -1; ; i++ {
		a := argOf(c, i)
		if a == nil && i >= 0 {
			return -2
		}
		if a == v {
			return i
		}
	}
}

// mapIdem says whether an outbound call's operation may run twice.
func (e *engine) mapIdem(info *fnInfo, instr ssa.CallInstruction) MapIdem {
	// An effect of its own says no; a send of the caller's request is
	// the caller's to decide.
	effs := e.callEffects(info, instr)
	for _, eff := range effs {
		if eff.Request == nil {
			return MapIdem{State: IdemNo, Why: eff.Why}
		}
	}
	if len(effs) > 0 {
		owner := info.fn
		if effs[0].paramFn != nil {
			owner = effs[0].paramFn
		}
		return MapIdem{State: IdemParam, Owner: MapKey(owner), Param: effs[0].Request.Param}
	}
	c := instr.Common()
	name := calleeName(c)
	if ec, ok := knowledge.EffectOf(name); ok && ec.Request >= 0 {
		return e.requestIdem(info, instr, argOf(c, ec.Request))
	}
	if qs := e.queries(c); len(qs) > 0 {
		for _, q := range qs {
			if !strings.HasPrefix(strings.ToUpper(strings.TrimSpace(q)), "SELECT") {
				return MapIdem{}
			}
		}
		return MapIdem{State: IdemYes, Why: "a read"}
	}
	if name == "net/http.Get" || name == "net/http.Head" || name == "(*net/http.Client).Get" || name == "(*net/http.Client).Head" {
		return MapIdem{State: IdemYes, Why: "a read"}
	}
	return MapIdem{}
}

// requestIdem says whether sending the request v may run twice.
func (e *engine) requestIdem(info *fnInfo, at ssa.Instruction, v ssa.Value) MapIdem {
	r, ok := e.requestOf(info.fn, at, v, 0)
	switch {
	case !ok:
		return MapIdem{}
	case r.param != nil:
		owner := info.fn
		if r.paramFn != nil {
			owner = r.paramFn
		}
		return MapIdem{State: IdemParam, Owner: MapKey(owner), Param: r.param.Param}
	case r.keyed:
		return MapIdem{State: IdemYes, Why: "an idempotency key is set before the send"}
	case r.readsOverPost:
		return MapIdem{State: IdemYes, Why: "a query sent as a POST"}
	}
	switch r.method {
	case http.MethodGet, http.MethodHead, http.MethodOptions, http.MethodPut, http.MethodDelete:
		return MapIdem{State: IdemYes, Why: r.method + " is idempotent"}
	case http.MethodPost, http.MethodPatch:
		return MapIdem{State: IdemNo, Why: "a " + r.method + " without " + e.keyHeaderText() + " header set before the send"}
	}
	return MapIdem{}
}

// queries returns the statements an SQL call may run, when each is known:
// those of its first string argument, as the effects module reads them
// (the arguments after it are data). Other calls run none.
func (e *engine) queries(c *ssa.CallCommon) []string {
	if o, ok := e.ext.OutboundOf(calleeName(c)); !ok || o.Kind != knowledge.SQL {
		return nil
	}
	for _, a := range c.Args {
		if b, ok := a.Type().Underlying().(*types.Basic); ok && b.Info()&types.IsString != 0 {
			return e.statementsOf(a)
		}
	}
	return nil
}

// mapTarget says what an outbound call reaches when the code says it: the
// URL of a request made here (its constant parts), the statement of an
// SQL call, the method of a gRPC call.
func (e *engine) mapTarget(info *fnInfo, instr ssa.CallInstruction) string {
	c := instr.Common()
	if _, service, method := grpcTarget(c); method != "" {
		return "/" + service + "/" + method
	}
	if qs := e.queries(c); len(qs) > 0 {
		return cutText(qs[0], 80)
	}
	name := calleeName(c)
	switch name {
	case "net/http.Get", "net/http.Head", "net/http.Post", "net/http.PostForm",
		"(*net/http.Client).Get", "(*net/http.Client).Head", "(*net/http.Client).Post", "(*net/http.Client).PostForm":
		return e.urlText(argOf(c, 0))
	}
	if ec, ok := knowledge.EffectOf(name); ok && ec.Request >= 0 {
		return e.requestTarget(argOf(c, ec.Request))
	}
	return ""
}

// requestTarget returns the URL of a request made in the function (its
// constant parts), or "".
func (e *engine) requestTarget(v ssa.Value) string {
	made, ok := e.literalOf(stripIface(v)).(*ssa.Call)
	if !ok {
		return ""
	}
	switch calleeName(made.Common()) {
	case "net/http.NewRequest":
		return e.urlText(argOf(made.Common(), 1))
	case "net/http.NewRequestWithContext":
		return e.urlText(argOf(made.Common(), 2))
	}
	return ""
}

// urlText writes a URL as the code builds it, "…" standing for each part
// known only at run time (base+"/v1/items" is "…/v1/items"); "" when no
// part says anything (base+"?"+query).
func (e *engine) urlText(v ssa.Value) string {
	t := e.urlTemplate(v, 0)
	for strings.Contains(t, "……") {
		t = strings.ReplaceAll(t, "……", "…")
	}
	if !strings.ContainsFunc(t, func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }) {
		return ""
	}
	return cutText(t, 80)
}

// urlParts returns the constant parts a URL value is built from, in
// order: what urlTemplate says between the parts known at run time.
func (e *engine) urlParts(v ssa.Value) []string {
	return strings.FieldsFunc(e.urlTemplate(v, 0), func(r rune) bool { return r == '…' })
}

// urlTemplate is the one reading of a URL's string value, for the map's
// targets (urlText) and the effects module's (urlParts): a constant, a
// concatenation, a constant format given to fmt.Sprintf (each verb a
// part known at run time), url.JoinPath and path.Join, a url.URL
// literal's String, or "…".
func (e *engine) urlTemplate(v ssa.Value, depth int) string {
	if v == nil || depth > 6 {
		return "…"
	}
	if k, ok := e.constOf(v); ok {
		if k.Kind() == constant.String {
			return constant.StringVal(k)
		}
		return "…"
	}
	switch x := v.(type) {
	case *ssa.BinOp:
		if x.Op == token.ADD {
			return e.urlTemplate(x.X, depth+1) + e.urlTemplate(x.Y, depth+1)
		}
	case *ssa.Extract:
		if call, ok := x.Tuple.(*ssa.Call); ok && x.Index == 0 {
			return e.urlTemplate(call, depth+1) // url.JoinPath's result
		}
	case *ssa.Call:
		switch calleeName(x.Common()) {
		case "fmt.Sprintf":
			if k, ok := e.constOf(x.Call.Args[0]); ok && k.Kind() == constant.String {
				return formatVerbs.ReplaceAllString(constant.StringVal(k), "…")
			}
		case "net/url.JoinPath", "path.Join":
			var parts []string
			for _, a := range x.Call.Args {
				if sl, ok := a.(*ssa.Slice); ok {
					// JoinPath's elements, a variadic slice.
					parts = append(parts, e.sliceTemplates(sl, depth+1)...)
				} else {
					parts = append(parts, e.urlTemplate(a, depth+1))
				}
			}
			return joinPath(parts)
		case "(*net/url.URL).String":
			if u, ok := e.literalOf(argOf(x.Common(), -1)).(*ssa.Alloc); ok {
				return e.urlLiteralTemplate(u, depth+1)
			}
		}
	}
	return "…"
}

// joinPath joins a path's elements with one slash between each two, as
// url.JoinPath and path.Join do.
func joinPath(parts []string) string {
	var b strings.Builder
	for i, p := range parts {
		if i > 0 {
			if !strings.HasSuffix(b.String(), "/") {
				b.WriteByte('/')
			}
			p = strings.TrimLeft(p, "/")
		}
		b.WriteString(p)
	}
	return b.String()
}

// sliceTemplates reads the elements stored into a variadic slice.
func (e *engine) sliceTemplates(sl *ssa.Slice, depth int) []string {
	al, ok := sl.X.(*ssa.Alloc)
	if !ok {
		return []string{"…"}
	}
	var out []string
	for _, r := range *al.Referrers() {
		if ia, ok := r.(*ssa.IndexAddr); ok {
			for _, rr := range *ia.Referrers() {
				if st, ok := rr.(*ssa.Store); ok && st.Addr == ia {
					out = append(out, e.urlTemplate(st.Val, depth))
				}
			}
		}
	}
	return out
}

// urlLiteralTemplate reads a url.URL literal's fields:
// &url.URL{Scheme: "https", Host: host, Path: "/v1/items"} is
// https://…/v1/items.
func (e *engine) urlLiteralTemplate(u *ssa.Alloc, depth int) string {
	fields := map[string]string{}
	for _, st := range fieldStores(u) {
		fields[st.field] = e.urlTemplate(st.val, depth)
	}
	var b strings.Builder
	if s, ok := fields["Scheme"]; ok {
		b.WriteString(s + "://")
	}
	b.WriteString(fields["Host"])
	b.WriteString(fields["Path"])
	if q, ok := fields["RawQuery"]; ok {
		b.WriteString("?" + q)
	}
	return b.String()
}

// formatVerbs matches a fmt verb with its flags, width and precision.
var formatVerbs = regexp.MustCompile(`%[-+# 0]*[0-9]*(\.[0-9]*)?[a-zA-Z]`)

func cutText(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > n {
		return s[:n] + "…"
	}
	return s
}
