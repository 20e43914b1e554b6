package main

import (
	"flag"
	"strings"

	"github.com/resilvet/resilvet/analyzers"
)

// checkerFlags are the flags only x/tools' checker has: the vet and fix
// protocols (-V, -flags) and its JSON output, which stays the -json
// shape. -fix and -diff are the standalone runner's (fix.go): the checker
// holds every package in memory at once.
var checkerFlags = map[string]bool{
	"V": true, "flags": true, "json": true, "c": true,
	"test": true, "cpuprofile": true, "memprofile": true, "trace": true, "debug": true,
}

// checkerMode reports whether args ask for x/tools' checker rather than
// the standalone runner: a vet or fix protocol call (a .cfg file last,
// after the flags go vet and go fix pass) or a flag only the checker has.
func checkerMode(args []string) bool {
	if len(args) > 0 && strings.HasSuffix(args[len(args)-1], ".cfg") {
		return true
	}
	for i := 0; i < len(args); i++ {
		arg := args[i]
		if arg == "--" || !strings.HasPrefix(arg, "-") {
			break
		}
		name, _, hasValue := strings.Cut(strings.TrimLeft(arg, "-"), "=")
		if checkerFlags[name] {
			return true
		}
		if (name == "baseline" || name == "baseline-write") && !hasValue {
			i++ // both drivers take these, with a file
		}
	}
	return false
}

// addOptionFlags registers every analyzer option on fs, filling opts:
// the shared ones as -resilvet.<name>, each analyzer's own as
// -<analyzer>.<name>, the names x/tools' checker gives an analyzer's
// flags. In checker mode fs is the command line's flag set, which is also
// what -flags lists, so go vet learns that it may pass them through.
func addOptionFlags(fs *flag.FlagSet, opts *analyzers.Options) {
	opts.SharedFlags(fs, "resilvet.")
	for _, a := range analyzers.All() {
		opts.AnalyzerFlags(fs, a.Name, a.Name+".")
	}
}
