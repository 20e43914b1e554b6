package notimeout_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/resilvet/resilvet/analyzers/notimeout"
	"github.com/resilvet/resilvet/internal/resilvettest"
)

func TestBasic(t *testing.T) {
	resilvettest.CheckMessages(t, analysistest.Run(t, resilvettest.TestData(), notimeout.Analyzer, "notimeout/basic"))
}

func TestAcrossPackages(t *testing.T) {
	resilvettest.CheckMessages(t, analysistest.Run(t, resilvettest.TestData(), notimeout.Analyzer, "notimeout/app"))
}

func TestGRPC(t *testing.T) {
	resilvettest.CheckMessages(t, analysistest.Run(t, resilvettest.TestData(), notimeout.Analyzer, "notimeout/grpcapp", "notimeout/grpcintercepted"))
}

func TestFixes(t *testing.T) {
	resilvettest.CheckFixes(t, resilvettest.TestData(), notimeout.Analyzer, "notimeout/fix", "notimeout/fiximports")
	analysistest.RunWithSuggestedFixes(t, resilvettest.TestData(), notimeout.Analyzer, "notimeout/fix", "notimeout/fiximports")
}
