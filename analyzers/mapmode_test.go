package analyzers_test

import (
	"fmt"
	"sort"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/resilvet/resilvet/analyzers"
	"github.com/resilvet/resilvet/internal/resilvettest"
)

// TestMapModeChangesNoFinding: the summary's map mode (the resilience
// map's run) records more detail about bounded values, and the docs
// promise that it changes no finding: every analyzer reports the same
// diagnostics on every fixture package of its own with and without it.
func TestMapModeChangesNoFinding(t *testing.T) {
	dir := resilvettest.TestData()
	for _, a := range analyzers.All() {
		patterns := []string{a.Name + "/..."}
		t.Run(a.Name, func(t *testing.T) {
			findings := func(opts analyzers.Options) []string {
				var out []string
				for _, r := range analysistest.Run(ignoreWant{t}, dir, resilvettest.Analyzer(t, a.Name, opts), patterns...) {
					for _, d := range r.Diagnostics {
						out = append(out, fmt.Sprintf("%s: %s", r.Pass.Fset.Position(d.Pos), d.Message))
					}
				}
				sort.Strings(out)
				return out
			}
			plain := findings(analyzers.Options{})
			require.NotEmpty(t, plain)
			assert.Equal(t, plain, findings(analyzers.Options{Map: true}))
		})
	}
}
