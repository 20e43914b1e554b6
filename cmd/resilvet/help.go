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
	var options strings.Builder
	optionFlags := flag.NewFlagSet("options", flag.ContinueOnError)
	addOptionFlags(optionFlags, new(analyzers.Options))
	writeFlags(&options, optionFlags)
	fmt.Fprintf(w, helpText, list.String(), options.String())
	fmt.Fprintln(w, "\nEvery standalone flag:")
	fs := newCommand(new(analyzers.Options)).FlagSet()
	hidden := flag.NewFlagSet("standalone", flag.ContinueOnError)
	fs.VisitAll(func(f *flag.Flag) {
		if strings.HasPrefix(f.Name, "debug.") && f.Name != "debug.measure-analyzers" {
			return // the runner's profiling switches
		}
		hidden.Var(f.Value, f.Name, f.Usage)
	})
	writeFlags(w, hidden)
	return 0
}

// writeFlags writes each flag of fs with its usage, as flag.PrintDefaults
// lays them out.
func writeFlags(w io.Writer, fs *flag.FlagSet) {
	fs.VisitAll(func(f *flag.Flag) {
		name, usage := flag.UnquoteUsage(f)
		fmt.Fprintf(w, "  -%s %s\n    \t%s\n", f.Name, name, usage)
	})
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
  resilvet -fix ./...              apply the suggested fixes
  resilvet -diff ./...             print the suggested fixes as a diff
  resilvet -json ./...             x/tools' JSON output (x/tools' checker)
  go vet -vettool=$(command -v resilvet) ./...
  go fix -fixtool=$(command -v resilvet) ./...
  resilvet help [analyzer]         this text, or an analyzer's documentation

  -h               this text
  -help            this text (also --help and help)

Flags:
  -f format        text (default), stylish, json or sarif; html or map-json
                   for the resilience map (each entry point, the outbound
                   calls it reaches, what bounds and retries each one)
  -checks list     analyzers to run, e.g. -checks=ctxdrop,notimeout
                   (-<analyzer>=false also leaves one out)
  -fail list       analyzers whose findings make the exit status 1 (default all)
  -fix             apply the suggested fixes, then say how many were applied
                   and how many findings remain
  -diff            print the suggested fixes as a unified diff, write nothing
  -baseline file   report, and fail on, only findings not in the baseline
  -baseline-write file
                   record the current findings in a baseline
  -explain name    print an analyzer's documentation
  -list-checks     list the analyzers
  -tests           analyse test packages too (default: only with
                   -resilvet.include-tests, which reports in _test.go files)
  -tags list       build tags
  -show-ignored    also print findings silenced by //lint:ignore
  -json            x/tools' checker and its JSON (findings and fixes; exit 0)

An unknown analyzer in -checks, -fail or -explain is an error (exit 2).

Analyzer options (every mode; go vet passes them through):
%s
Silence a finding with "//resilvet:ignore <analyzer> <reason>" (every mode)
or "//lint:ignore <analyzer> <reason>" (standalone mode only).

Exit status:
  resilvet ./...      0 no findings, 1 findings, a package that does not
                      load, or a report that could not be written, 2 bad
                      usage (an unknown flag or analyzer)
  -f sarif            0 whatever the findings (the report carries them), 1
                      when a package does not load (the report lists it as
                      a notification and is not successful) or the report
                      could not be written, 2 bad usage
  -f html, map-json   0 when the map is written, 1 when nothing with entry
                      points loads (no map is written), 2 bad usage
  -fix, -diff         0 no finding remains, 3 findings remain (no fix, or
                      a fix that overlaps another), 1 a package that does
                      not load or a file that could not be fixed, 2 bad usage
  -json               0 (the output carries the findings), 1 errors
  go vet -vettool     1 findings or errors (go vet's own status)

Cache: $RESILVET_CACHE, default resilvet/ in the user cache directory, one
subdirectory per set of analyzer options.

Docs: https://github.com/resilvet/resilvet/blob/main/docs/usage.md
`
