// Package analyzers is the single registry of resilvet's analyzers. The
// command, the golangci-lint plugin, Bazel's nogo and the editor
// integration all take their analyzers from here, so an analyzer added
// here appears everywhere, and all of them are configured through one
// Options struct (options.go).
package analyzers

import (
	"golang.org/x/tools/go/analysis"

	"github.com/resilvet/resilvet/analyzers/ctxdrop"
	"github.com/resilvet/resilvet/analyzers/hedgeidem"
	"github.com/resilvet/resilvet/analyzers/notimeout"
	"github.com/resilvet/resilvet/analyzers/retrystack"
	"github.com/resilvet/resilvet/internal/analysisutil"
	"github.com/resilvet/resilvet/internal/summary"
)

// Suite returns the reporting analyzers bound to opts, sorted by name,
// sharing one fresh summary analyzer. Each reads *opts when a package's
// run starts, so a driver may fill opts (parse its flags) after building
// the suite; it must not change opts while packages are analysed.
func Suite(opts *Options) []*analysis.Analyzer {
	return On(NewSummary(opts), opts)
}

// NewSummary returns a summary analyzer bound to the options of opts that
// change the facts (Options.SummaryKey).
func NewSummary(opts *Options) *analysis.Analyzer {
	return summary.New(opts.summaryConfig)
}

// On returns the reporting analyzers bound to opts that read the
// summaries of sum, a summary analyzer from NewSummary. Integrations that
// build analyzers one at a time (the golangci-lint plugin) share one sum
// between analyzers whose SummaryKey is the same, so the package is
// summarised once.
func On(sum *analysis.Analyzer, opts *Options) []*analysis.Analyzer {
	return []*analysis.Analyzer{
		ctxdrop.New(sum, func() ctxdrop.Config { return ctxdrop.Config{IncludeTests: opts.IncludeTests} }),
		hedgeidem.New(sum, func() hedgeidem.Config {
			c := hedgeidem.Config{IncludeTests: opts.IncludeTests, Retries: opts.HedgeRetries}
			if len(opts.KeyHeaders) > 0 {
				c.KeyHeader = opts.KeyHeaders[0]
			}
			return c
		}),
		notimeout.New(sum, func() notimeout.Config {
			return notimeout.Config{IncludeTests: opts.IncludeTests, Edge: opts.Edge, Main: opts.Main, ClientTimeout: opts.ClientTimeout}
		}),
		retrystack.New(sum, func() retrystack.Config {
			return retrystack.Config{IncludeTests: opts.IncludeTests, MinProduct: opts.MinProduct}
		}),
	}
}

// All returns the reporting analyzers with the default options, sorted
// by name. The summary analyzer they share is not listed: drivers run it
// as a dependency.
func All() []*analysis.Analyzer {
	return []*analysis.Analyzer{
		ctxdrop.Analyzer,
		hedgeidem.Analyzer,
		notimeout.Analyzer,
		retrystack.Analyzer,
	}
}

// Documentation returns the named analyzer's documentation in parts, or
// false if there is no such analyzer.
func Documentation(name string) (analysisutil.Doc, bool) {
	switch name {
	case "ctxdrop":
		return ctxdrop.Documentation(), true
	case "hedgeidem":
		return hedgeidem.Documentation(), true
	case "notimeout":
		return notimeout.Documentation(), true
	case "retrystack":
		return retrystack.Documentation(), true
	}
	return analysisutil.Doc{}, false
}
