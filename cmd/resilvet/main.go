// Command resilvet finds resilience bugs in Go code: dropped request
// contexts, outbound calls without deadlines, stacked retries and hedged
// non-idempotent operations.
//
// One binary serves four drivers:
//
//	resilvet [flags] ./...                       # standalone: staticcheck's runner, cached
//	resilvet -fix|-diff|-json [flags] ./...      # x/tools' checker: applies suggested fixes
//	go vet -vettool=$(command -v resilvet) ./... # go vet
//	go fix -fixtool=$(command -v resilvet) ./... # go fix
//
// Run "resilvet help" for the analyzers, the modes and the docs.
package main

import (
	"flag"
	"os"

	"golang.org/x/tools/go/analysis/multichecker"

	"github.com/resilvet/resilvet/analyzers"
)

func main() {
	args := os.Args[1:]
	switch {
	case isHelp(args):
		os.Exit(printHelp(os.Stdout, args))
	case checkerMode(args):
		// The vet and fix protocols and the fix-applying flags are x/tools'
		// checker's: recognised before anything else, unchanged.
		var opts analyzers.Options
		addOptionFlags(flag.CommandLine, &opts)
		multichecker.Main(analyzers.Suite(&opts)...)
	default:
		os.Exit(runStandalone(args))
	}
}
