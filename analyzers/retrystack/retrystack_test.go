package retrystack_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/resilvet/resilvet/analyzers"
	"github.com/resilvet/resilvet/analyzers/retrystack"
	"github.com/resilvet/resilvet/internal/resilvettest"
)

// TestDefaultOptions runs the fixture packages that use the default
// options in one analysistest run. Each package's // want lines are its
// expectations, and every package is a negative too (a finding it does
// not expect fails the test):
//
//   - store, api, handler: a chain of hand-written layers three packages
//     deep (3, 9 and 27 attempts);
func TestDefaultOptions(t *testing.T) {
	analysistest.Run(t, resilvettest.TestData(), retrystack.Analyzer,
		"retrystack/store", "retrystack/api", "retrystack/handler", "retrystack/retryutil", "retrystack/basic", "retrystack/libs", "retrystack/negatives", "retrystack/sdks", "retrystack/categories", "retrystack/grpcretry", "retrystack/backoffs/fetcher", "retrystack/backoffs/sync", "retrystack/options/app", "retrystack/grpcdial/use", "retrystack/transport/use", "retrystack/miniocount", "retrystack/collector", "retrystack/newid", "retrystack/alternatives", "retrystack/selfstore", "retrystack/serverdirected")
}

// TestMinProduct: with min-product 8, built the way every driver builds
// the suite, a nest of 6 attempts is silent and nests of 18 and of
// unbounded attempts are reported.
func TestMinProduct(t *testing.T) {
	a := resilvettest.Analyzer(t, "retrystack", analyzers.Options{MinProduct: 8})
	analysistest.Run(t, resilvettest.TestData(), a, "retrystack/minproduct")
}

// TestSleepFix checks the suggested fix for a sleep that ignores the
// context against fix.go.golden, and that each fix is gofmt-clean as
// emitted and compiles. A loop that would spin once the context is done
// gets no fix.
func TestSleepFix(t *testing.T) {
	dir := resilvettest.TestData()
	resilvettest.CheckFixes(t, dir, analysistest.RunWithSuggestedFixes(t, dir, retrystack.Analyzer, "retrystack/fix"))
}

// TestNestFix checks the fixes for nested layers against the golden
// files: an inner loop made a single attempt (the success test breaking
// or returning), an outer loop around runtime layers rewritten to
// retry.Do; and no fix where the rewrite would read the loop's
// variable or leave a variable unused. A sleep inside a loop the nest's
// fix replaces gets no fix of its own.
func TestNestFix(t *testing.T) {
	dir := resilvettest.TestData()
	resilvettest.CheckFixes(t, dir, analysistest.RunWithSuggestedFixes(t, dir, retrystack.Analyzer, "retrystack/nestfix"))
}
