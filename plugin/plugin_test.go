package plugin_test

import (
	"testing"

	"github.com/golangci/plugin-module-register/register"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/resilvet/resilvet/analyzers"
	"github.com/resilvet/resilvet/internal/resilvettest"
	_ "github.com/resilvet/resilvet/plugin"
)

// TestEveryAnalyzerIsALinter goes the way golangci-lint does: look the
// plugin up by linter name, decode settings, build the analyzers, and run
// them on a fixture.
func TestEveryAnalyzerIsALinter(t *testing.T) {
	for _, a := range analyzers.All() {
		newPlugin, err := register.GetPlugin(a.Name)
		require.NoError(t, err, a.Name)
		p, err := newPlugin(map[string]any{})
		require.NoError(t, err)
		assert.Equal(t, register.LoadModeTypesInfo, p.GetLoadMode())
		built, err := p.BuildAnalyzers()
		require.NoError(t, err)
		require.Len(t, built, 1)
		assert.Equal(t, a.Name, built[0].Name)
	}
}

func TestCtxdropThroughPlugin(t *testing.T) {
	newPlugin, err := register.GetPlugin("ctxdrop")
	require.NoError(t, err)
	p, err := newPlugin(nil)
	require.NoError(t, err)
	built, err := p.BuildAnalyzers()
	require.NoError(t, err)
	analysistest.Run(t, resilvettest.TestData(), built[0], "ctxdrop/twins")
}

// TestIncludeTestsSetting checks that a setting reaches the analyzer:
// the fixture's _test.go finding appears only with include-tests.
func TestIncludeTestsSetting(t *testing.T) {
	newPlugin, err := register.GetPlugin("ctxdrop")
	require.NoError(t, err)
	p, err := newPlugin(map[string]any{"include-tests": true})
	require.NoError(t, err)
	built, err := p.BuildAnalyzers()
	require.NoError(t, err)
	analysistest.Run(t, resilvettest.TestData(), built[0], "ctxdrop/withtests")

	p, err = newPlugin(map[string]any{})
	require.NoError(t, err)
	built, err = p.BuildAnalyzers()
	require.NoError(t, err)
	results := analysistest.Run(t, resilvettest.TestData(), built[0], "ctxdrop/notests")
	for _, r := range results {
		assert.Empty(t, r.Diagnostics)
	}
}

func TestBadSettings(t *testing.T) {
	newPlugin, err := register.GetPlugin("ctxdrop")
	require.NoError(t, err)
	_, err = newPlugin(map[string]any{"include-test": true})
	assert.ErrorContains(t, err, `unknown field "include-test"`)
	_, err = newPlugin(map[string]any{"include-tests": "yes"})
	assert.ErrorContains(t, err, "cannot unmarshal")
	_, err = newPlugin(map[string]any{"outbound": []string{"not a name"}})
	assert.ErrorContains(t, err, "invalid function name")
}

// TestNotimeoutSettings checks that notimeout's settings reach it: edge
// mode reports the handlers, and the outbound setting makes a named
// client outbound.
func TestNotimeoutSettings(t *testing.T) {
	newPlugin, err := register.GetPlugin("notimeout")
	require.NoError(t, err)
	p, err := newPlugin(map[string]any{"edge": true, "client-timeout": "5s"})
	require.NoError(t, err)
	built, err := p.BuildAnalyzers()
	require.NoError(t, err)
	analysistest.Run(t, resilvettest.TestData(), built[0], "notimeout/edge")

	p, err = newPlugin(map[string]any{"outbound": []string{"(*example.com/kv.Client).GetContext"}})
	require.NoError(t, err)
	built, err = p.BuildAnalyzers()
	require.NoError(t, err)
	analysistest.Run(t, resilvettest.TestData(), built[0], "notimeout/custom")

	_, err = newPlugin(map[string]any{"client-timeout": "soon"})
	assert.ErrorContains(t, err, "client-timeout")
}

// TestRetrystackSettings checks that min-product reaches retrystack: at
// 8, a nest of 6 attempts is silent and one of 27 is reported
// (retrystack/minproduct expects exactly that); a negative value is
// refused when golangci-lint starts.
func TestRetrystackSettings(t *testing.T) {
	newPlugin, err := register.GetPlugin("retrystack")
	require.NoError(t, err)
	p, err := newPlugin(map[string]any{"min-product": 8})
	require.NoError(t, err)
	built, err := p.BuildAnalyzers()
	require.NoError(t, err)
	analysistest.Run(t, resilvettest.TestData(), built[0], "retrystack/minproduct")

	_, err = newPlugin(map[string]any{"min-product": -1})
	assert.ErrorContains(t, err, "min-product")
}

// TestHedgeidemSettings checks that hedgeidem's settings reach it: the
// names replace the defaults (hedgeidem/options/names expects exactly
// that) and retries=blind keeps only blind retry layers (options/blind);
// a bad mode or header is refused when golangci-lint starts.
func TestHedgeidemSettings(t *testing.T) {
	newPlugin, err := register.GetPlugin("hedgeidem")
	require.NoError(t, err)
	p, err := newPlugin(map[string]any{
		"key-headers":        []any{"X-Request-Key"},
		"grpc-prefixes":      []any{"Reserve"},
		"idempotent-methods": []any{"/shop.Seats/ReserveTwice"},
	})
	require.NoError(t, err)
	built, err := p.BuildAnalyzers()
	require.NoError(t, err)
	analysistest.Run(t, resilvettest.TestData(), built[0], "hedgeidem/options/names")

	p, err = newPlugin(map[string]any{"retries": "blind"})
	require.NoError(t, err)
	built, err = p.BuildAnalyzers()
	require.NoError(t, err)
	analysistest.Run(t, resilvettest.TestData(), built[0], "hedgeidem/options/blind")

	_, err = newPlugin(map[string]any{"retries": "some"})
	assert.ErrorContains(t, err, "retries")
	_, err = newPlugin(map[string]any{"key-headers": []any{"Bad Header"}})
	assert.ErrorContains(t, err, "key-headers")
	_, err = newPlugin(map[string]any{"idempotent-methods": []any{"CreateOrder"}})
	assert.ErrorContains(t, err, "idempotent-methods")
}

// TestTransportTimeoutsSetting checks the shared setting whose default is
// on: absent or true, transport timeouts bound a client (notimeout/
// transport expects that); false, they do not (notimeout/transportoff).
func TestTransportTimeoutsSetting(t *testing.T) {
	newPlugin, err := register.GetPlugin("notimeout")
	require.NoError(t, err)
	for _, c := range []struct {
		settings map[string]any
		fixture  string
	}{
		{map[string]any{}, "notimeout/transport"},
		{map[string]any{"transport-timeouts": true}, "notimeout/transport"},
		{map[string]any{"transport-timeouts": false}, "notimeout/transportoff"},
	} {
		p, err := newPlugin(c.settings)
		require.NoError(t, err)
		built, err := p.BuildAnalyzers()
		require.NoError(t, err)
		analysistest.Run(t, resilvettest.TestData(), built[0], c.fixture)
	}
}

// TestLintersShareOneSummary: linters whose summary settings agree share
// one summary analyzer (each package is summarised once), and a linter
// with other summary settings gets its own, so no setting leaks from one
// linter's block into another's.
func TestLintersShareOneSummary(t *testing.T) {
	build := func(name string, settings map[string]any) *analysis.Analyzer {
		newPlugin, err := register.GetPlugin(name)
		require.NoError(t, err)
		p, err := newPlugin(settings)
		require.NoError(t, err)
		built, err := p.BuildAnalyzers()
		require.NoError(t, err)
		return built[0]
	}
	summaryOf := func(a *analysis.Analyzer) *analysis.Analyzer { return a.Requires[len(a.Requires)-1] }
	shared := map[string]any{"outbound": []string{"(*example.com/kv.Client).GetContext"}}
	ctxdrop := build("ctxdrop", map[string]any{"outbound": shared["outbound"], "include-tests": true})
	notimeout := build("notimeout", map[string]any{"outbound": shared["outbound"], "edge": true})
	assert.Same(t, summaryOf(ctxdrop), summaryOf(notimeout))
	require.NoError(t, analysis.Validate([]*analysis.Analyzer{ctxdrop, notimeout}))

	other := build("notimeout", map[string]any{})
	assert.NotSame(t, summaryOf(notimeout), summaryOf(other))
	// The outbound setting of the first blocks does not reach this one.
	analysistest.Run(t, resilvettest.TestData(), other, "notimeout/customoff")
}
