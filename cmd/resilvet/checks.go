package main

import (
	"flag"
	"fmt"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/resilvet/resilvet/analyzers"
)

// checkLists are the standalone flags that name analyzers. The runner
// takes any string there and matches it against nothing, so a typo
// (-checks=ctxdorp) would analyse nothing and pass the gate: every name
// is checked before a package is loaded.
var checkLists = []string{"checks", "fail"}

// validateCheckLists returns an error naming the first entry of -checks
// or -fail in fs that selects no analyzer.
func validateCheckLists(fs *flag.FlagSet) error {
	for _, name := range checkLists {
		f := fs.Lookup(name)
		if f == nil {
			continue
		}
		if err := validateCheckList(name, f.Value.String()); err != nil {
			return err
		}
	}
	return nil
}

// validateCheckList checks one list as the runner reads it: entries
// split at commas, each an analyzer's name, "all" or "*" (every one),
// "inherit" (the default), any of them after "-" to deselect. Names
// compare without regard to case, as the runner compares them. The
// runner's globs (SA1*) split a check's name at its first digit, which
// resilvet's names have none of: a glob would select nothing, so none is
// accepted.
func validateCheckList(flagName, list string) error {
	list = strings.Trim(list, `"`)
	if list == "" {
		return nil
	}
	for _, entry := range strings.Split(list, ",") {
		entry = strings.TrimSpace(entry)
		name := strings.TrimPrefix(entry, "-")
		if !selectsAnalyzer(name) {
			return fmt.Errorf("-%s: %q names no analyzer; the analyzers are %s, or all", flagName, entry, strings.Join(analyzerNames(), ", "))
		}
	}
	return nil
}

// selectsAnalyzer reports whether one entry of a check list, without its
// "-", selects at least one analyzer.
func selectsAnalyzer(name string) bool {
	switch strings.ToLower(name) {
	case "all", "*", "inherit":
		return true
	case "":
		return false
	}
	for _, a := range analyzerNames() {
		if strings.EqualFold(a, name) {
			return true
		}
	}
	return false
}

// analyzerNames returns the reporting analyzers' names, sorted.
func analyzerNames() []string {
	var names []string
	for _, a := range analyzers.All() {
		names = append(names, a.Name)
	}
	return names
}

// toggles are the analyzers' own flags (-ctxdrop=false), as x/tools'
// checker and go vet have them, registered on the standalone flag set
// too so that one command line works in every mode.
type toggles map[string]*bool

// registerToggles adds a -<analyzer> flag for each analyzer to fs.
func registerToggles(fs *flag.FlagSet) toggles {
	t := toggles{}
	for _, name := range analyzerNames() {
		t[name] = fs.Bool(name, true, "run the "+name+" analyzer (-"+name+"=false leaves it out; set -<name> on any to run only those)")
	}
	return t
}

// applyToggles turns the toggles set on the command line into the
// runner's -checks, as the checker reads them: analyzers set true run
// alone; otherwise those set false are left out.
func applyToggles(fs *flag.FlagSet, t toggles) error {
	var on, off []string
	fs.Visit(func(f *flag.Flag) {
		if v, ok := t[f.Name]; ok {
			if *v {
				on = append(on, f.Name)
			} else {
				off = append(off, "-"+f.Name)
			}
		}
	})
	if len(on) == 0 && len(off) == 0 {
		return nil
	}
	checks := strings.Trim(fs.Lookup("checks").Value.String(), `"`)
	switch {
	case len(on) > 0:
		checks = strings.Join(on, ",")
	case checks == "" || checks == "inherit":
		checks = "all," + strings.Join(off, ",")
	default:
		checks += "," + strings.Join(off, ",")
	}
	return fs.Set("checks", checks)
}

// isAnalyzer reports whether name is a reporting analyzer's: the
// category the standalone run gives each of their findings.
func isAnalyzer(name string) bool {
	for _, a := range analyzers.All() {
		if a.Name == name {
			return true
		}
	}
	return false
}

// checkerChecks returns the value of -checks on a checker-mode command
// line (go vet passes it before the .cfg file), or "" when there is none.
func checkerChecks(args []string) string {
	value := ""
	for i := 0; i < len(args); i++ {
		name, v, hasValue := strings.Cut(strings.TrimLeft(args[i], "-"), "=")
		if !strings.HasPrefix(args[i], "-") || name != "checks" {
			continue
		}
		if !hasValue && i+1 < len(args) {
			i++
			v = args[i]
		}
		value = v
	}
	return value
}

// selectAnalyzers returns the analyzers of suite that a validated check
// list selects: those named, or all ("all", "*", "inherit", or only
// names after "-"), less those named after "-".
func selectAnalyzers(suite []*analysis.Analyzer, list string) []*analysis.Analyzer {
	on, off := map[string]bool{}, map[string]bool{}
	all := true
	for _, entry := range strings.Split(list, ",") {
		entry = strings.ToLower(strings.TrimSpace(entry))
		switch name, neg := strings.CutPrefix(entry, "-"); {
		case name == "all" || name == "*" || name == "inherit":
			if neg {
				all = false
				on = map[string]bool{}
			} else {
				all = true
			}
		case neg:
			off[name] = true
		default:
			on[name] = true
			all = false
		}
	}
	var out []*analysis.Analyzer
	for _, a := range suite {
		name := strings.ToLower(a.Name)
		if (all || on[name]) && !off[name] {
			out = append(out, a)
		}
	}
	return out
}
