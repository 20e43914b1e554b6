package summary

import (
	"fmt"
	"go/constant"
	"go/token"
	"slices"
	"strconv"
	"strings"
)

// FuncSummary is the fact exported on a package-level function or method
// that has something to say. Each part is computed by one claim module
// and names who reads it; a claim nothing reads is not declared (the
// analyzers to come add theirs with their modules).
//
// Facts travel between packages through gob in go vet and in editors, so
// every field is exported, plain data, deterministic (sorted, capped) and
// free of token.Pos (positions are meaningless outside their file set):
// evidence is "file.go:line:col" text.
type FuncSummary struct {
	// DropsCtx is set when the function takes no context but creates a
	// root context (context.Background or TODO) that reaches
	// context-taking or outbound work synchronously, directly or through
	// the callees in the chain. Read by ctxdrop (rule 3).
	DropsCtx *Drop

	// IgnoresCtx is set when the function takes a context and never uses
	// it (or only logs with it, reads values from it, or hands it to
	// functions that ignore theirs): passing it a root context drops
	// nothing. Read by ctxdrop.
	IgnoresCtx bool

	// Waits is set when the function takes no context and can block: on a
	// channel, a select without a default, a sleep or a wait, outbound
	// I/O, a callee that waits, or a context-taking callee whose context
	// matters (CtxIO). Read by ctxdrop: a plain function is
	// the variant without a context of a context-taking one beside it only
	// if it waits or makes its own context.
	Waits bool `json:",omitempty"`

	// RetainsCtx is set when the function keeps its context for the life
	// of what it starts: hands it to a goroutine it does not wait for,
	// stores it with its cancel function, stores it in its receiver or
	// what it returns while starting such a goroutine, or passes it to a
	// callee that retains it. The context it should get is a long-lived
	// one, so a root context handed to it is a lifetime choice. Read by
	// ctxdrop (rule 1) and the engine's DropsCtx claim (retains.go).
	RetainsCtx bool `json:",omitempty"`

	// Reaches lists the parameters whose value reaches an outbound call
	// with nothing on the way bounding it in time: a context with no
	// deadline added, a request whose context has none, a client used
	// where only its Timeout could bound the call. The caller decides:
	// passing a bounded value is fine, an unbounded one is notimeout's
	// finding at the caller. Sorted. Read by notimeout.
	Reaches []Reach

	// Results says what the function returns, for results that are
	// contexts, *http.Client or *http.Request: bounded, unbounded (and
	// where that is made) or the caller's own parameter. Read by the
	// engine's values at the function's callers, for notimeout.
	Results []ValueClaim

	// CtxIO lists the context parameters (signature indexes) whose
	// context reaches outbound work, a wait on its Done channel, a check
	// of its Err, or a callback, bounded or not, directly or through
	// callees: the function's context matters. Read by ctxdrop,
	// which suggests a context-taking alternative it finds by name (Foo
	// beside FooContext) only when the alternative's context does.
	CtxIO []int

	// CtxRemote lists the CtxIO parameters whose context reaches work on
	// a remote peer (outbound work other than SQL on an in-process
	// database or a Unix socket), a check of Done or Err in a function
	// that can block (a wait that may last forever), or a callback whose
	// work is not known (a func value, an interface declared elsewhere
	// with no implementation in sight). Read by the engine's DropsCtx
	// claim, in this package and at callers in others: a helper's own
	// root context drops its caller's only when it reaches such work.
	CtxRemote []int `json:",omitempty"`

	// FuncCalls lists the func-typed parameters the function calls: how
	// many times, and with which of its own parameters as arguments. Read
	// by the engine at the function's callers (a closure handed to it is
	// summarised as if called there; funcs.go) and, to come, retrystack.
	FuncCalls []FuncCall

	// ReturnsRoot is set when a context result of the function is a fresh
	// root it makes (context.Background or TODO, bounded or not, directly
	// or from a helper of its own that returns one): a helper such as
	// Detached(d) that returns context.WithTimeout(context.Background(),
	// d). Read by the roots module at the function's callers, where the
	// call is a root context like context.Background() itself (ctxdrop's
	// rule 1; returned.go).
	ReturnsRoot *ReturnedRoot `json:",omitempty"`

	// Retries is set when a call of the function goes through retry
	// layers (its own, or its callees'), when it retries a func
	// parameter it is given, or when it does outbound work. Read by the retry module at the function's
	// callers, where the layers around the call multiply with these, and
	// by retrystack (retries.go).
	Retries *Retries `json:",omitempty"`

	// Sets is set for an option function (its result a func(*T)): the
	// fields of T the result sets to the function's parameters. Read by
	// the retry module, for a client's count set by the options it was
	// constructed with (options.go).
	Sets []FieldSet `json:",omitempty"`

	// ReturnsConn is set when the function returns a gRPC connection
	// dialled with retries, or a generated client made from one: calls
	// made through it in other packages are layers of its attempts. Read
	// by the retry module (grpcretries.go).
	ReturnsConn *ConnRetry `json:",omitempty"`
	// ReturnsClient is set when the function's first result is an HTTP
	// client whose sends retry (a retrying client, an *http.Client made
	// from one, an *http.Client whose Transport retries): the layers
	// each send through it goes through, outermost first.
	ReturnsClient []RetryLink `json:",omitempty"`

	// Effects lists what a call of the function does that is not
	// idempotent, itself or through its callees and the closures it
	// runs, with the evidence chain; and the requests of its parameters
	// it sends, which each caller decides on the request it passes. Sorted
	// by kind and what, capped at maxEffects. Read by the effects module
	// at callers and by the hedges module, for hedgeidem (effects.go).
	Effects []Effect `json:",omitempty"`
}

// Effect is one effect that is not idempotent: running the operation
// twice may do it twice. A request sent with an idempotency key set
// before the send, an upsert, a PUT or a read is no effect: such work is
// never listed.
type Effect struct {
	// Kind is "http", "sql", "publish", "mail" or "grpc".
	Kind string
	// What names it ("POST request", "INSERT INTO orders",
	// "kafka.Writer.WriteMessages", "Orders.CreateOrder"), and Why says
	// why it is not idempotent ("INSERT without an upsert clause").
	What, Why string
	// Chain lists the calls from the function to the effect; the last
	// link is the call that has it. Capped at maxChain links.
	Chain []Link
	// Request, when set, is the parameter holding the request the
	// function sends (Field -1; Param -1 the receiver): the effect is the
	// request's, a POST without a key or not, decided at each caller on
	// the argument (guarded by a key set there or not).
	Request *ParamRef `json:",omitempty"`
	// Layer, for a Request effect, names the hedge or retry layer the
	// function sends the request through (Hedge set for a hedge, Blind
	// for a client retrying every method): a caller handing it a request
	// that is not idempotent is reported at its call.
	Layer string `json:",omitempty"`
	Hedge bool   `json:",omitempty"`
	Blind bool   `json:",omitempty"`
}

// ConnRetry is what a gRPC connection's dial options retry.
type ConnRetry struct {
	// Policies are the service config's retry policies.
	Policies []MethodRetry `json:",omitempty"`
	// Interceptor is a retry interceptor's attempts (0: none; -1:
	// unbounded).
	Interceptor int `json:",omitempty"`
	// At is where the connection is dialled (file:line:col).
	At string
}

// MethodRetry is a service config's retryPolicy for a service and method
// ("" matches every one).
type MethodRetry struct {
	Service, Method string `json:",omitempty"`
	Attempts        int
	// Hedge is set for a hedgingPolicy: Attempts copies sent
	// concurrently, read by the hedges module; retry counts leave it out.
	Hedge bool `json:",omitempty"`
}

// Retries is the retry-layer claim of a function.
type Retries struct {
	// Product is the number of attempts the innermost operation gets per
	// call of the function on the path with the most, through Chain: a
	// count above 1, unbounded (-1) or unknown (0: set at run time).
	// Zero layers make no claim.
	Product int `json:",omitempty"`
	// Chain lists the layers of that path, outermost first, capped at
	// maxChain links (Product is computed before the cap).
	Chain []RetryLink `json:",omitempty"`
	// UnderRuntime is, when it differs from Chain, the path with the most
	// attempts for a caller inside a runtime layer, where the runtime's
	// layers yield: a path of hand-written layers there can retry more
	// than Chain's runtime ones do.
	UnderRuntime []RetryLink `json:",omitempty"`
	// Params lists the func parameters the function calls inside retry
	// layers of its own (a withRetry(fn) helper): what a caller hands
	// there is retried.
	Params []RetriedParam `json:",omitempty"`
	// Outbound is set when the function does outbound work on a remote
	// peer, itself or through its callees and closures: a loop that
	// tries a call of it again is a retry layer; one that tries local
	// work again (a parser given another checker) is not.
	Outbound bool `json:",omitempty"`
}

// RetryLink is one retry layer.
type RetryLink struct {
	// What names the layer: "retry loop", or the library call
	// ("backoff.Retry", "retryablehttp.Client.Do").
	What string
	// Func is the function holding it, At its position (file:line:col).
	Func, At string
	// Attempts is the layer's count, the first attempt included: above
	// 1, unbounded (-1) or unknown (0).
	Attempts int
	// Runtime is set for a layer of resilvet's runtime: runtime layers
	// inside it find its attempt in their context and make a single
	// attempt, unless their policy sets AllowNested (Nested).
	Runtime bool `json:",omitempty"`
	Nested  bool `json:",omitempty"`
	// Client is set for a retrying client's own layer (retryablehttp,
	// go-redis, the AWS SDK): the caller can turn it off, not remove it.
	Client bool `json:",omitempty"`
	// Hedge is set for a hedging client's copies (hedgedhttp, a
	// failsafe-go round tripper with a hedge policy): sent concurrently,
	// Attempts of them. Read by the hedges module; retry chains leave
	// such links out (withoutHedges).
	Hedge bool `json:",omitempty"`
	// BackOff is the function's parameter (or a parameter's field) that
	// holds the backoff object the layer draws on, when it is one: a
	// caller's layer drawing on the object it passes shares the budget.
	BackOff *ParamRef `json:",omitempty"`
	// CountFrom is, for a layer whose count is unknown here, the
	// parameter's field that holds it (a client's retries, set where the
	// client is constructed, by an option or a literal): a caller that
	// sees the construction fills it in, plus CountAdd.
	CountFrom *ParamRef `json:",omitempty"`
	CountAdd  int       `json:",omitempty"`
}

// ParamRef names a parameter by its signature index (-1 for the
// receiver), or its field Field (-1 for the parameter itself).
type ParamRef struct {
	Param, Field int
}

// FieldSet is a field an option function's result sets: field Field of
// the struct its func(*T) result is given, to the option's parameter
// Param (WithRetries(n) returning func(c *Client) { c.retries = n }).
type FieldSet struct {
	Field, Param int
}

// RetriedParam is a func parameter a function retries.
type RetriedParam struct {
	// Param is its signature index.
	Param int
	// Chain lists the function's layers around its calls, outermost
	// first.
	Chain []RetryLink
	// CountParam is the signature index of the integer parameter that
	// holds the innermost layer's attempts (withRetry(n, fn)), or -1:
	// a caller's constant argument fills in an unknown count.
	CountParam int
}

// ReturnedRoot is a fresh root context a function returns.
type ReturnedRoot struct {
	// Index is the result's index.
	Index int
	// Root is the root-context constructor it is made from,
	// "context.Background" or "context.TODO".
	Root string
	// Bounded is set when it carries a deadline of its own.
	Bounded bool `json:",omitempty"`
}

// Drop is the evidence that a function drops its caller's context.
type Drop struct {
	// Root is the root-context constructor, "context.Background" or
	// "context.TODO".
	Root string
	// At is where the root context is created.
	At string
	// Chain lists the callees from the summarised function to the one
	// that creates the root context, in call order (empty when the
	// function creates it itself). Capped at maxChain links.
	Chain []Link
	// Module is the path of the module whose code creates the root
	// context ("" when the driver does not say): a root made inside a
	// dependency is not the user's to fix unless a call on the chain has
	// a context-taking alternative.
	Module string
	// Via, when set, names the call that makes the root context inside
	// it, a function with a context-taking twin ("net.LookupHost"), and
	// Twin the twin ("net.DefaultResolver.LookupHost"); At is that call.
	Via, Twin string `json:",omitempty"`
	// Bounded is set when the root is bounded where it is made
	// (context.WithTimeout(context.Background(), d)): the helper's own
	// deadline stands in for the caller's, and what is lost is only
	// cancellation. Read by ctxdrop, which then reports the call only on
	// an HTTP request's path, as it does a root bounded where it is made
	// in the caller itself.
	Bounded bool `json:",omitempty"`
}

// Link is one hop of a call chain.
type Link struct {
	Func string // source-form name, "lib.Client.load"
	At   string // where the call to Func is
	// Alt names Func's context-taking alternative, when it has one
	// ("hystrix.DoC" for "hystrix.Do"): what a caller should call instead.
	Alt string
	// Module is the module whose code makes the call ("" when the driver
	// does not say): only a call in the user's own module can be changed.
	Module string
}

// Reach is the claim that a parameter's value reaches an outbound call
// with nothing bounding it in time on the way.
type Reach struct {
	// Param is the index of the parameter in the signature (receiver
	// excluded).
	Param int
	// Of says what the parameter is: "ctx" (a context.Context), "request"
	// (an *http.Request, by its context) or "client" (an *http.Client,
	// by its Timeout).
	Of string
	// Kind is the outbound kind reached ("http", "grpc", "sql", …).
	Kind string
	// Call names the outbound call reached, in source form
	// ("http.Client.Do").
	Call string
	// Chain lists the calls from the summarised function to the outbound
	// call, in order; the last link is the outbound call itself. Capped at
	// maxChain links (the first ones are kept).
	Chain []Link
	// ViaConn is set, for a gRPC call, when the connection the call is
	// made on is the caller's too: parameter Conn holds it (-1 the
	// receiver: a generated client's methods). A connection with a
	// timeout interceptor bounds the call whatever the context.
	ViaConn bool `json:",omitempty"`
	Conn    int  `json:",omitempty"`
	// If, when set, is a condition on an integer or boolean parameter
	// that must hold for the call to be reached (if !lazy { fetch(ctx)
	// }): a caller passing a constant that fails it reaches nothing.
	If *IntCond `json:",omitempty"`
	// Local is set when the call is SQL on an in-process database
	// (SQLite): it waits on no remote peer, and callers make no finding
	// of it; ctxdrop reads it to tell local work (Result.LocalWork).
	Local bool `json:",omitempty"`
	// Repeats is set when the call is reached inside a loop, or from a
	// goroutine or a closure run more than once on the way: work that
	// recurs or outlives the caller's start. Read by the engine at
	// callers: a start-up function's call of the helper is start-up
	// work only when the helper reaches the call once.
	Repeats bool `json:",omitempty"`
}

// ValueClaim says what a result (or a field, or a package-level
// variable) holds, when that is the same on every path.
type ValueClaim struct {
	// Index is the result's index; 0 for fields and variables.
	Index int
	// Of is "ctx", "client" or "request", as in Reach.
	Of string
	// State is "bounded" (a deadline or a Timeout is set), "unbounded"
	// (on some path, none is) or "param" (the caller's own value, passed
	// through unchanged).
	State string
	// Param is the parameter passed through, for State "param", and
	// ParamOf what it is when that differs from Of (a request result
	// built from a "ctx" parameter).
	Param   int
	ParamOf string `json:",omitempty"`
	// What names the unbounded value ("context.Background()", "a client
	// without Timeout") and At where it is made, for State "unbounded".
	What, At string
	// BoundedIf, for State "param", is the condition on an integer
	// parameter under which the result is bounded instead (a helper that
	// adds a timeout only when d > 0): a caller passing a constant that
	// meets it gets a bounded value.
	BoundedIf *IntCond `json:",omitempty"`
}

// IntCond is a comparison of an integer parameter with a constant; a
// boolean parameter is compared as 0 (false) or 1 (true).
type IntCond struct {
	Param int    // signature index
	Op    string // "<", "<=", ">", ">=", "==", "!="
	Value int64
}

// Holds reports whether the constant x meets the condition.
func (c *IntCond) Holds(x constant.Value) bool {
	op, ok := map[string]token.Token{"<": token.LSS, "<=": token.LEQ, ">": token.GTR, ">=": token.GEQ, "==": token.EQL, "!=": token.NEQ}[c.Op]
	if ok && x != nil && x.Kind() == constant.Bool {
		if constant.BoolVal(x) {
			x = constant.MakeInt64(1)
		} else {
			x = constant.MakeInt64(0)
		}
	}
	if !ok || x == nil || x.Kind() != constant.Int {
		return false
	}
	return constant.Compare(x, op, constant.MakeInt64(c.Value))
}

// FuncCall says that a func-typed parameter is called, directly, by a
// helper it is handed to, or by a closure that captures it.
type FuncCall struct {
	Param int // index in the signature
	// Times is how many times one call of the function calls it, at
	// most: a count ≥ 1, TimesUnbounded (a loop with no constant bound),
	// or TimesUnknown (it escapes where the count cannot be followed).
	Times int
	// Args maps the func's parameters to the function's own: Args[i] is
	// the signature index of the parameter passed as the func's argument
	// i, or -1 (nil when none is).
	Args []int
	At   string // the first call
}

// Counts of FuncCall.Times that are not numbers.
const (
	TimesUnknown   = int(timesUnknown)
	TimesUnbounded = int(timesUnbounded)
)

// ValueSummary is the fact exported on a struct field or a package-level
// variable whose value the package knows on every store: an
// *http.Client with or without a Timeout, a context with or without a
// deadline. Read by the values module where other packages load the
// field or variable, for notimeout (Of "client", "ctx").
type ValueSummary struct {
	Values []ValueClaim
	// Client is set for an exported field or variable that holds, on
	// every store the package makes, an HTTP client whose sends retry
	// (as ReturnsClient), and Conn for one holding a gRPC connection
	// dialled with retries (as ReturnsConn): read by the retry module
	// where other packages send through it. Stores other packages make
	// are not seen.
	Client []RetryLink `json:",omitempty"`
	Conn   *ConnRetry  `json:",omitempty"`
}

func (*ValueSummary) AFact() {}

func (s *ValueSummary) String() string {
	var parts []string
	for _, v := range s.Values {
		parts = append(parts, v.Of+":"+v.State)
	}
	if len(s.Client) > 0 {
		parts = append(parts, "client("+linksText(s.Client)+")")
	}
	if s.Conn != nil {
		parts = append(parts, "conn("+s.Conn.text()+")")
	}
	return strings.Join(parts, " ")
}

const maxChain = 6

// text renders a connection's retries for String.
func (c *ConnRetry) text() string {
	var ps []string
	for _, p := range c.Policies {
		if p.Hedge {
			ps = append(ps, fmt.Sprintf("%s/%s hedged x%d", p.Service, p.Method, p.Attempts))
			continue
		}
		ps = append(ps, fmt.Sprintf("%s/%s x%d", p.Service, p.Method, p.Attempts))
	}
	if c.Interceptor != 0 {
		ps = append(ps, "interceptor x"+timesText(c.Interceptor))
	}
	return strings.Join(ps, ", ")
}

func (*FuncSummary) AFact() {}

// String renders the fact for analysistest `// want fn:"…"` expectations
// and for debugging; it is stable and compact.
func (s *FuncSummary) String() string {
	var parts []string
	if d := s.DropsCtx; d != nil {
		var via []string
		for _, l := range d.Chain {
			via = append(via, l.Func)
		}
		if len(via) > 0 {
			parts = append(parts, fmt.Sprintf("dropsCtx(%s via %s)", d.Root, strings.Join(via, " -> ")))
		} else {
			parts = append(parts, fmt.Sprintf("dropsCtx(%s)", d.Root))
		}
		if d.Via != "" {
			parts[len(parts)-1] = strings.TrimSuffix(parts[len(parts)-1], ")") + " in " + d.Via + ")"
		}
		if d.Bounded {
			parts[len(parts)-1] = strings.TrimSuffix(parts[len(parts)-1], ")") + ", bounded)"
		}
	}
	if s.IgnoresCtx {
		parts = append(parts, "ignoresCtx")
	}
	if s.Waits {
		parts = append(parts, "waits")
	}
	if s.RetainsCtx {
		parts = append(parts, "retainsCtx")
	}
	for _, r := range s.Reaches {
		p := fmt.Sprintf("reaches(%s%d->%s", r.Of, r.Param, r.Call)
		if r.ViaConn {
			p += fmt.Sprintf(" unless conn%d", r.Conn)
		}
		if r.If != nil {
			p += fmt.Sprintf(" if p%d%s%d", r.If.Param, r.If.Op, r.If.Value)
		}
		if r.Local {
			p += " local"
		}
		if r.Repeats {
			p += " repeats"
		}
		parts = append(parts, p+")")
	}
	for _, r := range s.Results {
		if r.State == "param" && r.BoundedIf != nil {
			parts = append(parts, fmt.Sprintf("returns(%s%d:param%d,bounded if p%d%s%d)", r.Of, r.Index, r.Param, r.BoundedIf.Param, r.BoundedIf.Op, r.BoundedIf.Value))
		} else if r.State == "param" {
			parts = append(parts, fmt.Sprintf("returns(%s%d:param%d)", r.Of, r.Index, r.Param))
		} else {
			parts = append(parts, fmt.Sprintf("returns(%s%d:%s)", r.Of, r.Index, r.State))
		}
	}
	if r := s.ReturnsRoot; r != nil {
		p := fmt.Sprintf("returnsRoot(%d:%s", r.Index, r.Root)
		if r.Bounded {
			p += ", bounded"
		}
		parts = append(parts, p+")")
	}
	if len(s.CtxIO) > 0 {
		// A parameter reaching only local work is marked: remote is the
		// common case.
		var ks []string
		for _, k := range s.CtxIO {
			if slices.Contains(s.CtxRemote, k) {
				ks = append(ks, strconv.Itoa(k))
			} else {
				ks = append(ks, strconv.Itoa(k)+":local")
			}
		}
		parts = append(parts, "ctxIO("+strings.Join(ks, ",")+")")
	}
	for _, c := range s.FuncCalls {
		n := strconv.Itoa(c.Times)
		switch c.Times {
		case TimesUnknown:
			n = "?"
		case TimesUnbounded:
			n = "∞"
		}
		args := ""
		for i, a := range c.Args {
			if a >= 0 {
				args += fmt.Sprintf(",arg%d=p%d", i, a)
			}
		}
		parts = append(parts, fmt.Sprintf("calls(%d,x%s%s)", c.Param, n, args))
	}
	if c := s.ReturnsConn; c != nil {
		parts = append(parts, "conn("+c.text()+")")
	}
	if len(s.ReturnsClient) > 0 {
		parts = append(parts, "client("+linksText(s.ReturnsClient)+")")
	}
	if len(s.Effects) > 0 {
		var es []string
		for _, ef := range s.Effects {
			if ef.Request != nil {
				if ef.Layer != "" {
					es = append(es, fmt.Sprintf("sends(%d) through %s", ef.Request.Param, ef.Layer))
					continue
				}
				es = append(es, fmt.Sprintf("sends(%d)", ef.Request.Param))
				continue
			}
			es = append(es, ef.Kind+":"+ef.What)
		}
		parts = append(parts, "effects("+strings.Join(es, ", ")+")")
	}
	for _, f := range s.Sets {
		parts = append(parts, fmt.Sprintf("sets(f%d=p%d)", f.Field, f.Param))
	}
	if r := s.Retries; r != nil {
		if len(r.Chain) > 0 {
			parts = append(parts, fmt.Sprintf("retries(x%s: %s)", timesText(r.Product), linksText(r.Chain)))
		}
		if len(r.UnderRuntime) > 0 {
			parts = append(parts, fmt.Sprintf("underRuntime(%s)", linksText(r.UnderRuntime)))
		}
		for _, p := range r.Params {
			count := ""
			if p.CountParam >= 0 {
				count = fmt.Sprintf(", count p%d", p.CountParam)
			}
			parts = append(parts, fmt.Sprintf("retriesParam(%d: %s%s)", p.Param, linksText(p.Chain), count))
		}
		if r.Outbound {
			parts = append(parts, "outbound")
		}
	}
	return strings.Join(parts, " ")
}

func timesText(n int) string {
	switch n {
	case TimesUnknown:
		return "?"
	case TimesUnbounded:
		return "∞"
	}
	return strconv.Itoa(n)
}

// linksText renders retry layers, outermost first: "loop x3 > retry.Do x4".
func linksText(ls []RetryLink) string {
	var out []string
	for _, l := range ls {
		what := l.What
		if what == "retry loop" {
			what = "loop"
		}
		s := what + " x" + timesText(l.Attempts)
		if l.Runtime && !l.Nested {
			s += " yields"
		}
		if c := l.CountFrom; c != nil {
			s += fmt.Sprintf(" count p%d.f%d%+d", c.Param, c.Field, l.CountAdd)
		}
		if b := l.BackOff; b != nil {
			s += fmt.Sprintf(" backoff p%d", b.Param)
			if b.Field >= 0 {
				s += fmt.Sprintf(".f%d", b.Field)
			}
		}
		out = append(out, s)
	}
	return strings.Join(out, " > ")
}

// empty reports whether the summary carries no claim, so that no fact is
// exported for it (fact size is build-artifact size in go vet).
func (s *FuncSummary) empty() bool {
	return s.DropsCtx == nil && !s.IgnoresCtx && !s.Waits && !s.RetainsCtx && len(s.Reaches) == 0 && len(s.Results) == 0 && len(s.FuncCalls) == 0 && len(s.CtxIO) == 0 && len(s.CtxRemote) == 0 && s.ReturnsRoot == nil && s.Retries == nil && len(s.Sets) == 0 && s.ReturnsConn == nil && len(s.ReturnsClient) == 0 && len(s.Effects) == 0
}
