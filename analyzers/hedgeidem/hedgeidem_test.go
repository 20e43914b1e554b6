package hedgeidem_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/resilvet/resilvet/analyzers/hedgeidem"
	"github.com/resilvet/resilvet/internal/resilvettest"
)

// TestHedges runs the fixture packages of every hedge kind and effect
// kind with the default options. Each package's // want lines are its
// expectations, and every package is a negative too.
func TestHedges(t *testing.T) {
	analysistest.Run(t, resilvettest.TestData(), hedgeidem.Analyzer,
		"hedgeidem/hedges", "hedgeidem/failsafe", "hedgeidem/grpchedge", "hedgeidem/handrolled", "hedgeidem/declared", "hedgeidem/retries")
}
