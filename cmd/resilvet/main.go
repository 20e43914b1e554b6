// Command resilvet finds resilience bugs in Go code: dropped request
// contexts, outbound calls without deadlines, stacked retries and hedged
// non-idempotent operations.
//
// One binary serves three drivers:
//
//	resilvet [flags] ./...                       # standalone, with -fix, -diff, -json
//	go vet -vettool=$(command -v resilvet) ./... # go vet
//	go fix -fixtool=$(command -v resilvet) ./... # go fix
//
// Run "resilvet help" for the analyzers and "resilvet help NAME" for one.
package main

import (
	"flag"

	"golang.org/x/tools/go/analysis/multichecker"

	"github.com/resilvet/resilvet/analyzers"
	"github.com/resilvet/resilvet/internal/summary"
)

func main() {
	liftSharedFlags()
	multichecker.Main(analyzers.All()...)
}

// liftSharedFlags exposes the options of the shared summary analyzer as
// -resilvet.<name>. Drivers register only the flags of the analyzers named
// on the command line, so without this the shared options would be
// unreachable; registering them on the command line's flag set also lists
// them in -flags, which is how go vet learns which flags to pass through.
func liftSharedFlags() {
	summary.Analyzer.Flags.VisitAll(func(f *flag.Flag) {
		flag.Var(f.Value, "resilvet."+f.Name, f.Usage)
	})
}
