package ctxverdict_test

import (
	"go/token"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/resilvet/resilvet/internal/ctxverdict"
	"github.com/resilvet/resilvet/internal/resilvettest"
	"github.com/resilvet/resilvet/internal/summary"
)

// TestOnePerSummary: For gives one verdict analyzer per summary analyzer,
// reading that summary.
func TestOnePerSummary(t *testing.T) {
	assert.Same(t, ctxverdict.Analyzer, ctxverdict.For(summary.Analyzer))
	sum := summary.New(func() summary.Config { return summary.Config{} })
	v := ctxverdict.For(sum)
	assert.Same(t, v, ctxverdict.For(sum))
	assert.NotSame(t, ctxverdict.Analyzer, v)
	assert.Contains(t, v.Requires, sum)
	require.NoError(t, analysis.Validate([]*analysis.Analyzer{v}))
}

// TestHandedOff runs the verdicts on the seam fixture: the calls handed
// off are exactly the verdicts of rules 1 and 2, each with the context in
// scope (and a root with the sinks it reaches), on lines the fixture
// gives to ctxdrop or, where a directive silences it, to neither.
func TestHandedOff(t *testing.T) {
	var lines []int
	var file string
	probe := &analysis.Analyzer{
		Name:     "probe",
		Doc:      "reads the verdicts",
		Requires: []*analysis.Analyzer{ctxverdict.Analyzer},
		Run: func(pass *analysis.Pass) (any, error) {
			res := pass.ResultOf[ctxverdict.Analyzer].(*ctxverdict.Result)
			for _, v := range res.Calls() {
				var call token.Pos
				switch v := v.(type) {
				case *ctxverdict.Root:
					assert.NotEmpty(t, v.Sinks)
					assert.NotNil(t, v.Scope)
					call = v.Call.Lparen
				case *ctxverdict.Twin:
					assert.NotNil(t, v.Scope)
					call = v.Call.Lparen
				}
				assert.True(t, res.HandedOff(call))
				assert.Equal(t, call, res.CallAt(call).Lparen)
				p := pass.Fset.Position(call)
				file = p.Filename
				lines = append(lines, p.Line)
			}
			for _, d := range res.Drops() {
				assert.False(t, res.HandedOff(d.Call.Lparen), "rule 3 stays ctxdrop's alone")
			}
			return nil, nil
		},
	}
	analysistest.Run(t, resilvettest.TestData(), probe, "seam/handoff")
	require.NotEmpty(t, lines)
	src, err := os.ReadFile(file)
	require.NoError(t, err)
	text := strings.Split(string(src), "\n")
	for _, n := range lines {
		line := text[n-1]
		assert.True(t, strings.Contains(line, "seam: ctxdrop") || strings.Contains(line, "seam: silent"), "line %d: %s", n, strings.TrimSpace(line))
	}
}
