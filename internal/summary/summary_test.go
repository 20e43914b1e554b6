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

// TestRetryFacts checks the retry claim: loop counts (constants, fields,
// counters that exit before or after the call, counting down, unknown
// bounds), products of nested layers, library layers with their options
// and disabled ones, runtime layers that yield, retried parameters with
// the parameter holding their count, and outbound work; layers drawing
// on a backoff object a parameter holds; option functions setting a
// field, and loops counting up to a field of the receiver.
func TestRetryFacts(t *testing.T) {
	analysistest.Run(t, resilvettest.TestData(), summary.Analyzer, "engine/retries", "retrystack/options/client", "retrystack/transport", "cloud.google.com/go/secretmanager/apiv1")
}

// TestEffectFacts checks the Effects claim: a POST without a key, an
// INSERT, a send of the caller's request decided by the caller; keyed
// requests are no effect.
func TestEffectFacts(t *testing.T) {
	analysistest.Run(t, resilvettest.TestData(), summary.Analyzer, "hedgeidem/effects/lib")
}
