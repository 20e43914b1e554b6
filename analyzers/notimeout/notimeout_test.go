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

// TestDefaultOptions runs every fixture package that uses the default
// options in one analysistest run: loading the standard library from
// source is most of a run's cost, and one load serves them all. Each
// package's // want lines are its expectations; the ones named below
// are negatives too (a finding they do not expect fails the test).
//
//   - basic, app (across packages), grpcapp and grpcintercepted (gRPC
//     with and without a timeout interceptor), peers (sites labelled by
//     hand in peer projects);
//   - tool and service: package main that starts no server is a
//     one-shot tool, one that serves is reported;
//   - customoff: an outbound function a user would add is silent without
//     the option; interceptor and transport: the same for the
//     interceptor and transport options;
//   - edgeoff: handlers are silent without edge mode;
//   - e2ehelpers and internal/testutil: test support outside _test.go
//     files is test code;
//   - grpcxdeadline and grpcxretryonly: the runtime's deadline
//     interceptor bounds a connection's calls, its retry interceptor
//     does not;
//   - everyday: cases written like everyday service code (helpers,
//     options, closures handed to helpers, loops);
//   - sqlitelocal and sqliteopen: an in-process database, by the driver
//     linked or named, is not a remote dependency; postgresopen is;
//   - harness: a package importing a test framework is test code;
//   - cobracmd: CLI commands outside package main that start no server
//     are one-shot like main; cobraserve starts one and cobrarun has a
//     "run" command: both are services, and reported;
//   - ifaceuse: a call through an interface declared elsewhere is judged
//     by the implementations the package can see;
//   - oidcuse: a constructor that keeps its context for later (go-oidc's
//     key set) is given a long-lived one on purpose;
//   - startup: work done once by a function named for start-up, with a
//     context of its own, is start-up (loops, goroutines and shared
//     contexts are not);
//   - kongcmd and kongserve: a kong command's package is a one-shot
//     tool's unless its CLI declares a server command.
func TestDefaultOptions(t *testing.T) {
	results := analysistest.Run(t, resilvettest.TestData(), notimeout.Analyzer,
		"notimeout/basic", "notimeout/app", "notimeout/grpcapp", "notimeout/grpcintercepted", "notimeout/peers",
		"notimeout/tool", "notimeout/service", "notimeout/tcpserve", "notimeout/customoff", "notimeout/interceptor", "notimeout/transport",
		"notimeout/edgeoff", "notimeout/e2ehelpers", "notimeout/internal/testutil",
		"notimeout/grpcxdeadline", "notimeout/grpcconnuse", "notimeout/lazyinit", "notimeout/mailsend", "notimeout/acme", "notimeout/harnesst", "notimeout/schema", "notimeout/storage/sqlite3", "notimeout/storage/postgres", "notimeout/pproftool", "notimeout/grpcxretryonly", "notimeout/everyday", "notimeout/k8swrites",
		"notimeout/sqlitelocal", "notimeout/sqliteopen", "notimeout/postgresopen", "notimeout/pgxstore", "notimeout/harness",
		"notimeout/cobracmd", "notimeout/cobraserve", "notimeout/cobrarun", "notimeout/ifaceuse", "notimeout/oidcuse", "notimeout/startup", "notimeout/kongcmd", "notimeout/kongserve")
	resilvettest.CheckMessages(t, results)
	for _, r := range results {
		if r.Pass.Pkg.Path() == "notimeout/edgeoff" {
			assert.Empty(t, r.Diagnostics, "edge mode is off by default")
		}
	}
}

// TestFixes applies every suggested fix and compares with the .golden
// files; fixserve holds roots that also reach long-lived work (serving,
// Shutdown, goroutines, loops), which get a context derived at the
// outbound call or no fix.
func TestFixes(t *testing.T) {
	dir := resilvettest.TestData()
	resilvettest.CheckFixes(t, dir, analysistest.RunWithSuggestedFixes(t, dir, notimeout.Analyzer, "notimeout/fix", "notimeout/fiximports", "notimeout/fixruntime", "notimeout/fixserve"))
}

func TestEdgeMode(t *testing.T) {
	analysistest.Run(t, resilvettest.TestData(), resilvettest.Analyzer(t, "notimeout", analyzers.Options{Edge: true}), "notimeout/edge")
}

// TestMainOption: with -notimeout.main, one-shot tools and start-up work
// are reported too.
func TestMainOption(t *testing.T) {
	analysistest.Run(t, resilvettest.TestData(), resilvettest.Analyzer(t, "notimeout", analyzers.Options{Main: true}), "notimeout/toolmain", "notimeout/startupmain")
}

// TestOutboundOption proves the shared -resilvet.outbound option changes
// findings: the same call is silent without it and reported with it.
func TestOutboundOption(t *testing.T) {
	custom := resilvettest.Analyzer(t, "notimeout", analyzers.Options{Outbound: []string{"(*example.com/kv.Client).GetContext"}})
	analysistest.Run(t, resilvettest.TestData(), custom, "notimeout/custom")
	// The default analyzer is untouched by another suite's options.
	analysistest.Run(t, resilvettest.TestData(), notimeout.Analyzer, "notimeout/customoff")
}

// TestTestHelpersOutsideTestFiles: a function that takes a testing
// parameter is test code wherever it lives; include-tests reports it.
func TestTestHelpersOutsideTestFiles(t *testing.T) {
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

// TestTimeoutInterceptorsOption proves that naming an interceptor
// constructor makes the package's gRPC calls bounded.
func TestTimeoutInterceptorsOption(t *testing.T) {
	set := resilvettest.Analyzer(t, "notimeout", analyzers.Options{TimeoutInterceptors: []string{"notimeout/interceptorset.Deadline"}})
	analysistest.Run(t, resilvettest.TestData(), set, "notimeout/interceptorset")
}

// TestTransportTimeoutsOption proves that transport-level timeouts stop
// bounding a client when the option turns them off.
func TestTransportTimeoutsOption(t *testing.T) {
	set := resilvettest.Analyzer(t, "notimeout", analyzers.Options{IgnoreTransportTimeouts: true})
	analysistest.Run(t, resilvettest.TestData(), set, "notimeout/transportoff")
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
