package summary_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/resilvet/resilvet/internal/resilvettest"
	"github.com/resilvet/resilvet/internal/summary"
)

func TestFacts(t *testing.T) {
	analysistest.Run(t, resilvettest.TestData(), summary.Analyzer, "ctxdrop/lib")
}

func TestEngineFacts(t *testing.T) {
	analysistest.Run(t, resilvettest.TestData(), summary.Analyzer, "notimeout/lib", "notimeout/orderspb", "notimeout/grpcconns")
}

// TestFuncValues checks the func-values claim: counts through loops with
// constant bounds, sequences and alternatives, forwarding helpers and
// closures, and the argument mapping.
func TestFuncValues(t *testing.T) {
	analysistest.Run(t, resilvettest.TestData(), summary.Analyzer, "engine/funcs", "engine/recursive", "engine/results", "engine/retains", "engine/makers")
}
