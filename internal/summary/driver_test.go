package summary

import (
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/tools/go/ssa"
	"golang.org/x/tools/go/ssa/ssautil"
)

const loopsSrc = `package p

func retry(op func() error) (err error) {
	for i := 0; i < 3; i++ {
		if err = op(); err == nil {
			break
		}
	}
	return err
}

func ranged(op func() error) {
	for range 4 {
		_ = op()
	}
}

func forever(op func() error) {
	for {
		if op() == nil {
			return
		}
	}
}

func nested(op func() error) {
	for i := 0; i < 2; i++ {
		for j := 0; j <= 4; j += 2 {
			_ = op()
		}
	}
}

func byParam(n int, op func() error) {
	for i := 0; i < n; i++ {
		_ = op()
	}
}

func gotoLoop(op func() error) {
again:
	if op() != nil {
		goto again
	}
}
`

// buildFuncs builds the SSA of one source file.
func buildFuncs(t *testing.T, src string) map[string]*ssa.Function {
	t.Helper()
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", src, 0)
	require.NoError(t, err)
	pkg := types.NewPackage("p", "p")
	ssaPkg, _, err := ssautil.BuildPackage(&types.Config{Importer: importer.Default()}, fset, pkg, []*ast.File{f}, 0)
	require.NoError(t, err)
	out := map[string]*ssa.Function{}
	for _, m := range ssaPkg.Members {
		if fn, ok := m.(*ssa.Function); ok {
			out[fn.Name()] = fn
		}
	}
	return out
}

func constInt(v ssa.Value) (int64, bool) { return intConst(v) }

// TestNaturalLoops checks the driver's loops: one per header, nesting,
// exits with the branch condition that takes them, returns as exits, and
// trip counts from constant bounds only.
func TestNaturalLoops(t *testing.T) {
	fns := buildFuncs(t, loopsSrc)
	trips := func(name string) []int {
		var out []int
		for _, l := range naturalLoops(fns[name]) {
			out = append(out, tripCount(l, constInt))
		}
		return out
	}
	assert.Equal(t, []int{3}, trips("retry"))
	assert.Equal(t, []int{4}, trips("ranged"))
	assert.Equal(t, []int{0}, trips("forever"), "no bound: as many as it takes")
	assert.Equal(t, []int{2, 3}, trips("nested"), "outermost first; 0, 2, 4 is three trips")
	assert.Equal(t, []int{0}, trips("byParam"), "a parameter is not a constant")
	assert.Equal(t, []int{0}, trips("gotoLoop"), "goto makes a natural loop with no counter")

	nested := naturalLoops(fns["nested"])
	require.Len(t, nested, 2)
	assert.Same(t, nested[0], nested[1].parent, "the inner loop's parent is the outer one")
	assert.Nil(t, nested[0].parent)

	retry := naturalLoops(fns["retry"])[0]
	conds := 0
	for _, ex := range retry.exits {
		assert.True(t, retry.body[ex.from], "an exit leaves from the body")
		assert.False(t, retry.body[ex.to], "an exit goes outside the body")
		if ex.cond != nil {
			conds++
		}
	}
	assert.Equal(t, 2, conds, "the loop test and the err == nil break are branch exits")

	forever := naturalLoops(fns["forever"])[0]
	require.Len(t, forever.exits, 1, "the only way out is the branch to the return")
	ex := forever.exits[0]
	require.NotNil(t, ex.cond)
	assert.True(t, ex.onTrue, "taken when op() == nil holds")
	_, returns := ex.to.Instrs[len(ex.to.Instrs)-1].(*ssa.Return)
	assert.True(t, returns)

	ix := indexFunc(fns["nested"])
	for _, l := range ix.loops {
		l.trips = tripCount(l, constInt)
	}
	var inner *ssa.BasicBlock
	for _, c := range ix.calls {
		if _, ok := c.Common().Value.(*ssa.Parameter); ok {
			inner = c.Block()
		}
	}
	require.NotNil(t, inner)
	assert.Equal(t, times(6), ix.multiplicity(inner), "2 outer trips × 3 inner trips")
}

// TestTimes checks the count lattice: unknown absorbs, unbounded
// dominates numbers, counts saturate to unbounded past the cap.
func TestTimes(t *testing.T) {
	assert.Equal(t, times(6), times(2).mul(3))
	assert.Equal(t, times(5), times(2).add(3))
	assert.Equal(t, times(3), times(2).max(3))
	assert.Equal(t, timesUnbounded, times(2).mul(timesUnbounded))
	assert.Equal(t, timesUnbounded, times(2).add(timesUnbounded))
	assert.Equal(t, timesUnknown, timesUnbounded.mul(timesUnknown))
	assert.Equal(t, timesUnknown, times(3).max(timesUnknown))
	assert.Equal(t, timesUnbounded, times(maxTimes).mul(2))
}
