package ctxdrop_test

import (
	"path/filepath"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/resilvet/resilvet/analyzers/ctxdrop"
	"github.com/resilvet/resilvet/internal/resilvettest"
)

func TestBasic(t *testing.T) {
	resilvettest.CheckMessages(t, analysistest.Run(t, resilvettest.TestData(), ctxdrop.Analyzer, "ctxdrop/basic"))
}

func TestTwins(t *testing.T) {
	resilvettest.CheckMessages(t, analysistest.Run(t, resilvettest.TestData(), ctxdrop.Analyzer, "ctxdrop/twins"))
}

func TestAcrossPackages(t *testing.T) {
	resilvettest.CheckMessages(t, analysistest.Run(t, resilvettest.TestData(), ctxdrop.Analyzer, "ctxdrop/app"))
}

func TestClosuresAndGenerics(t *testing.T) {
	analysistest.Run(t, resilvettest.TestData(), ctxdrop.Analyzer, "ctxdrop/closures")
}

func TestFixes(t *testing.T) {
	resilvettest.CheckFixes(t, resilvettest.TestData(), ctxdrop.Analyzer, "ctxdrop/fix", "ctxdrop/onlyimport")
	analysistest.RunWithSuggestedFixes(t, resilvettest.TestData(), ctxdrop.Analyzer, "ctxdrop/fix", "ctxdrop/onlyimport")
}

// TestRootsInDependencies runs in module mode: a root context made inside
// another module is reported only where a context-taking alternative
// exists, and the finding names it.
func TestRootsInDependencies(t *testing.T) {
	dir := filepath.Join(resilvettest.TestData(), "modules", "depdrop")
	resilvettest.CheckMessages(t, analysistest.Run(t, dir, ctxdrop.Analyzer, "example.com/app"))
}
