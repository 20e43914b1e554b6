package ctxdrop_test

import (
	"path/filepath"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/resilvet/resilvet/analyzers/ctxdrop"
	"github.com/resilvet/resilvet/internal/resilvettest"
)

// TestFixtures runs the GOPATH-mode fixture packages in one
// analysistest run (loading the standard library from source is most of
// a run's cost): basic, twins (non-Context API variants), app (helpers
// across packages) and closures (closures and generics).
func TestFixtures(t *testing.T) {
	resilvettest.CheckMessages(t, analysistest.Run(t, resilvettest.TestData(), ctxdrop.Analyzer,
		"ctxdrop/basic", "ctxdrop/twins", "ctxdrop/app", "ctxdrop/closures",
		"ctxdrop/sqlitestore", "ctxdrop/sqliteapi", "ctxdrop/bounded", "ctxdrop/wrapuse", "ctxdrop/schemasetup", "ctxdrop/pgstore", "ctxdrop/lifecycle", "ctxdrop/test/mockcb", "ctxdrop/pgxpoolopen", "ctxdrop/otelwork", "ctxdrop/sentryspan", "ctxdrop/informercache", "ctxdrop/exportuse", "ctxdrop/dskitsvc", "ctxdrop/awsconfig", "ctxdrop/lifetimes", "ctxdrop/joined", "ctxdrop/makeruse", "ctxdrop/notifyuse", "ctxdrop/k8serrors", "ctxdrop/acceptloop", "ctxdrop/hijack", "ctxdrop/optctx/use"))
}

func TestFixes(t *testing.T) {
	dir := resilvettest.TestData()
	resilvettest.CheckFixes(t, dir, analysistest.RunWithSuggestedFixes(t, dir, ctxdrop.Analyzer, "ctxdrop/fix", "ctxdrop/onlyimport"))
}

// TestRootsInDependencies runs in module mode: a root context made inside
// another module is reported only where a context-taking alternative
// exists, and the finding names it.
func TestRootsInDependencies(t *testing.T) {
	dir := filepath.Join(resilvettest.TestData(), "modules", "depdrop")
	resilvettest.CheckMessages(t, analysistest.Run(t, dir, ctxdrop.Analyzer, "example.com/app"))
}
