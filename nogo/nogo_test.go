package nogo_test

import (
	"bytes"
	"encoding/gob"
	"os"
	"reflect"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/analysistest"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"

	"github.com/resilvet/resilvet/analyzers"
	"github.com/resilvet/resilvet/internal/resilvettest"
	"github.com/resilvet/resilvet/nogo"
	nogoctxdrop "github.com/resilvet/resilvet/nogo/ctxdrop"
	nogohedgeidem "github.com/resilvet/resilvet/nogo/hedgeidem"
	nogonotimeout "github.com/resilvet/resilvet/nogo/notimeout"
	nogoretrystack "github.com/resilvet/resilvet/nogo/retrystack"
)

// exported is the list a nogo target's deps name.
var exported = []*analysis.Analyzer{nogoctxdrop.Analyzer, nogohedgeidem.Analyzer, nogonotimeout.Analyzer, nogoretrystack.Analyzer}

// TestExportedListCoversEveryAnalyzer: every analyzer resilvet reports
// with is exported for nogo, under its own name, and validates.
func TestExportedListCoversEveryAnalyzer(t *testing.T) {
	var names, want []string
	for _, a := range exported {
		names = append(names, a.Name)
	}
	for _, a := range analyzers.All() {
		want = append(want, a.Name)
	}
	assert.Equal(t, want, names)
	require.NoError(t, analysis.Validate(exported))
	for _, a := range exported {
		for _, shared := range []string{"include-tests", "outbound", "timeout-interceptors", "transport-timeouts"} {
			assert.NotNil(t, a.Flags.Lookup(shared), "%s lacks the shared option %s", a.Name, shared)
		}
	}
	assert.NotNil(t, nogonotimeout.Analyzer.Flags.Lookup("client-timeout"), "an analyzer's own options stay")
	assert.NotNil(t, nogoretrystack.Analyzer.Flags.Lookup("min-product"), "retrystack's own option is its flag")
	assert.Nil(t, nogonotimeout.Analyzer.Flags.Lookup("min-product"), "an analyzer has only its own options")
	assert.NotNil(t, nogohedgeidem.Analyzer.Flags.Lookup("retries"), "hedgeidem's own option is its flag")
}

// TestOptionsSetAsAnalyzerFlags sets options the way nogo applies a
// config's analyzer_flags (Flags.Set on the listed analyzer) and checks
// each takes effect.
func TestOptionsSetAsAnalyzerFlags(t *testing.T) {
	// include-tests through ctxdrop: the finding in w_test.go appears.
	require.NoError(t, nogoctxdrop.Analyzer.Flags.Set("include-tests", "true"))
	t.Cleanup(func() { require.NoError(t, nogoctxdrop.Analyzer.Flags.Set("include-tests", "false")) })
	analysistest.Run(t, resilvettest.TestData(), nogoctxdrop.Analyzer, "ctxdrop/withtests")
	assert.Equal(t, "true", nogonotimeout.Analyzer.Flags.Lookup("include-tests").Value.String(), "set on one analyzer, a shared option is set for both")
	assert.True(t, nogo.Options.IncludeTests)

	// timeout-interceptors through notimeout: the named interceptor
	// bounds the package's gRPC calls.
	require.NoError(t, nogonotimeout.Analyzer.Flags.Set("timeout-interceptors", "notimeout/interceptorset.Deadline"))
	t.Cleanup(func() { nogo.Options.TimeoutInterceptors = nil })
	analysistest.Run(t, resilvettest.TestData(), nogonotimeout.Analyzer, "notimeout/interceptorset")

	// A malformed value fails, as nogo's driver reports it.
	require.Error(t, nogonotimeout.Analyzer.Flags.Set("outbound", "not a name"))
	require.Error(t, nogonotimeout.Analyzer.Flags.Set("client-timeout", "soon"))
}

// TestFactsRoundTrip runs the exported analyzers, as nogo runs them
// (the listed analyzers and the summary they require), over a module of
// packages that call each other, with the checker's own check of fact
// encoding, and round-trips every fact through gob as nogo stores them.
func TestFactsRoundTrip(t *testing.T) {
	pkgs, err := packages.Load(&packages.Config{Mode: packages.LoadAllSyntax, Dir: "../cmd/resilvet/testdata/shop",
		Env: append(os.Environ(), "GOWORK=off", "GOFLAGS=")}, "./...")
	require.NoError(t, err)
	require.Zero(t, packages.PrintErrors(pkgs))
	graph, err := checker.Analyze(exported, pkgs, &checker.Options{SanityCheck: true})
	require.NoError(t, err)
	facts, diags := 0, 0
	for act := range graph.All() {
		require.NoError(t, act.Err, act.String())
		for _, f := range act.AllObjectFacts() {
			var buf bytes.Buffer
			require.NoError(t, gob.NewEncoder(&buf).Encode(f.Fact))
			decoded := reflect.New(reflect.TypeOf(f.Fact).Elem()).Interface()
			require.NoError(t, gob.NewDecoder(&buf).Decode(decoded))
			assert.Equal(t, f.Fact, decoded)
			facts++
		}
		if act.IsRoot {
			diags += len(act.Diagnostics)
		}
	}
	assert.Positive(t, facts, "the shop module's store package exports facts its api package uses")
	// The cross-package finding (api calls store.Count, which drops the
	// context) needs store's facts: all four of the shop's findings.
	assert.Equal(t, 4, diags)
}
