package analyzers_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/tools/go/analysis"

	"github.com/resilvet/resilvet/analyzers"
	"github.com/resilvet/resilvet/internal/analysisutil"
)

// TestSuite checks what every driver relies on: the suite validates (no
// fact type registered twice, no cycles), names are unique, and each
// analyzer documents itself with a title, an example, a fix and a URL to a
// page that exists in docs/.
func TestSuite(t *testing.T) {
	all := analyzers.All()
	require.NotEmpty(t, all)
	require.NoError(t, analysis.Validate(all))
	seen := map[string]bool{}
	for _, a := range all {
		assert.False(t, seen[a.Name], "duplicate analyzer %s", a.Name)
		seen[a.Name] = true
		title, _, _ := strings.Cut(a.Doc, "\n")
		assert.True(t, strings.HasPrefix(title, a.Name+": "), "%s: Doc must start with %q", a.Name, a.Name+": ")
		assert.Contains(t, a.Doc, "\n\nExample:\n\n", a.Name)
		assert.Contains(t, a.Doc, "\n\nFix:\n\n", a.Name)
		assert.Equal(t, analysisutil.URL(a.Name), a.URL)
		page := filepath.Join("..", "docs", "analyzers", a.Name+".md")
		_, err := os.Stat(page)
		assert.NoError(t, err, "%s: documentation page %s", a.Name, page)
		assert.Empty(t, a.FactTypes, "%s: only the summary analyzer owns facts", a.Name)
	}
}

// TestSuiteCoversAll checks that a suite built from options has every
// analyzer, sharing one fresh summary analyzer of their own, and that it
// validates as a run of the suite must.
func TestSuiteCoversAll(t *testing.T) {
	opts := analyzers.Options{IncludeTests: true}
	suite := analyzers.Suite(&opts)
	require.NoError(t, analysis.Validate(suite))
	var names, want []string
	for _, a := range analyzers.All() {
		want = append(want, a.Name)
	}
	var sum *analysis.Analyzer
	for i, a := range suite {
		names = append(names, a.Name)
		assert.NotSame(t, analyzers.All()[i], a)
		last := a.Requires[len(a.Requires)-1]
		assert.Equal(t, "resilvetsummary", last.Name)
		if sum == nil {
			sum = last
		}
		assert.Same(t, sum, last, "%s: one summary analyzer per suite", a.Name)
	}
	assert.Equal(t, want, names)
	assert.NotSame(t, analyzers.All()[0].Requires[1], sum, "a suite does not share the default summary analyzer")
}
