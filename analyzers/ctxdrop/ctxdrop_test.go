package ctxdrop_test

import (
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
