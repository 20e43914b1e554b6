// Package analyzers is the single registry of resilvet's analyzers. The
// command, the golangci-lint plugin and the editor integration all take
// their analyzers from All, so an analyzer added here appears everywhere.
package analyzers

import (
	"time"

	"golang.org/x/tools/go/analysis"

	"github.com/resilvet/resilvet/analyzers/ctxdrop"
	"github.com/resilvet/resilvet/analyzers/notimeout"
	"github.com/resilvet/resilvet/internal/analysisutil"
)

// Options are the settings every analyzer accepts from an integration
// with its own configuration (the golangci-lint plugin); on the command
// line they are the -resilvet.* flags.
type Options struct {
	IncludeTests bool
	// Edge, Main and ClientTimeout are notimeout's (see its Config).
	Edge          bool
	Main          bool
	ClientTimeout time.Duration
}

// New returns a fresh analyzer of the given name bound to opts, or false
// if there is no such analyzer.
func New(name string, opts Options) (*analysis.Analyzer, bool) {
	switch name {
	case "ctxdrop":
		return ctxdrop.New(ctxdrop.Config{IncludeTests: opts.IncludeTests}), true
	case "notimeout":
		return notimeout.New(notimeout.Config{IncludeTests: opts.IncludeTests, Edge: opts.Edge, Main: opts.Main, ClientTimeout: opts.ClientTimeout}), true
	}
	return nil, false
}

// Documentation returns the named analyzer's documentation in parts, or
// false if there is no such analyzer.
func Documentation(name string) (analysisutil.Doc, bool) {
	switch name {
	case "ctxdrop":
		return ctxdrop.Documentation(), true
	case "notimeout":
		return notimeout.Documentation(), true
	}
	return analysisutil.Doc{}, false
}

// All returns the reporting analyzers, sorted by name. The shared
// summary analyzer they require is not listed: drivers run it as a
// dependency.
func All() []*analysis.Analyzer {
	return []*analysis.Analyzer{
		ctxdrop.Analyzer,
		notimeout.Analyzer,
	}
}
