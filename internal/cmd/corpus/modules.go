package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"

	"github.com/resilvet/resilvet/internal/modcopy"
)

// checkedModules are the modules of the build list (go list -m all) the
// check analyses, by path; the version is the build list's. They are
// named rather than found in the module cache so that a machine without
// the module proxy, or a module whose copy cannot be made, fails the
// check instead of leaving std alone to pass it. Every module of the
// build list is here or in uncheckableModules.
var checkedModules = []string{
	"github.com/BurntSushi/toml",
	"github.com/chromedp/cdproto",
	"github.com/chromedp/chromedp",
	"github.com/dlclark/regexp2",
	"github.com/go-json-experiment/json",
	"github.com/golangci/plugin-module-register",
	"github.com/google/go-cmp",
	"github.com/santhosh-tekuri/jsonschema/v6",
	"github.com/stretchr/objx",
	"github.com/stretchr/testify",
	"github.com/yuin/goldmark",
	"go.yaml.in/yaml/v3",
	"golang.org/x/exp",
	"golang.org/x/exp/typeparams",
	"golang.org/x/mod",
	"golang.org/x/net",
	"golang.org/x/sync",
	"golang.org/x/sys",
	"golang.org/x/telemetry",
	"golang.org/x/text",
	"golang.org/x/tools",
	"golang.org/x/tools/go/expect",
	"honnef.co/go/tools",
}

// uncheckableModules are the modules of the build list that cannot be
// analysed from their module zip, with why. They are tried like the
// others, and the check fails when one can be analysed after all: a
// stale entry would hide a module from the check as surely as dropping
// it, and nobody reads the output of a run that passes. The table is
// empty for today's build list: every module downloads, has a go.mod and
// resolves its own dependencies (golang.org/x/exp, whose go.mod pins an
// x/tools that no longer compiles, is analysed in part: partlyLoaded).
var uncheckableModules = map[string]string{}

// partlyLoaded are the packages of checked modules (and std) that do not
// type-check with this toolchain, by module, with why. The driver skips
// them before any analyzer runs; the check fails when the packages it
// skips differ from the ones recorded here, so that a package that stops
// loading fails the check as a module that stops downloading does.
var partlyLoaded = map[string]unloadedPackages{
	"golang.org/x/exp": {
		why: "its go.mod requires golang.org/x/tools v0.15.0, whose internal/tokeninternal does not compile with Go 1.22 and later (invalid array length -delta * delta)",
		packages: []string{
			"golang.org/x/exp/apidiff",
			"golang.org/x/exp/cmd/apidiff",
			"golang.org/x/exp/cmd/gorelease",
		},
	},
}

type unloadedPackages struct {
	why      string
	packages []string // sorted
}

// expectUnloaded records an error on r when the packages of module that
// did not load are not the ones partlyLoaded records, and otherwise says
// which did not and why.
func expectUnloaded(module string, r *result) {
	want := partlyLoaded[module]
	if slices.Equal(r.unloaded, want.packages) {
		if len(want.packages) > 0 {
			r.notes = append(r.notes, fmt.Sprintf("%d packages do not load, as recorded: %s", len(want.packages), want.why))
		}
		return
	}
	r.errors = append(r.errors, fmt.Sprintf("packages that do not load: %s; partlyLoaded in internal/cmd/corpus/modules.go records %s",
		orNone(r.unloaded), orNone(want.packages)))
}

func orNone(pkgs []string) string {
	if len(pkgs) == 0 {
		return "none"
	}
	return strings.Join(pkgs, ", ")
}

// checkBuildList checks the modules of the build list against the two
// tables and analyses each, and reports whether the check fails.
func checkBuildList(bin, tmp string) (failed bool) {
	versions, err := buildList()
	if err != nil {
		fmt.Printf("FAIL: the build list: %v\n", err)
		return true
	}
	fail := func(format string, args ...any) {
		fmt.Printf(format+"\n", args...)
		failed = true
	}
	for _, p := range tableProblems(versions, checkedModules, uncheckableModules, partlyLoaded) {
		fail("FAIL: %s", p)
	}

	for _, path := range checkedModules {
		version, ok := versions[path]
		if !ok {
			continue
		}
		t, err := prepare(tmp, path, version)
		if err != nil {
			fail("%-40s FAIL: not checked: %v", path+"@"+version, err)
			continue
		}
		r := t.analyse(bin, tmp)
		expectUnloaded(path, r)
		failed = printResult(t, r) || failed
	}
	for _, path := range slices.Sorted(maps.Keys(uncheckableModules)) {
		version, ok := versions[path]
		if !ok {
			continue
		}
		why := uncheckableModules[path]
		t, err := prepare(tmp, path, version)
		if err != nil {
			fmt.Printf("%-40s not checked: %s (%s)\n", path+"@"+version, why, firstLines(err.Error(), 1))
			continue
		}
		r := t.analyse(bin, tmp)
		expectUnloaded(path, r)
		if r.failed() {
			fmt.Printf("%-40s not checked: %s (it was tried: %s)\n", path+"@"+version, why, firstLines(strings.Join(r.errors, "\n")+r.buildErr, 1))
			continue
		}
		fail("%-40s FAIL: listed as uncheckable (%s), but it is analysed cleanly; move it to checkedModules", path+"@"+version, why)
	}
	return failed
}

// tableProblems returns what makes the tables untrue of the build list
// (versions, by module path): a module in neither table or in both, one
// no longer in the build list, an entry of partlyLoaded for a module
// that is not checked.
func tableProblems(versions map[string]string, checked []string, uncheckable map[string]string, partly map[string]unloadedPackages) []string {
	const file = "internal/cmd/corpus/modules.go"
	var problems []string
	named := map[string]bool{}
	for _, path := range checked {
		named[path] = true
		if _, ok := uncheckable[path]; ok {
			problems = append(problems, fmt.Sprintf("%s: in both checkedModules and uncheckableModules of %s", path, file))
		}
	}
	for path := range uncheckable {
		named[path] = true
	}
	for _, path := range slices.Sorted(maps.Keys(versions)) {
		if !named[path] {
			problems = append(problems, fmt.Sprintf("%s: in the build list but in neither table of %s; add it to checkedModules, or to uncheckableModules with the reason", path, file))
		}
	}
	for _, path := range slices.Sorted(maps.Keys(named)) {
		if _, ok := versions[path]; !ok {
			problems = append(problems, fmt.Sprintf("%s: named in %s but no longer in the build list; remove it from its table", path, file))
		}
	}
	for _, path := range slices.Sorted(maps.Keys(partly)) {
		if path != "std" && !slices.Contains(checked, path) {
			problems = append(problems, fmt.Sprintf("%s: in partlyLoaded but not in checkedModules of %s", path, file))
		}
	}
	return problems
}

// buildList returns the version of each module of the main module's
// build list but the main module, after replacements.
func buildList() (map[string]string, error) {
	cmd := exec.Command("go", "list", "-m", "-json", "all")
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("go list -m all: %v: %s", err, firstLines(stderr.String(), 5))
	}
	dec := json.NewDecoder(bytes.NewReader(out))
	versions := map[string]string{}
	for dec.More() {
		var m struct {
			Path, Version string
			Main          bool
			Replace       *struct{ Path, Version string }
		}
		if err := dec.Decode(&m); err != nil {
			return nil, fmt.Errorf("go list -m all: %w", err)
		}
		if m.Main {
			continue
		}
		version := m.Version
		if m.Replace != nil {
			// A replacement by another module is that module's code; one
			// by a directory has no version to download, and prepare says
			// so.
			version = m.Replace.Path + "@" + m.Replace.Version
		}
		versions[m.Path] = version
	}
	return versions, nil
}

// checkExtra downloads, prepares and analyses a module named with -extra.
func checkExtra(bin, tmp, pathVersion string) (failed bool) {
	path, version, _ := strings.Cut(pathVersion, "@")
	if version == "" {
		version = "latest"
	}
	t, err := prepare(tmp, path, version)
	if err != nil {
		fmt.Printf("%-40s FAIL: not checked: %v\n", pathVersion, err)
		return true
	}
	r := t.analyse(bin, tmp)
	if len(r.unloaded) > 0 {
		// Triage runs name no expectation: say what was left out.
		r.notes = append(r.notes, "packages that do not load: "+strings.Join(r.unloaded, ", "))
	}
	return printResult(t, r)
}

// prepare downloads a module, copies it to a writable directory and
// downloads its own dependencies. version is the build list's: a version,
// or path@version of a replacement.
func prepare(tmp, path, version string) (target, error) {
	query := path + "@" + version
	if strings.Contains(version, "@") {
		query = version
	}
	if strings.HasSuffix(query, "@") {
		return target{}, fmt.Errorf("replaced by a directory, not a module version")
	}
	dl := exec.Command("go", "mod", "download", "-json", query)
	out, err := dl.Output()
	var info struct{ Path, Version, Dir, Error string }
	if jerr := json.Unmarshal(out, &info); jerr != nil || info.Error != "" || info.Dir == "" {
		return target{}, fmt.Errorf("go mod download %s: %v %s", query, err, info.Error)
	}
	name := path + "@" + info.Version
	if info.Path != path {
		name = path + " => " + info.Path + "@" + info.Version
	}
	dst := filepath.Join(tmp, "mod", strings.ReplaceAll(info.Path+"@"+info.Version, "/", "_"))
	if err := modcopy.Writable(dst, info.Dir); err != nil {
		return target{}, fmt.Errorf("copy %s: %w", info.Dir, err)
	}
	if _, err := os.Stat(filepath.Join(dst, "go.mod")); err != nil {
		return target{}, fmt.Errorf("no go.mod: pre-module code, nothing to build it with")
	}
	deps := exec.Command("go", "mod", "download")
	deps.Dir = dst
	if out, err := deps.CombinedOutput(); err != nil {
		// Modules that replace dependencies with sibling directories of
		// their repository cannot be built from the module alone.
		return target{}, fmt.Errorf("its dependencies do not resolve: %s", firstLines(string(out), 3))
	}
	return target{name: name, dir: dst, patterns: []string{"./..."}, module: true}, nil
}
