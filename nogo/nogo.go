// Package nogo exports resilvet's analyzers in the form Bazel's nogo
// (rules_go) accepts: one package per analyzer, each with an exported
// Analyzer variable, listed in a nogo target's deps:
//
//	nogo(
//	    name = "nogo",
//	    deps = [
//	        "@com_github_resilvet_resilvet//nogo/ctxdrop",
//	        "@com_github_resilvet_resilvet//nogo/notimeout",
//	    ],
//	    config = "nogo_config.json",
//	    visibility = ["//visibility:public"],
//	)
//
// nogo sets options only on the analyzers it lists, through each one's
// "analyzer_flags" in its JSON config; the options resilvet's analyzers
// share live on the summary analyzer they require, which nogo does not
// list. Each analyzer here therefore also accepts the shared options
// (include-tests, outbound, timeout-interceptors, transport-timeouts) as
// its own flags; setting one on either analyzer sets it for both, as the
// -resilvet.* flags do on the command line. docs/bazel.md has the config.
package nogo

import (
	"flag"

	"golang.org/x/tools/go/analysis"

	"github.com/resilvet/resilvet/internal/summary"
)

// WithSharedFlags returns a copy of a whose flags are its own plus the
// shared options of the summary analyzer (the same values, not copies).
func WithSharedFlags(a *analysis.Analyzer) *analysis.Analyzer {
	out := *a
	out.Flags = flag.FlagSet{}
	out.Flags.Init(a.Name, flag.ContinueOnError)
	a.Flags.VisitAll(func(f *flag.Flag) { out.Flags.Var(f.Value, f.Name, f.Usage) })
	summary.Analyzer.Flags.VisitAll(func(f *flag.Flag) { out.Flags.Var(f.Value, f.Name, f.Usage) })
	return &out
}
