package main

import (
	"flag"
	"strings"

	"github.com/resilvet/resilvet/analyzers"
)

// checkerFlags are the flags only x/tools' checker has: the vet and fix
// protocols (-V, -flags, a .cfg argument) and the modes that apply or
// print suggested fixes, or print its JSON, which stays the -json shape.
var checkerFlags = map[string]bool{
	"V": true, "flags": true, "fix": true, "diff": true, "json": true, "c": true,
	"test": true, "cpuprofile": true, "memprofile": true, "trace": true, "debug": true,
}

// checkerMode reports whether args ask for x/tools' checker rather than
// the standalone runner: a vet or fix protocol call, a fix-applying flag,
// or an analyzer toggle (-ctxdrop=false) of the checker's command line.
func checkerMode(args []string) bool {
	if len(args) == 1 && strings.HasSuffix(args[0], ".cfg") {
		return true
	}
	for i := 0; i < len(args); i++ {
		arg := args[i]
		if arg == "--" || !strings.HasPrefix(arg, "-") {
			break
		}
		name, _, hasValue := strings.Cut(strings.TrimLeft(arg, "-"), "=")
		if checkerFlags[name] || isAnalyzer(name) {
			return true
		}
		if (name == "baseline" || name == "baseline-write") && !hasValue {
			i++ // both drivers take these, with a file
		}
	}
	return false
}

// isAnalyzer reports whether name is an analyzer's, which as a flag is
// the checker's toggle (-ctxdrop=false).
func isAnalyzer(name string) bool {
	for _, a := range analyzers.All() {
		if a.Name == name {
			return true
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
