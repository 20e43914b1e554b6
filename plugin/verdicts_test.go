package plugin_test

import (
	"reflect"
	"testing"

	"github.com/golangci/plugin-module-register/register"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/tools/go/analysis"

	"github.com/resilvet/resilvet/internal/ctxverdict"
)

// TestLintersShareOneVerdictAnalyzer: ctxdrop and notimeout, built as
// separate linters, require the verdict analyzer of the summary analyzer
// they share, so each package's verdicts are decided once; linters with
// other summary settings get their own with their own summary.
func TestLintersShareOneVerdictAnalyzer(t *testing.T) {
	build := func(name string, settings map[string]any) *analysis.Analyzer {
		newPlugin, err := register.GetPlugin(name)
		require.NoError(t, err)
		p, err := newPlugin(settings)
		require.NoError(t, err)
		built, err := p.BuildAnalyzers()
		require.NoError(t, err)
		return built[0]
	}
	verdictsOf := func(a *analysis.Analyzer) *analysis.Analyzer {
		for _, r := range a.Requires {
			if r.ResultType == reflect.TypeFor[*ctxverdict.Result]() {
				return r
			}
		}
		t.Fatalf("%s requires no verdict analyzer", a.Name)
		return nil
	}
	outbound := []string{"(*example.com/kv.Client).Get"}
	ctxdrop := build("ctxdrop", map[string]any{"outbound": outbound})
	notimeout := build("notimeout", map[string]any{"outbound": outbound, "main": true})
	assert.Same(t, verdictsOf(ctxdrop), verdictsOf(notimeout))
	require.NoError(t, analysis.Validate([]*analysis.Analyzer{ctxdrop, notimeout}))

	other := build("notimeout", map[string]any{"transport-timeouts": false})
	assert.NotSame(t, verdictsOf(notimeout), verdictsOf(other))
	assert.Same(t, other.Requires[len(other.Requires)-1], verdictsOf(other).Requires[1], "the verdicts read the linter's own summary")
}
