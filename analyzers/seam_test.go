package analyzers_test

import (
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/resilvet/resilvet/analyzers/ctxdrop"
	"github.com/resilvet/resilvet/analyzers/notimeout"
	"github.com/resilvet/resilvet/internal/resilvettest"
)

var seamMark = regexp.MustCompile(`// seam: (ctxdrop|notimeout|silent)`)

// TestHandoffSeam runs ctxdrop and notimeout on the same cases and checks
// the seam between them: each line marked "seam: X" is reported by X
// alone (or, for "silent", by neither), and no unmarked line is reported.
func TestHandoffSeam(t *testing.T) {
	dir := resilvettest.TestData()
	lines := map[string]map[int]bool{"ctxdrop": {}, "notimeout": {}}
	var file string
	for name, a := range map[string]*analysis.Analyzer{"ctxdrop": ctxdrop.Analyzer, "notimeout": notimeout.Analyzer} {
		for _, r := range analysistest.Run(ignoreWant{t}, dir, a, "seam/handoff") {
			for _, d := range r.Diagnostics {
				p := r.Pass.Fset.Position(d.Pos)
				file = p.Filename
				lines[name][p.Line] = true
			}
		}
	}
	require.NotEmpty(t, file, "no findings at all")
	src, err := os.ReadFile(file)
	require.NoError(t, err)
	marked := 0
	for i, line := range strings.Split(string(src), "\n") {
		n := i + 1
		m := seamMark.FindStringSubmatch(line)
		if m == nil {
			assert.False(t, lines["ctxdrop"][n] || lines["notimeout"][n], "line %d is reported but not marked: %s", n, strings.TrimSpace(line))
			continue
		}
		marked++
		want := m[1]
		assert.Equal(t, want == "ctxdrop", lines["ctxdrop"][n], "line %d (%s): ctxdrop", n, want)
		assert.Equal(t, want == "notimeout", lines["notimeout"][n], "line %d (%s): notimeout", n, want)
	}
	assert.Greater(t, marked, 5)
}

// ignoreWant runs analysistest without failing on findings the fixture
// has no // want lines for: the seam marks are the expectations here.
type ignoreWant struct{ *testing.T }

func (ignoreWant) Errorf(string, ...any) {}
