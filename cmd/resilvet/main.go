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
	"fmt"
	"os"

	"golang.org/x/tools/go/analysis/multichecker"

	"github.com/resilvet/resilvet/analyzers"
)

func main() {
	args := os.Args[1:]
	switch {
	case isHelp(args):
		os.Exit(withCheckedStdout(func() int { return printHelp(os.Stdout, args) }))
	case checkerMode(args):
		// The vet and fix protocols and the fix-applying flags are x/tools'
		// checker's: recognised before anything else, unchanged.
		var opts analyzers.Options
		addOptionFlags(flag.CommandLine, &opts)
		suite := analyzers.Suite(&opts)
		// -checks works here as in the standalone run (and -flags offers
		// it to go vet): the analyzers it names, and nothing when a name
		// is unknown.
		flag.String("checks", "", "comma-separated analyzers to run (default all); -name leaves one out; an unknown name is an error")
		if list := checkerChecks(args); list != "" {
			if err := validateCheckList("checks", list); err != nil {
				fmt.Fprintln(os.Stderr, "resilvet:", err)
				os.Exit(2)
			}
			suite = selectAnalyzers(suite, list)
		}
		child, err := newBaselineChild()
		if err != nil {
			fmt.Fprintln(os.Stderr, "resilvet:", err)
			os.Exit(1)
		}
		if child != nil {
			for i, a := range suite {
				suite[i] = child.wrap(a)
			}
		} else if flags, rest, ok, err := baselineArgs(args); err != nil {
			// The baseline flags are this driver's, not the checker's: the
			// parent takes them off the command line, and go vet, which
			// runs a process per package, does not offer them.
			fmt.Fprintln(os.Stderr, "resilvet:", err)
			os.Exit(2)
		} else if ok {
			os.Exit(runCheckerWithBaseline(flags, rest))
		}
		multichecker.Main(suite...)
	default:
		os.Exit(withCheckedStdout(func() int { return runStandalone(args) }))
	}
}
