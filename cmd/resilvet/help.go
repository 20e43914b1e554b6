package main

import (
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/resilvet/resilvet/analyzers"
	"github.com/resilvet/resilvet/internal/analysisutil"
)

// isHelp reports whether args ask for help: "help [analyzer]", -h,
// -help or --help.
func isHelp(args []string) bool {
	if len(args) == 0 {
		return false
	}
	switch args[0] {
	case "help", "-h", "-help", "--help":
		return true
	}
	return false
}

// printHelp writes resilvet's help, or one analyzer's documentation for
// "help NAME", and returns the exit status.
func printHelp(w io.Writer, args []string) int {
	if len(args) == 2 && args[0] == "help" {
		d, ok := analyzers.Documentation(args[1])
		if !ok {
			fmt.Fprintf(w, "resilvet: no analyzer %q\n", args[1])
			return 2
		}
		fmt.Fprintln(w, d.Render())
		fmt.Fprintln(w, "\nDocumentation:\n\t"+analysisutil.URL(args[1]))
		return 0
	}
	var list strings.Builder
	for _, a := range analyzers.All() {
		d, _ := analyzers.Documentation(a.Name)
		fmt.Fprintf(&list, "  %-10s %s\n", a.Name, strings.TrimPrefix(d.Title, a.Name+": "))
	}
	fmt.Fprintf(w, helpText, list.String())
	fmt.Fprintln(w, "\nEvery standalone flag:")
	fs := newCommand(new(analyzers.Options)).FlagSet()
	fs.VisitAll(func(f *flag.Flag) {
		if strings.HasPrefix(f.Name, "debug.") && f.Name != "debug.measure-analyzers" {
			return // the runner's profiling switches
		}
		name, usage := flag.UnquoteUsage(f)
		fmt.Fprintf(w, "  -%s %s\n    \t%s\n", f.Name, name, usage)
	})
	return 0
}

const helpText = `resilvet finds resilience bugs in Go services: outbound calls that can run
without a deadline, request contexts dropped on the way to outbound work,
retry layers that multiply, and hedged or retried operations that are not
idempotent.

Analyzers:
%s
Usage:
  resilvet [flags] ./...           analyse packages (staticcheck's runner: one
                                   package in memory at a time, facts and
                                   findings cached; a rerun on unchanged code
                                   reads the cache)
  resilvet -fix ./...              apply the suggested fixes (x/tools' checker)
  resilvet -fix -diff ./...        print the suggested fixes as a diff
  resilvet -json ./...             x/tools' JSON output (unchanged shape)
  go vet -vettool=$(command -v resilvet) ./...
  go fix -fixtool=$(command -v resilvet) ./...
  resilvet help [analyzer]         this text, or an analyzer's documentation

  -h               this text
  -help            this text (also --help and help)

Checker flags (these select x/tools' checker, which applies fixes):
  -fix             apply the suggested fixes
  -diff            with -fix, print the fixes as a diff instead
  -json            print findings and fixes as x/tools' JSON (exit 0)

Standalone flags:
  -f format        text (default), stylish, json or sarif; html or map-json
                   for the resilience map (each entry point, the outbound
                   calls it reaches, what bounds and retries each one)
  -checks list     analyzers to run, e.g. -checks=ctxdrop,notimeout
  -fail list       analyzers whose findings make the exit status 1 (default all)
  -explain name    print an analyzer's documentation
  -list-checks     list the analyzers
  -tests           analyse test packages too (default: only with
                   -resilvet.include-tests, which reports in _test.go files)
  -tags list       build tags
  -show-ignored    also print findings silenced by //lint:ignore

Analyzer options (every mode; go vet passes them through):
  -resilvet.include-tests          report in _test.go files too
  -resilvet.outbound list          more outbound calls (pkg.Func, pkg.Type.Method)
  -resilvet.timeout-interceptors list
                                   gRPC interceptors that set a deadline
  -resilvet.transport-timeouts     trust http.Transport dial/header timeouts (default true)
  -notimeout.edge                  report handlers that call out without a deadline
  -notimeout.main                  also report in package main
  -notimeout.client-timeout d      the Timeout the suggested fixes write

Silence a finding with "//resilvet:ignore <analyzer> <reason>" (every mode)
or "//lint:ignore <analyzer> <reason>" (standalone mode only).

Exit status (standalone): 0 no findings, 1 findings or a package that does
not load, 2 bad usage; with -f sarif, 0 whatever the findings (the report
carries them); with -f html or map-json, 0 when the map is written, 1 when
no package loads (no map is written). Checker modes (-fix, -diff, -json): 0
none or all fixed, 3 findings, 1 errors; go vet: 1 findings.

Cache: $RESILVET_CACHE, default resilvet/ in the user cache directory, one
subdirectory per set of analyzer options.

Docs: https://github.com/resilvet/resilvet/blob/main/docs/usage.md
`
