package main

import (
	"flag"
	"strings"

	"github.com/resilvet/resilvet/analyzers"
	"github.com/resilvet/resilvet/internal/summary"
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
	for _, arg := range args {
		if arg == "--" || !strings.HasPrefix(arg, "-") {
			break
		}
		name := strings.TrimLeft(arg, "-")
		if i := strings.IndexByte(name, '='); i >= 0 {
			name = name[:i]
		}
		if checkerFlags[name] || isAnalyzer(name) {
			return true
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

// liftSharedFlags exposes the options of the shared summary analyzer as
// -resilvet.<name> on the checker's command line. Drivers register only
// the flags of the analyzers named on the command line, so without this
// the shared options would be unreachable; registering them on the
// command line's flag set also lists them in -flags, which is how go vet
// learns which flags to pass through.
func liftSharedFlags() { addSharedFlags(flag.CommandLine) }

// addSharedFlags registers the shared options as -resilvet.<name> on fs.
func addSharedFlags(fs *flag.FlagSet) {
	summary.Analyzer.Flags.VisitAll(func(f *flag.Flag) {
		fs.Var(f.Value, "resilvet."+f.Name, f.Usage)
	})
}

// addAnalyzerFlags registers each analyzer's own options as
// -<analyzer>.<name> on fs, as x/tools' checker names them.
func addAnalyzerFlags(fs *flag.FlagSet) {
	for _, a := range analyzers.All() {
		a.Flags.VisitAll(func(f *flag.Flag) {
			fs.Var(f.Value, a.Name+"."+f.Name, f.Usage)
		})
	}
}
