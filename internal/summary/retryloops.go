package summary

import (
	"go/constant"
	"go/token"
	"go/types"
	"sort"

	"golang.org/x/tools/go/ssa"

	"github.com/resilvet/resilvet/internal/analysisutil"
	"github.com/resilvet/resilvet/internal/knowledge"
)

// Hand-written retry layers: the natural loops of the driver's index
// that go round again because a call failed. A loop is a retry layer
// when, for an error some call in its body returned, the branch taken on
// failure stays in the loop and the branch taken on success can leave
// it (for i := 0; i < 3; i++ { if err = call(); err == nil { break } },
// for { …; if err == nil { return }; sleep }). Loops over items (a
// range over a slice, map, string or channel, or a count up to len(x))
// are not, whatever they do with errors: each round works on something
// else. A loop whose failure branch leaves (pagination, polling that
// stops on an error) or whose success branch only goes round again (a
// supervisor restarting a stream) is not either.

// loopLayer is a retry loop.
type loopLayer struct {
	link chainLink
	// countParam is the signature index of the integer parameter the
	// loop's count is compared with, or -1.
	countParam int
	// call is the call whose error drives the loop.
	call ssa.CallInstruction
	l    *loop
}

// retryLoops classifies fn's loops (memoised in info.retryLoops) and
// records them for retrystack.
func (e *engine) retryLoops(info *fnInfo) map[*loop]*loopLayer {
	if info.retryLoops != nil {
		return info.retryLoops
	}
	info.retryLoops = map[*loop]*loopLayer{}
	for _, l := range info.ix.loops {
		if itemLoop(l) || serverDirected(l) {
			continue
		}
		call, failed := e.errorDriven(l)
		if call == nil {
			continue
		}
		count := e.loopAttempts(info, l, call)
		n := count.n
		backoff, budget := e.loopBackOff(l)
		if (n == timesUnbounded || n == timesUnknown) && budget != timesUnknown {
			n = budget // the loop leaves when its backoff object runs out
		}
		ll := &loopLayer{countParam: count.param, call: call, l: l}
		ll.link = chainLink{RetryLink: RetryLink{
			What:     "retry loop",
			Func:     funcDisplay(info.fn),
			At:       analysisutil.ShortPos(e.pass.Fset, call.Pos()),
			Attempts: int(n),
		}, pos: call.Pos(), backoff: backoff}
		if n == timesUnknown && count.field != nil {
			ll.link.CountFrom, ll.link.CountAdd = count.field, count.add
		}
		rl := e.describeLoop(info, l, call, failed, n)
		e.res.retryLoops = append(e.res.retryLoops, rl)
		if n == 1 {
			continue // one attempt: a layer that retries nothing
		}
		info.retryLoops[l] = ll
	}
	return info.retryLoops
}

// itemLoop reports whether l goes over items: a range over a map or a
// string (Next), over a channel (a receive in the header), a count up
// to len(x), or a range over an array (a count up to a constant that
// indexes the array: alternatives tried in turn, each once).
func itemLoop(l *loop) bool {
	for _, instr := range l.header.Instrs {
		switch instr := instr.(type) {
		case *ssa.Next:
			return true
		case *ssa.UnOp:
			if instr.Op == token.ARROW && instr.CommaOk {
				return true
			}
		}
	}
	for _, ex := range l.exits {
		if cmp, ok := ex.cond.(*ssa.BinOp); ok && (isLen(cmp.X) || isLen(cmp.Y) || exhausted(l, cmp, ex.onTrue) || indexesArray(l, cmp.X) || indexesArray(l, cmp.Y)) {
			return true
		}
	}
	return false
}

// indexesArray reports whether the loop's body indexes an array with the
// counter v (range over an array).
func indexesArray(l *loop, v ssa.Value) bool {
	if _, ok := v.(*ssa.Const); ok || v.Referrers() == nil {
		return false
	}
	for _, r := range *v.Referrers() {
		var x ssa.Value
		switch r := r.(type) {
		case *ssa.IndexAddr:
			x = r.X
		case *ssa.Index:
			x = r.X
		default:
			continue
		}
		if !l.body[r.Block()] {
			continue
		}
		if _, ok := derefType(x.Type()).Underlying().(*types.Array); ok {
			return true
		}
	}
	return false
}

// exhausted reports whether an exit is taken when a call in the loop
// hands out nothing (for { r := pool.pick(); if r == nil { break }; … }):
// the loop goes over what the call hands out, failing over from one to
// the next, not trying one again.
func exhausted(l *loop, cmp *ssa.BinOp, onTrue bool) bool {
	v := cmp.X
	if isNil(v) {
		v = cmp.Y
	} else if !isNil(cmp.Y) {
		return false
	}
	if isErrorType(v.Type()) || (cmp.Op == token.EQL) != onTrue {
		return false // not "leave when it is nil"
	}
	if ex, ok := v.(*ssa.Extract); ok {
		v = ex.Tuple
	}
	call, ok := v.(*ssa.Call)
	return ok && l.body[call.Block()]
}

func isLen(v ssa.Value) bool {
	if cv, ok := v.(*ssa.Convert); ok {
		v = cv.X
	}
	c, ok := v.(*ssa.Call)
	if !ok {
		return false
	}
	b, ok := c.Call.Value.(*ssa.Builtin)
	return ok && (b.Name() == "len" || b.Name() == "cap")
}

// errorDriven returns the call whose error decides whether l goes round
// again, or nil: a comparison of its error with nil whose failure branch
// stays in the loop and whose success branch has a way out of its own.
// Of several, the first that does outbound work.
func (e *engine) errorDriven(l *loop) (ssa.CallInstruction, *ssa.BasicBlock) {
	blocks := l.inOrder()
	var first ssa.CallInstruction
	var firstFailed *ssa.BasicBlock
	for _, b := range blocks {
		errv, failed, succeeded, ok := nilTest(b)
		if !ok {
			continue
		}
		call := errorCall(l, errv)
		if call == nil {
			continue
		}
		if l.body[failed] && leavesOnly(l, succeeded, failed) && !e.picksResource(l, call, succeeded) {
			call = e.resultOf(l, call)
			if e.callRemote(call.Common()) {
				return call, failed // the outbound call the loop is for
			}
			if first == nil {
				first, firstFailed = call, failed
			}
		}
	}
	return first, firstFailed
}

// picksResource reports whether a loop's success hands out a resource
// it took earlier in the same round (a pool's connection that passed a
// health check) rather than what the failed call produced: the loop
// walks a pool's items, checking each once, and retries no operation. A
// loop that dials again and returns the new connection, or returns what
// the call produced, retries; so does one handing out a value it made
// locally that round (an id drawn again after a collision): a resource
// is taken by outbound work.
func (e *engine) picksResource(l *loop, call ssa.CallInstruction, succeeded *ssa.BasicBlock) bool {
	failing, _ := call.(ssa.Value)
	seen := map[*ssa.BasicBlock]bool{}
	queue := []*ssa.BasicBlock{succeeded}
	for len(queue) > 0 && len(seen) < 64 {
		b := queue[0]
		queue = queue[1:]
		if b == l.header || seen[b] {
			continue
		}
		seen[b] = true
		queue = append(queue, b.Succs...)
		ret, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return)
		if !ok || len(ret.Results) == 0 {
			continue
		}
		picked, produced := false, false
		var walk func(v ssa.Value, depth int)
		walk = func(v ssa.Value, depth int) {
			if depth > 6 || v == nil || picked && produced {
				return
			}
			if v == failing {
				produced = true
				return
			}
			if c, ok := v.(*ssa.Call); ok && l.body[c.Block()] && before(c, call) && e.callRemote(c.Common()) {
				picked = true
			}
			if a, ok := v.(*ssa.Alloc); ok && a.Referrers() != nil {
				// A variable a closure captured: what is stored in it.
				for _, r := range *a.Referrers() {
					if st, ok := r.(*ssa.Store); ok && st.Addr == a {
						walk(st.Val, depth+1)
					}
				}
				return
			}
			instr, ok := v.(ssa.Instruction)
			if !ok {
				return
			}
			for _, op := range instr.Operands(nil) {
				if *op != nil {
					walk(*op, depth+1)
				}
			}
		}
		walk(ret.Results[0], 0)
		if picked && !produced {
			return true
		}
	}
	return false
}

// resultOf returns, for a call that reads the outcome of a command made
// in the loop (rdb.Get(ctx, k).Result(), resp.Err()), the command: the
// call the loop tries again.
func (e *engine) resultOf(l *loop, call ssa.CallInstruction) ssa.CallInstruction {
	c := call.Common()
	if c.IsInvoke() || c.Signature().Recv() == nil || len(c.Args) == 0 || e.callRemote(c) {
		return call
	}
	if made, ok := c.Args[0].(*ssa.Call); ok && l.body[made.Block()] && e.callRemote(made.Common()) {
		return made
	}
	return call
}

// inOrder returns l's blocks in the function's order, for walks whose
// first match must not depend on map iteration.
func (l *loop) inOrder() []*ssa.BasicBlock {
	blocks := make([]*ssa.BasicBlock, 0, len(l.body))
	for b := range l.body {
		blocks = append(blocks, b)
	}
	sort.Slice(blocks, func(i, j int) bool { return blocks[i].Index < blocks[j].Index })
	return blocks
}

// storedBefore returns the value last stored, earlier in the same
// block, at the address a load reads from; nil when there is none.
func storedBefore(ld *ssa.UnOp) ssa.Value {
	addr, ok := ld.X.(*ssa.Alloc)
	if !ok {
		return nil
	}
	var last ssa.Value
	for _, instr := range ld.Block().Instrs {
		if instr == ld {
			return last
		}
		if st, ok := instr.(*ssa.Store); ok && st.Addr == addr {
			last = st.Val
		}
	}
	return nil
}

// nilTest reads a block ending in a test of a value against nil
// (err != nil, err == nil): the value, and the successors taken when it
// is not nil (failed) and when it is (succeeded).
func nilTest(b *ssa.BasicBlock) (v ssa.Value, failed, succeeded *ssa.BasicBlock, ok bool) {
	ifi, ok := b.Instrs[len(b.Instrs)-1].(*ssa.If)
	if !ok {
		return nil, nil, nil, false
	}
	cmp, ok := ifi.Cond.(*ssa.BinOp)
	if !ok || cmp.Op != token.EQL && cmp.Op != token.NEQ {
		return nil, nil, nil, false
	}
	v = cmp.X
	if isNil(v) {
		v = cmp.Y
	} else if !isNil(cmp.Y) {
		return nil, nil, nil, false
	}
	failed, succeeded = b.Succs[0], b.Succs[1]
	if cmp.Op == token.EQL {
		failed, succeeded = succeeded, failed
	}
	return v, failed, succeeded, true
}

func isNil(v ssa.Value) bool {
	c, ok := v.(*ssa.Const)
	return ok && c.IsNil()
}

// errorCall returns the call in l's body that returned v, an error, when
// it is an operation that can fail and be tried again (not a context's
// Err, not a wait).
func errorCall(l *loop, v ssa.Value) ssa.CallInstruction {
	if !isErrorType(v.Type()) {
		return nil
	}
	if ld, ok := v.(*ssa.UnOp); ok && ld.Op == token.MUL {
		// A named result kept in memory (the function has a defer): what
		// the block stored there last before the test.
		v = storedBefore(ld)
		if v == nil {
			return nil
		}
	}
	if ex, ok := v.(*ssa.Extract); ok {
		v = ex.Tuple
	}
	call, ok := v.(*ssa.Call)
	if !ok || !l.body[call.Block()] {
		return nil
	}
	c := call.Common()
	if c.IsInvoke() && analysisutil.IsContext(c.Value.Type()) || knowledge.Waits(calleeName(c)) || streamed(c) {
		return nil
	}
	return call
}

// streamed reports whether a call's error is a stream's: a message
// received (Recv, RecvMsg, Receive), or the error an item delivered on a
// channel carries (for resp := range cli.Watch(ctx, key) { resp.Err() }).
// A loop going round on those consumes a stream, or restarts one that
// ended (a supervisor): it does not try one operation again.
func streamed(c *ssa.CallCommon) bool {
	var name string
	var recv ssa.Value
	switch {
	case c.IsInvoke():
		name, recv = c.Method.Name(), c.Value
	case c.Signature().Recv() != nil && len(c.Args) > 0:
		if f := calleeFunc(c); f != nil {
			name = f.Name()
		}
		recv = c.Args[0]
	default:
		return false
	}
	switch name {
	case "Recv", "RecvMsg", "Receive":
		return true
	}
	if a, ok := recv.(*ssa.Alloc); ok && a.Referrers() != nil {
		// A pointer method of a received struct: the value stored there.
		for _, r := range *a.Referrers() {
			if st, ok := r.(*ssa.Store); ok && st.Addr == a {
				recv = st.Val
				break
			}
		}
	}
	if ex, ok := recv.(*ssa.Extract); ok {
		recv = ex.Tuple
	}
	u, ok := recv.(*ssa.UnOp)
	return ok && u.Op == token.ARROW
}

func isErrorType(t types.Type) bool {
	return types.Identical(t, types.Universe.Lookup("error").Type())
}

// leavesOnly reports whether, from b, the loop can be left (without
// going round again through its header) by an exit edge that is not
// reachable from other: the success branch has a way out of its own. A
// supervisor whose only way out, a cancelled context, is on both
// branches goes round again whatever the call returned.
func leavesOnly(l *loop, b, other *ssa.BasicBlock) bool {
	theirs := exitEdges(l, other)
	for e := range exitEdges(l, b) {
		if !theirs[e] {
			return true
		}
	}
	return false
}

type edge struct{ from, to *ssa.BasicBlock }

// noSuccess reports whether leaving from b to s is no way out on
// success: a panic, a select's case on a context's Done channel, or a
// block outside the loop that can only go on to those (the next case
// test of a select whose other cases are).
func noSuccess(b, s *ssa.BasicBlock, depth int) bool {
	if panics(s) || doneCase(b, s) || failureExit(b, s) {
		return true
	}
	if depth > 4 || len(s.Succs) == 0 {
		return false
	}
	for _, next := range s.Succs {
		if !noSuccess(s, next, depth+1) {
			return false
		}
	}
	return true
}

// failureExit reports whether the edge from b to s is taken when another
// call failed (if err != nil { return err }): leaving because printing
// the result failed is no success of the call the loop is for.
func failureExit(b, s *ssa.BasicBlock) bool {
	ifi, ok := b.Instrs[len(b.Instrs)-1].(*ssa.If)
	if !ok {
		return false
	}
	cmp, ok := ifi.Cond.(*ssa.BinOp)
	if !ok || cmp.Op != token.EQL && cmp.Op != token.NEQ {
		return false
	}
	errv := cmp.X
	if isNil(errv) {
		errv = cmp.Y
	} else if !isNil(cmp.Y) {
		return false
	}
	if !isErrorType(errv.Type()) {
		return false
	}
	failed := b.Succs[0] // err != nil
	if cmp.Op == token.EQL {
		failed = b.Succs[1]
	}
	return s == failed
}

// doneCase reports whether the edge from b to s is taken when a select
// received from a context's Done channel: leaving because the context is
// done is no success of its own (a poller that waits for its next round
// in a select on ctx.Done() and a ticker is not retrying).
func doneCase(b, s *ssa.BasicBlock) bool {
	ifi, ok := b.Instrs[len(b.Instrs)-1].(*ssa.If)
	if !ok || b.Succs[0] != s {
		return false
	}
	cmp, ok := ifi.Cond.(*ssa.BinOp)
	if !ok || cmp.Op != token.EQL {
		return false
	}
	idx, ok := cmp.X.(*ssa.Extract)
	if !ok || idx.Index != 0 {
		return false
	}
	sel, ok := idx.Tuple.(*ssa.Select)
	k, ok2 := intConst(cmp.Y)
	if !ok || !ok2 || k < 0 || int(k) >= len(sel.States) {
		return false
	}
	st := sel.States[k]
	done, ok := st.Chan.(*ssa.Call)
	return ok && st.Dir == types.RecvOnly && done.Call.IsInvoke() && done.Call.Method.Name() == "Done" && analysisutil.IsContext(done.Call.Value.Type())
}

// panics reports whether block b ends in a panic: no way out on success
// (the SSA builder ends a blocking select with one, for the case that
// cannot happen).
func panics(b *ssa.BasicBlock) bool {
	_, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Panic)
	return ok
}

// exitEdges returns the edges leaving l's body reachable from b without
// passing through the header (b itself may be outside the body: the
// branch leaves at once).
func exitEdges(l *loop, b *ssa.BasicBlock) map[edge]bool {
	out := map[edge]bool{}
	if b == l.header {
		return out // straight round again
	}
	if !l.body[b] {
		out[edge{nil, b}] = true
		return out
	}
	seen := map[*ssa.BasicBlock]bool{b: true}
	stack := []*ssa.BasicBlock{b}
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, s := range n.Succs {
			if !l.body[s] {
				if !noSuccess(n, s, 0) {
					out[edge{n, s}] = true
				}
				continue
			}
			if s == l.header || seen[s] {
				continue
			}
			seen[s] = true
			stack = append(stack, s)
		}
	}
	return out
}

// loopCount is a retry loop's count: its attempts, and where they are
// unknown, the integer parameter (param, a signature index, or -1), or
// the field of a parameter (field, plus add), that bounds them.
type loopCount struct {
	n     times
	param int
	field *ParamRef
	add   int
}

// loopAttempts returns a retry loop's count: a trip count, or the least
// count of its exits that test a counter against a constant; unknown
// when an exit tests it against something else (a parameter, a field),
// unbounded when nothing counts.
func (e *engine) loopAttempts(info *fnInfo, l *loop, call ssa.CallInstruction) loopCount {
	if l.trips > 0 {
		return loopCount{n: times(l.trips), param: -1}
	}
	best, found, unknown := 0, false, false
	out := loopCount{param: -1}
	for _, ex := range l.exits {
		cmp, ok := ex.cond.(*ssa.BinOp)
		if !ok {
			if ex.from == l.header && ex.cond != nil {
				// for b.Ongoing() { … }: a condition that is not a count
				// decides how many rounds there are.
				unknown = true
			}
			continue
		}
		op, x, y := cmp.Op, cmp.X, cmp.Y
		ctr, ok := counterOf(e, l, x)
		if !ok {
			ctr, ok = counterOf(e, l, y)
			if !ok {
				if ex.from == l.header && isInteger(x.Type()) {
					// for n = 0; n <= max; n++ with n captured by a
					// closure, kept in memory: a count, not followed.
					unknown = true
				}
				continue
			}
			op, x, y = swapOp(op), y, x
		}
		pre := ex.from != call.Block() && ex.from.Dominates(call.Block())
		bound, ok := e.intOf(y)
		if !ok {
			unknown = true
			if p, ok := y.(*ssa.Parameter); ok && p.Parent() == info.fn {
				out.param = sigIndex(info.fn, p)
			} else if ref := paramField(info.fn, y); ref != nil {
				// for i := 0; i < c.retries; i++: as many as the field
				// holds, plus what the comparison adds (<=: one).
				n1, ok1 := ctr.runs(op, 100, ex.onTrue, pre)
				n2, ok2 := ctr.runs(op, 200, ex.onTrue, pre)
				if ok1 && ok2 && n1-100 == n2-200 {
					out.field, out.add = ref, n1-100
				}
			}
			continue
		}
		if n, ok := ctr.runs(op, bound, ex.onTrue, pre); ok && (!found || n < best) {
			best, found = n, true
		}
	}
	switch {
	case found:
		return loopCount{n: attemptsOf(int64(best)), param: -1}
	case unknown:
		out.n = timesUnknown
		return out
	}
	return loopCount{n: timesUnbounded, param: -1}
}

// serverDirected reports whether l leaves on the error of a retrier that
// goes round again only when the server asks it to, with Retry-After
// (see knowledge.IsServerDirectedGate): such a loop adds attempts only
// at the server's request, as the runtime's retries do, and is no layer
// a caller stacks.
func serverDirected(l *loop) bool {
	for _, ex := range l.exits {
		if cmp, ok := ex.cond.(*ssa.BinOp); ok && gatedExit(cmp) {
			return true
		}
	}
	return false
}

// gatedExit reports whether cmp compares a server-directed retrier's
// error with nil.
func gatedExit(cmp *ssa.BinOp) bool {
	if cmp.Op != token.NEQ && cmp.Op != token.EQL {
		return false
	}
	for _, v := range []ssa.Value{cmp.X, cmp.Y} {
		if c, ok := v.(*ssa.Call); ok && knowledge.IsServerDirectedGate(calleeName(c.Common())) {
			return isNilConst(cmp.X) || isNilConst(cmp.Y)
		}
	}
	return false
}

// paramField returns the parameter's field v loads (c.retries), or nil.
func paramField(fn *ssa.Function, v ssa.Value) *ParamRef {
	u, ok := v.(*ssa.UnOp)
	if !ok || u.Op != token.MUL {
		return nil
	}
	fa, ok := u.X.(*ssa.FieldAddr)
	if !ok {
		return nil
	}
	p, ok := fa.X.(*ssa.Parameter)
	if !ok || p.Parent() != fn {
		return nil
	}
	return &ParamRef{Param: sigIndex(fn, p), Field: fa.Field}
}

// counter is an integer that counts the rounds of a loop: a phi of the
// header that starts at a constant and moves by a constant step each
// round, plus an offset (i+1 is tested in range loops).
type counter struct {
	start, step, offset int64
}

func counterOf(e *engine, l *loop, v ssa.Value) (counter, bool) {
	var off int64
	if b, ok := v.(*ssa.BinOp); ok && (b.Op == token.ADD || b.Op == token.SUB) {
		k, ok := e.intOf(b.Y)
		if !ok {
			return counter{}, false
		}
		if b.Op == token.SUB {
			k = -k
		}
		off, v = k, b.X
	}
	phi, ok := v.(*ssa.Phi)
	if !ok || phi.Block() != l.header {
		return counter{}, false
	}
	c := counter{offset: off}
	haveStart, haveStep := false, false
	for i, edge := range phi.Edges {
		if !l.body[l.header.Preds[i]] {
			n, ok := e.intOf(edge)
			if !ok || haveStart && n != c.start {
				return counter{}, false
			}
			c.start, haveStart = n, true
			continue
		}
		b, ok := edge.(*ssa.BinOp)
		if !ok || b.X != phi || b.Op != token.ADD && b.Op != token.SUB {
			return counter{}, false
		}
		k, ok := e.intOf(b.Y)
		if !ok || k == 0 {
			return counter{}, false
		}
		if b.Op == token.SUB {
			k = -k
		}
		if haveStep && k != c.step {
			return counter{}, false
		}
		c.step, haveStep = k, true
	}
	return c, haveStart && haveStep
}

// runs counts the rounds in which the loop's call runs before the exit
// "counter op bound" (taken when the comparison is leaveOn) leaves the
// loop: tested before the call (pre) or after it. It reports false when
// the exit is not taken within maxRounds rounds.
func (c counter) runs(op token.Token, bound int64, leaveOn, pre bool) (int, bool) {
	const maxRounds = 1 << 12
	switch op {
	case token.LSS, token.LEQ, token.GTR, token.GEQ, token.EQL, token.NEQ:
	default:
		return 0, false
	}
	v := c.start
	for k := range maxRounds {
		if constant.Compare(constant.MakeInt64(v+c.offset), op, constant.MakeInt64(bound)) == leaveOn {
			if pre {
				return k, true
			}
			return k + 1, true
		}
		v += c.step
	}
	return 0, false
}

// swapOp mirrors a comparison: x < y is y > x.
func swapOp(op token.Token) token.Token {
	switch op {
	case token.LSS:
		return token.GTR
	case token.GTR:
		return token.LSS
	case token.LEQ:
		return token.GEQ
	case token.GEQ:
		return token.LEQ
	}
	return op
}
