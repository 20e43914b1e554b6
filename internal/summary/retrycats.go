package summary

import (
	"go/token"
	"go/types"
	"slices"
	"strings"
	"time"

	"golang.org/x/tools/go/ssa"

	"github.com/resilvet/resilvet/internal/analysisutil"
	"github.com/resilvet/resilvet/internal/knowledge"
)

// What a retry loop does between attempts, for retrystack's categories
// beside nesting: whether it waits, sleeps past its context, has a way
// out once the context is done, sends a consumed body again or retries
// an open circuit; and whether its body does outbound work, which every
// category needs.

// RetryLoop describes a hand-written retry layer, for retrystack's
// categories of its own.
type RetryLoop struct {
	// Pos is the call whose failure makes the loop go round again.
	Pos token.Pos
	// Callee names it.
	Callee string
	// Attempts is the loop's count: above 1, unbounded (-1) or unknown (0).
	Attempts int
	// Waits is set when the loop's body waits before going round again
	// (a sleep, a timer, a select, a backoff), or may (a call named for
	// waiting, a callee that blocks).
	Waits bool
	// Sleep is a time.Sleep (or a receive from time.After) in the body
	// when the function has a context in scope: the wait cannot be
	// cancelled and may last past the deadline. NoPos otherwise.
	Sleep token.Pos
	// Remote is set when the loop's body does outbound work on a remote
	// peer, or the call retried is a func value (a retry helper's
	// operation, whatever its callers give it): a loop trying local work
	// again (removing a busy directory) is no resilience concern,
	// whatever it does between attempts.
	Remote bool
	// Direct is set when the call retried is itself outbound work: a call
	// of the table, a retrying client's, or a function of this package
	// that makes one (not work that reaches a dependency only somewhere
	// far below, where trying again at once may be the point).
	Direct bool
	// Forever is set when the loop has no bound, a context is in scope,
	// and nothing leaves the loop once the call has failed: no exit on
	// the failure path, no check of the context's Done or Err. Once the
	// context is done, the loop retries its error for ever.
	Forever bool
	// Breaker is a circuit breaker's call in the loop when the loop never
	// looks for the error the breaker fails with while open
	// (gobreaker.ErrOpenState, the runtime's breaker.ErrOpen): it retries
	// an open circuit, which rejects every attempt at once. NoPos
	// otherwise.
	Breaker token.Pos
	// Resent is a Client.Do in the loop that sends again a request built
	// before it, whose body an attempt consumes (an io.Reader other than
	// the ones http.NewRequest can rewind, no GetBody set): the retry
	// sends an empty body. NoPos otherwise.
	Resent token.Pos
}

// RetryLoops lists the package's hand-written retry layers, in source
// order.
func (r *Result) RetryLoops() []*RetryLoop { r.ready(); return r.retryLoops }

// describeLoop describes a retry loop for retrystack's categories, in one
// walk of its body: the call whose failure drives it, its count, and the
// edge out of the failure branch's block (failed).
func (e *engine) describeLoop(info *fnInfo, l *loop, call ssa.CallInstruction, failed *ssa.BasicBlock, n times) *RetryLoop {
	c := call.Common()
	rl := &RetryLoop{Pos: call.Pos(), Callee: retryCallName(c), Attempts: int(n), Direct: e.directRemote(c), Remote: calledValue(c)}
	hasCtx := hasContext(info.fn)
	checksCtx, rewound := false, false
	var resend, breaker *ssa.Call
	var openErrs []string
	mentioned := map[string]bool{} // package variables the body reads
	blocks := l.inOrder()
	for _, b := range blocks {
		for _, instr := range b.Instrs {
			switch instr := instr.(type) {
			case *ssa.Select:
				rl.Waits = rl.Waits || instr.Blocking
			case *ssa.UnOp:
				switch instr.Op {
				case token.ARROW:
					rl.Waits = true
					if call, ok := instr.X.(*ssa.Call); ok && calleeName(call.Common()) == "time.After" && hasCtx && !rl.Sleep.IsValid() && !e.briefWait(call.Call.Args[0]) {
						rl.Sleep = instr.Pos()
					}
				case token.MUL:
					if g, ok := instr.X.(*ssa.Global); ok && g.Pkg != nil {
						mentioned[g.Pkg.Pkg.Path()+"."+g.Name()] = true
					}
				}
			case *ssa.BinOp:
				checksCtx = checksCtx || isContextError(instr.X) || isContextError(instr.Y)
			case *ssa.Store:
				// Setting a request's Body or GetBody rewinds it.
				if fa, ok := instr.Addr.(*ssa.FieldAddr); ok {
					if st, ok := structOf(fa.X.Type()); ok {
						name := st.Field(fa.Field).Name()
						rewound = rewound || name == "Body" || name == "GetBody"
					}
				}
			case ssa.CallInstruction:
				c := instr.Common()
				name := calleeName(c)
				if name == "time.Sleep" && hasCtx && !rl.Sleep.IsValid() && !e.briefWait(c.Args[0]) {
					rl.Sleep = c.Pos()
				}
				rl.Waits = rl.Waits || knowledge.Waits(name) || waitName(c) || e.calleeBlocks(c)
				rl.Remote = rl.Remote || e.callRemote(c)
				if c.IsInvoke() && analysisutil.IsContext(c.Value.Type()) && (c.Method.Name() == "Done" || c.Method.Name() == "Err") {
					checksCtx = true
				}
				for _, a := range c.Args {
					checksCtx = checksCtx || isContextError(a)
				}
				call, ok := instr.(*ssa.Call)
				if !ok {
					continue
				}
				if br, ok := knowledge.BreakerOf(name); ok && breaker == nil {
					breaker, openErrs = call, br.OpenErrors
				}
				if resend == nil && resendsBody(l, call) {
					resend = call
				}
			}
		}
	}
	rl.Forever = n == timesUnbounded && hasCtx && len(exitEdges(l, failed)) == 0 && !checksCtx
	if resend != nil && !rewound {
		rl.Resent = resend.Pos()
	}
	if breaker != nil && !slices.ContainsFunc(openErrs, func(name string) bool { return mentioned[name] }) {
		rl.Breaker = breaker.Pos()
	}
	return rl
}

// resendsBody reports whether call is a (*http.Client).Do sending a
// request built before loop l with a body that cannot be rewound.
func resendsBody(l *loop, call *ssa.Call) bool {
	if calleeName(call.Common()) != "(*net/http.Client).Do" || len(call.Call.Args) < 2 {
		return false
	}
	made, ok := requestOrigin(call.Call.Args[1]).(*ssa.Call)
	if !ok || l.body[made.Block()] {
		return false // built in the loop: each attempt has its own body
	}
	switch calleeName(made.Common()) {
	case "net/http.NewRequest":
		return !rewindable(made.Call.Args[2])
	case "net/http.NewRequestWithContext":
		return !rewindable(made.Call.Args[3])
	}
	return false
}

// directRemote reports whether a call is outbound work itself, or a
// function of this package that makes such a call.
func (e *engine) directRemote(c *ssa.CallCommon) bool {
	if e.tableRemote(c) {
		return true
	}
	fn := c.StaticCallee()
	if fn == nil || e.local[fn] == nil {
		return false
	}
	for _, instr := range e.local[fn].ix.calls {
		if e.tableRemote(instr.Common()) {
			return true
		}
	}
	return false
}

// tableRemote reports whether a call is outbound work on a remote peer by
// the knowledge tables alone: an outbound call, a retrying client's.
func (e *engine) tableRemote(c *ssa.CallCommon) bool {
	name := calleeName(c)
	if o, ok := e.ext.OutboundOf(name); ok && e.outboundApplies(c, o) {
		return !e.localOutbound(c, name, o)
	}
	l, ok := retryLayerOf(c)
	return ok && l.FuncArg < 0
}

// briefWait reports whether a wait's duration is a constant under a
// second: a throttle that outlives the deadline by less than that does
// not matter.
func (e *engine) briefWait(d ssa.Value) bool {
	n, ok := e.intOf(d)
	return ok && n < int64(time.Second)
}

// calledValue reports whether a call is of a func value: a parameter, a
// field, a variable.
func calledValue(c *ssa.CallCommon) bool {
	if c.IsInvoke() || c.StaticCallee() != nil {
		return false
	}
	_, builtin := c.Value.(*ssa.Builtin)
	return !builtin
}

// waitName reports whether the called function or method is named for
// waiting between attempts (Sleep, Backoff, Wait, Delay, Pause,
// Throttle, NextBackOff).
func waitName(c *ssa.CallCommon) bool {
	var name string
	if c.IsInvoke() {
		name = c.Method.Name()
	} else if f := calleeFunc(c); f != nil {
		name = f.Name()
	} else {
		return false
	}
	name = strings.ToLower(name)
	for _, w := range []string{"sleep", "backoff", "wait", "delay", "pause", "throttle"} {
		if strings.Contains(name, w) {
			return true
		}
	}
	return false
}

// calleeBlocks reports whether a function of this package called here
// can block by itself.
func (e *engine) calleeBlocks(c *ssa.CallCommon) bool {
	fn := c.StaticCallee()
	if fn == nil || e.local[fn] == nil {
		return false
	}
	return e.blocks(fn)
}

// hasContext reports whether a context is in scope in fn: a parameter
// or a free variable.
func hasContext(fn *ssa.Function) bool {
	for _, p := range fn.Params {
		if analysisutil.IsContext(p.Type()) {
			return true
		}
	}
	for _, fv := range fn.FreeVars {
		t := fv.Type()
		if p, ok := t.(*types.Pointer); ok {
			t = p.Elem()
		}
		if analysisutil.IsContext(t) {
			return true
		}
	}
	return false
}

// isContextError reports whether v is context.Canceled or
// context.DeadlineExceeded.
func isContextError(v ssa.Value) bool {
	if mi, ok := v.(*ssa.MakeInterface); ok {
		v = mi.X
	}
	ld, ok := v.(*ssa.UnOp)
	if !ok || ld.Op != token.MUL {
		return false
	}
	g, ok := ld.X.(*ssa.Global)
	return ok && g.Pkg != nil && g.Pkg.Pkg.Path() == "context" && (g.Name() == "Canceled" || g.Name() == "DeadlineExceeded")
}

// requestOrigin follows a request through Extract, Clone and WithContext
// (which share the body) to where it is made.
func requestOrigin(v ssa.Value) ssa.Value {
	for range 8 {
		switch x := v.(type) {
		case *ssa.Extract:
			v = x.Tuple
		case *ssa.Call:
			switch calleeName(x.Common()) {
			case "(*net/http.Request).Clone", "(*net/http.Request).WithContext":
				v = x.Call.Args[0]
			default:
				return x
			}
		default:
			return v
		}
	}
	return v
}

// rewindable reports whether a body given to http.NewRequest can be sent
// again: none, http.NoBody, or a type for which NewRequest sets GetBody.
func rewindable(body ssa.Value) bool {
	if c, ok := body.(*ssa.Const); ok && c.IsNil() {
		return true
	}
	mi, ok := body.(*ssa.MakeInterface)
	if !ok {
		return false
	}
	if ld, ok := mi.X.(*ssa.UnOp); ok {
		if g, ok := ld.X.(*ssa.Global); ok && g.Pkg != nil && g.Pkg.Pkg.Path() == "net/http" && g.Name() == "NoBody" {
			return true
		}
	}
	switch types.TypeString(mi.X.Type(), nil) {
	case "*bytes.Buffer", "*bytes.Reader", "*strings.Reader", "net/http.noBody":
		return true
	}
	return false
}
