// Package analyzers is the single registry of resilvet's analyzers. The
// command, the golangci-lint plugin and the editor integration all take
// their analyzers from All, so an analyzer added here appears everywhere.
package analyzers

import (
	"golang.org/x/tools/go/analysis"

	"github.com/resilvet/resilvet/analyzers/ctxdrop"
)

// All returns the reporting analyzers, sorted by name. The shared
// summary analyzer they require is not listed: drivers run it as a
// dependency.
func All() []*analysis.Analyzer {
	return []*analysis.Analyzer{
		ctxdrop.Analyzer,
	}
}
