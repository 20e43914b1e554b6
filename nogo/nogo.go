// Package nogo exports resilvet's analyzers in the form Bazel's nogo
// (rules_go) accepts: one package per analyzer, each with an exported
// Analyzer variable, listed in a nogo target's deps:
//
//	nogo(
//	    name = "nogo",
//	    deps = [
//	        "@com_github_resilvet_resilvet//nogo/ctxdrop",
//	        "@com_github_resilvet_resilvet//nogo/hedgeidem",
//	        "@com_github_resilvet_resilvet//nogo/notimeout",
//	        "@com_github_resilvet_resilvet//nogo/retrystack",
//	    ],
//	    config = "nogo_config.json",
//	    visibility = ["//visibility:public"],
//	)
//
// nogo sets options only on the analyzers it lists, through each one's
// "analyzer_flags" in its JSON config, and never on the summary analyzer
// they require. The analyzers here share one analyzers.Options (Options)
// and one summary analyzer; each accepts the shared options
// (include-tests, outbound, timeout-interceptors, transport-timeouts) as
// its own flags besides its own options, so setting a shared option on
// any analyzer sets it for all, as the -resilvet.* flags do on the
// command line. docs/build-systems.md has the config.
package nogo

import (
	"flag"

	"golang.org/x/tools/go/analysis"

	"github.com/resilvet/resilvet/analyzers"
)

// Options are the options of the analyzers exported for nogo, filled by
// their flags: nogo's driver is one process per package, configured only
// through the listed analyzers' flags.
var Options analyzers.Options

var suite = analyzers.Suite(&Options)

// Analyzer returns the named analyzer of the suite bound to Options,
// with the shared options and its own as its flags, or panics if there
// is no such analyzer (nogo's packages name them as constants).
func Analyzer(name string) *analysis.Analyzer {
	for _, a := range suite {
		if a.Name == name {
			a.Flags.Init(name, flag.ContinueOnError)
			Options.SharedFlags(&a.Flags, "")
			Options.AnalyzerFlags(&a.Flags, name, "")
			return a
		}
	}
	panic("internal error: no analyzer " + name)
}
