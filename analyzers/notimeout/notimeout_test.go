package notimeout_test

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/resilvet/resilvet/analyzers"
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
	resilvettest.CheckFixes(t, resilvettest.TestData(), notimeout.Analyzer, "notimeout/fix", "notimeout/fiximports", "notimeout/fixruntime")
	analysistest.RunWithSuggestedFixes(t, resilvettest.TestData(), notimeout.Analyzer, "notimeout/fix", "notimeout/fiximports", "notimeout/fixruntime")
}

func TestEdgeMode(t *testing.T) {
	analysistest.Run(t, resilvettest.TestData(), resilvettest.Analyzer(t, "notimeout", analyzers.Options{Edge: true}), "notimeout/edge")
}

// TestEdgeOffByDefault runs the same handlers without edge mode: the
// package has no // want lines, so any finding fails the test.
func TestEdgeOffByDefault(t *testing.T) {
	results := analysistest.Run(t, resilvettest.TestData(), resilvettest.Analyzer(t, "notimeout", analyzers.Options{}), "notimeout/edgeoff")
	assert.Empty(t, results[0].Diagnostics)
}

func TestPackageMain(t *testing.T) {
	analysistest.Run(t, resilvettest.TestData(), notimeout.Analyzer, "notimeout/tool", "notimeout/service")
	analysistest.Run(t, resilvettest.TestData(), resilvettest.Analyzer(t, "notimeout", analyzers.Options{Main: true}), "notimeout/toolmain")
}

// TestOutboundOption proves the shared -resilvet.outbound option changes
// findings: the same call is silent without it and reported with it.
func TestOutboundOption(t *testing.T) {
	analysistest.Run(t, resilvettest.TestData(), notimeout.Analyzer, "notimeout/customoff")
	custom := resilvettest.Analyzer(t, "notimeout", analyzers.Options{Outbound: []string{"(*example.com/kv.Client).GetContext"}})
	analysistest.Run(t, resilvettest.TestData(), custom, "notimeout/custom")
	// The default analyzer is untouched by another suite's options.
	analysistest.Run(t, resilvettest.TestData(), notimeout.Analyzer, "notimeout/customoff")
}

func TestPeersLabelledSites(t *testing.T) {
	analysistest.Run(t, resilvettest.TestData(), notimeout.Analyzer, "notimeout/peers")
}

// TestTestHelpersOutsideTestFiles: a function that takes a testing
// parameter is test code wherever it lives; include-tests reports it.
func TestTestHelpersOutsideTestFiles(t *testing.T) {
	analysistest.Run(t, resilvettest.TestData(), notimeout.Analyzer, "notimeout/e2ehelpers")
	all := resilvettest.Analyzer(t, "notimeout", analyzers.Options{IncludeTests: true})
	// The // want lines are the default's: the unexpected findings this
	// run makes are the point, so they are counted, not failed on.
	results := analysistest.Run(ignoreWant{t}, resilvettest.TestData(), all, "notimeout/e2ehelpers")
	var lines []int
	for _, r := range results {
		for _, d := range r.Diagnostics {
			lines = append(lines, r.Pass.Fset.Position(d.Pos).Line)
		}
	}
	assert.Len(t, lines, 5, "every helper is reported with include-tests: %v", lines)
}

func TestTestSupportPackage(t *testing.T) {
	analysistest.Run(t, resilvettest.TestData(), notimeout.Analyzer, "notimeout/internal/testutil")
}

// TestRuntimeDeadlineInterceptor: the runtime's grpcx.UnaryDeadline bounds
// the connection's calls.
func TestRuntimeDeadlineInterceptor(t *testing.T) {
	analysistest.Run(t, resilvettest.TestData(), notimeout.Analyzer, "notimeout/grpcxdeadline", "notimeout/grpcxretryonly")
}

// TestTimeoutInterceptorsOption proves that naming an interceptor
// constructor makes the package's gRPC calls bounded.
func TestTimeoutInterceptorsOption(t *testing.T) {
	analysistest.Run(t, resilvettest.TestData(), notimeout.Analyzer, "notimeout/interceptor")
	set := resilvettest.Analyzer(t, "notimeout", analyzers.Options{TimeoutInterceptors: []string{"notimeout/interceptorset.Deadline"}})
	analysistest.Run(t, resilvettest.TestData(), set, "notimeout/interceptorset")
}

// TestTransportTimeoutsOption proves that transport-level timeouts bound
// a client only when the option says so.
func TestTransportTimeoutsOption(t *testing.T) {
	analysistest.Run(t, resilvettest.TestData(), notimeout.Analyzer, "notimeout/transport")
	set := resilvettest.Analyzer(t, "notimeout", analyzers.Options{TransportTimeouts: true})
	analysistest.Run(t, resilvettest.TestData(), set, "notimeout/transportset")
}

// TestClientTimeoutChangesFixes proves the option's effect: the fixes
// write the configured duration.
func TestClientTimeoutChangesFixes(t *testing.T) {
	a := resilvettest.Analyzer(t, "notimeout", analyzers.Options{ClientTimeout: 1500 * time.Millisecond})
	var texts []string
	for _, r := range analysistest.Run(t, resilvettest.TestData(), a, "notimeout/fix") {
		for _, d := range r.Diagnostics {
			for _, f := range d.SuggestedFixes {
				for _, e := range f.TextEdits {
					texts = append(texts, string(e.NewText))
				}
			}
		}
	}
	joined := strings.Join(texts, "\n")
	assert.Contains(t, joined, "Timeout: 1500 * time.Millisecond")
	assert.Contains(t, joined, "context.WithTimeout(context.Background(), 1500*time.Millisecond)")
	assert.NotContains(t, joined, "10 * time.Second")
}

// ignoreWant runs analysistest without failing on findings the // want
// lines do not expect.
type ignoreWant struct{ *testing.T }

func (ignoreWant) Errorf(string, ...any) {}
