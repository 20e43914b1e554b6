package summary

import (
	"go/constant"
	"go/token"

	"golang.org/x/tools/go/ssa"
)

// The driver's part of the engine knows no claim. It builds, once per
// function, the index every claim module reads (call sites, stores,
// closures and their bindings, natural loops with their exits and trip
// counts) and orders functions by the strongly connected components of
// the call graph. The claim modules (values.go: contexts, clients,
// requests and dialers; funcs.go: func values; sites.go: outbound calls;
// roots.go and ctxclaims.go: root contexts) hook the walk; none of them
// walks a function's blocks for what the index already holds.

// funcIndex is what the driver knows of one function's body.
type funcIndex struct {
	calls []ssa.CallInstruction
	// closures lists the closures the function makes, each with the
	// values bound to its free variables (MakeClosure.Bindings).
	closures []*ssa.MakeClosure
	loops    []*loop
	// loopOf maps each block to the innermost loop containing it.
	loopOf map[*ssa.BasicBlock]*loop
}

// loop is a natural loop: a header that dominates every block of the
// body, entered only through the header, repeated through back edges.
type loop struct {
	header *ssa.BasicBlock
	// latches are the sources of the back edges (edges to the header
	// from blocks it dominates).
	latches []*ssa.BasicBlock
	body    map[*ssa.BasicBlock]bool
	// exits are the edges leaving the body (a return inside a loop is a
	// block outside its body: it cannot reach the back edge).
	exits  []loopExit
	parent *loop
	// trips is the loop's trip count when the loop counts an integer from
	// a constant to a constant (for i := 0; i < 3; i++, for range 3), else
	// 0: "as many times as it takes". Set by the engine once the
	// constants module can resolve fields (countLoops).
	trips int
}

// loopExit is one way out of a loop.
type loopExit struct {
	from *ssa.BasicBlock // in the body
	to   *ssa.BasicBlock // outside the body
	// cond is the branch condition of from when the exit is one branch of
	// an if (nil otherwise), and onTrue says which branch leaves.
	cond   ssa.Value
	onTrue bool
}

// times is a count of executions in the lattice the func-values claim
// uses: an exact upper bound ≥ 1, unbounded, or unknown.
type times int

const (
	timesUnknown   times = 0
	timesUnbounded times = -1
)

// maxTimes caps exact counts: beyond it a count is as good as unbounded
// for every reader, and products stay small.
const maxTimes = 1 << 20

func (t times) mul(u times) times {
	switch {
	case t == timesUnknown || u == timesUnknown:
		return timesUnknown
	case t == timesUnbounded || u == timesUnbounded:
		return timesUnbounded
	case int(t)*int(u) > maxTimes:
		return timesUnbounded
	}
	return t * u
}

func (t times) add(u times) times {
	switch {
	case t == timesUnknown || u == timesUnknown:
		return timesUnknown
	case t == timesUnbounded || u == timesUnbounded:
		return timesUnbounded
	case int(t)+int(u) > maxTimes:
		return timesUnbounded
	}
	return t + u
}

// max joins two counts of alternative paths.
func (t times) max(u times) times {
	switch {
	case t == timesUnknown || u == timesUnknown:
		return timesUnknown
	case t == timesUnbounded || u == timesUnbounded:
		return timesUnbounded
	}
	return max(t, u)
}

// indexFunc builds fn's index in one walk of its blocks.
func indexFunc(fn *ssa.Function) *funcIndex {
	ix := &funcIndex{loopOf: map[*ssa.BasicBlock]*loop{}}
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			switch instr := instr.(type) {
			case ssa.CallInstruction:
				ix.calls = append(ix.calls, instr)
			case *ssa.MakeClosure:
				ix.closures = append(ix.closures, instr)
			}
		}
	}
	ix.loops = naturalLoops(fn)
	// Outermost loops come first (bodies shrink), so the last loop that
	// contains a block is its innermost.
	for _, l := range ix.loops {
		for b := range l.body {
			ix.loopOf[b] = l
		}
	}
	return ix
}

// multiplicity is how many times the instructions of block b run per
// execution of the function: the product of the trip counts of the
// loops around it.
func (ix *funcIndex) multiplicity(b *ssa.BasicBlock) times {
	t := times(1)
	for l := ix.loopOf[b]; l != nil; l = l.parent {
		if l.trips > 0 {
			t = t.mul(times(l.trips))
		} else {
			t = t.mul(timesUnbounded)
		}
	}
	return t
}

// naturalLoops finds fn's natural loops, outermost first. A back edge
// is an edge to a block that dominates its source; the body of the loop
// of header h is h and every block that reaches a latch without passing
// through h. Loops sharing a header are one loop. Irreducible cycles
// (entered other than through a dominating header, as goto can make)
// have no back edge and are not loops here: no claim is made about them.
func naturalLoops(fn *ssa.Function) []*loop {
	byHeader := map[*ssa.BasicBlock]*loop{}
	var order []*loop
	for _, b := range fn.Blocks {
		for _, s := range b.Succs {
			if !s.Dominates(b) {
				continue
			}
			l := byHeader[s]
			if l == nil {
				l = &loop{header: s, body: map[*ssa.BasicBlock]bool{s: true}}
				byHeader[s] = l
				order = append(order, l)
			}
			l.latches = append(l.latches, b)
			stack := []*ssa.BasicBlock{b}
			for len(stack) > 0 {
				n := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				if l.body[n] {
					continue
				}
				l.body[n] = true
				stack = append(stack, n.Preds...)
			}
		}
	}
	// Nesting: a loop's parent is the smallest other loop whose body
	// holds its header.
	for _, l := range order {
		for _, o := range order {
			if o != l && o.body[l.header] && len(o.body) > len(l.body) && (l.parent == nil || len(o.body) < len(l.parent.body)) {
				l.parent = o
			}
		}
	}
	for _, l := range order {
		l.exits = exitsOf(l)
	}
	// Outermost first: larger bodies first, ties in block order.
	sortLoops(order)
	return order
}

func sortLoops(ls []*loop) {
	for i := 1; i < len(ls); i++ {
		for j := i; j > 0 && less(ls[j], ls[j-1]); j-- {
			ls[j], ls[j-1] = ls[j-1], ls[j]
		}
	}
}

func less(a, b *loop) bool {
	if len(a.body) != len(b.body) {
		return len(a.body) > len(b.body)
	}
	return a.header.Index < b.header.Index
}

// exitsOf lists the ways out of l's body.
func exitsOf(l *loop) []loopExit {
	var out []loopExit
	for b := range l.body {
		ifi, _ := b.Instrs[len(b.Instrs)-1].(*ssa.If)
		for i, s := range b.Succs {
			if l.body[s] {
				continue
			}
			ex := loopExit{from: b, to: s}
			if ifi != nil {
				ex.cond, ex.onTrue = ifi.Cond, i == 0
			}
			out = append(out, ex)
		}
	}
	sortExits(out)
	return out
}

func sortExits(es []loopExit) {
	for i := 1; i < len(es); i++ {
		for j := i; j > 0 && es[j].from.Index < es[j-1].from.Index; j-- {
			es[j], es[j-1] = es[j-1], es[j]
		}
	}
}

// tripCount recognises the counting loop, in the two shapes the SSA
// builder gives: for i := a; i < b; i++ tests i, a phi of the header, in
// the header; for i := range b tests i+1 in the latch before going
// round again. Either way the phi's entry edge is a constant, its back
// edge adds a constant step, and b is a constant. It returns the count
// (an upper bound: a break or a return may end the loop sooner), or 0.
// intOf resolves the bound and the start (the constants module: literals,
// named constants, fields set to a constant).
func tripCount(l *loop, intOf func(ssa.Value) (int64, bool)) int {
	var cond *ssa.BinOp
	if c, ok := loopTest(l, l.header); ok {
		cond = c
	} else if len(l.latches) == 1 {
		if c, ok := loopTest(l, l.latches[0]); ok {
			cond = c
		}
	}
	if cond == nil {
		return 0
	}
	limit, ok := intOf(cond.Y)
	if !ok {
		return 0
	}
	// The test is on the counter (i < n, tested before the body) or on
	// its next value (i+1 < n, tested after it: range loops, and loops
	// whose header is their only block).
	x := cond.X
	if add, ok := x.(*ssa.BinOp); ok && add.Op == token.ADD {
		x = add.X
	}
	phi, ok := x.(*ssa.Phi)
	if !ok || phi.Block() != l.header {
		return 0
	}
	var start, step int64
	var haveStart, haveStep bool
	for i, edge := range phi.Edges {
		pred := l.header.Preds[i]
		if !l.body[pred] {
			v, ok := intOf(edge)
			if !ok || haveStart && v != start {
				return 0
			}
			start, haveStart = v, true
			continue
		}
		add, ok := edge.(*ssa.BinOp)
		if !ok || add.Op != token.ADD || add.X != phi {
			return 0
		}
		v, ok := intConst(add.Y)
		if !ok || v <= 0 || haveStep && v != step {
			return 0
		}
		step, haveStep = v, true
	}
	if !haveStart || !haveStep {
		return 0
	}
	n := limit - start
	switch cond.Op {
	case token.LSS, token.NEQ:
	case token.LEQ:
		n++
	default:
		return 0
	}
	if n <= 0 {
		return 0
	}
	n = (n + step - 1) / step
	if n > maxTimes {
		return 0
	}
	return int(n)
}

// loopTest returns the comparison block b branches on when its true
// branch stays in the loop and its false branch leaves it.
func loopTest(l *loop, b *ssa.BasicBlock) (*ssa.BinOp, bool) {
	ifi, ok := b.Instrs[len(b.Instrs)-1].(*ssa.If)
	if !ok || !l.body[b.Succs[0]] || l.body[b.Succs[1]] {
		return nil, false
	}
	cmp, ok := ifi.Cond.(*ssa.BinOp)
	return cmp, ok
}

// intConst returns the value of an integer constant.
func intConst(v ssa.Value) (int64, bool) {
	c, ok := v.(*ssa.Const)
	if !ok || c.Value == nil || c.Value.Kind() != constant.Int {
		return 0, false
	}
	return constant.Int64Val(c.Value)
}

// returnedValues lists what fn returns at result i, one value per return
// instruction.
func returnedValues(fn *ssa.Function, i int) []ssa.Value {
	var out []ssa.Value
	for _, b := range fn.Blocks {
		if ret, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return); ok && i < len(ret.Results) {
			out = append(out, ret.Results[i])
		}
	}
	return out
}
