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

// TestNewCoversAll checks that every analyzer can be built fresh with
// options, so integrations that construct analyzers see all of them.
func TestNewCoversAll(t *testing.T) {
	for _, a := range analyzers.All() {
		fresh, ok := analyzers.New(a.Name, analyzers.Options{IncludeTests: true})
		require.True(t, ok, a.Name)
		assert.Equal(t, a.Name, fresh.Name)
		assert.NotSame(t, a, fresh)
		assert.Equal(t, a.Requires, fresh.Requires, "fresh analyzers must share the singleton summary analyzer")
	}
	_, ok := analyzers.New("nosuch", analyzers.Options{})
	assert.False(t, ok)
}
