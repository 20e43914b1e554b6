// Command corpus runs every resilvet analyzer over real code, the Go
// standard library and each module of the project's build list, and
// checks that the run is clean: no panics, no analyzer errors, every
// suggested fix applied still builds, and in the modules the tests of the
// packages the fixes edit still pass. It prints the number of findings
// per analyzer and target.
//
// Usage, from the repository root:
//
//	go run ./internal/cmd/corpus            # std + every module of the build list
//	go run ./internal/cmd/corpus -list std  # also print every finding, for triage
//
// The modules it checks are named in modules.go, so that a module that
// cannot be downloaded, prepared or analysed fails the check instead of
// leaving std alone to pass it. Modules are analysed in a writable copy
// (their own go.mod resolves their dependencies through the module
// proxy); fixes are applied through a go build -overlay, so nothing in
// GOROOT or the module cache is touched.
package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
)

var (
	list    = flag.Bool("list", false, "print every finding")
	keep    = flag.Bool("keep", false, "keep the temporary directory")
	modules = flag.Bool("modules", true, "also analyse the modules of the build list (the tables in modules.go)")
	tests   = flag.Bool("tests", true, "run the tests of the packages the fixes edit in module targets, with and without the fixes")
	extra   = flag.String("extra", "", "comma-separated module@version list to download and analyse too (precision triage on more real code)")
)

func main() {
	flag.Parse()
	// Each module is analysed on its own: a go.work in a module's zip
	// names directories that are not there.
	os.Setenv("GOWORK", "off")
	tmp, err := os.MkdirTemp("", "resilvet-corpus")
	check(err)
	if !*keep {
		defer os.RemoveAll(tmp)
	}
	bin := filepath.Join(tmp, "resilvet")
	run(".", "go", "build", "-o", bin, "./cmd/resilvet")

	withStd := flag.NArg() == 0 || contains(flag.Args(), "std")
	withModules := *modules && (flag.NArg() == 0 || contains(flag.Args(), "modules"))

	failed := false
	fmt.Printf("%-40s %8s %10s %8s %8s %6s %s\n", "target", "packages", "findings", "errors", "unloaded", "fixes", "fixed code builds")
	if withStd {
		t := target{name: "std", dir: ".", patterns: []string{"std"}}
		r := t.analyse(bin, tmp)
		expectUnloaded("std", r)
		failed = printResult(t, r) || failed
	}
	if withModules {
		failed = checkBuildList(bin, tmp) || failed
	} else {
		fmt.Println("modules of the build list: not checked (-modules=false or not named)")
	}
	if *extra != "" {
		for _, m := range strings.Split(*extra, ",") {
			failed = checkExtra(bin, tmp, m) || failed
		}
	}
	fmt.Printf("fix tests: %d packages in %d modules with fixes, %d regressions, %d failing without the fixes too\n",
		fixTotals.packages, fixTotals.targets, fixTotals.regressions, fixTotals.failBoth)
	if failed {
		fmt.Println("FAIL")
		if !*keep {
			os.RemoveAll(tmp) // os.Exit skips the deferred removal
		}
		os.Exit(1)
	}
	fmt.Println("ok")
}

// printResult prints a target's line and what went wrong, and reports
// whether the check fails on it.
func printResult(t target, r *result) (failed bool) {
	status := "yes"
	if r.buildErr != "" {
		status = "NO"
	}
	name := t.name
	if len(name) > 40 {
		// A pseudo-version would push the columns out of line.
		fmt.Println(name)
		name = ""
	}
	fmt.Printf("%-40s %8d %10s %8d %8d %6d %s\n", name, r.packages, r.perAnalyzer(), len(r.errors), r.loadErrors, r.fixes, status)
	if r.runtimeFixesSkipped > 0 {
		fmt.Printf("    %d fixes import the runtime: not built in GOROOT\n", r.runtimeFixesSkipped)
	}
	for _, n := range r.notes {
		fmt.Printf("    %s\n", n)
	}
	for _, e := range r.errors {
		fmt.Printf("    error: %s\n", e)
	}
	if r.panicked {
		fmt.Printf("    panic:\n%s\n", r.stderr)
	}
	if r.buildErr != "" {
		fmt.Printf("    fixed code does not build:\n%s\n", r.buildErr)
	}
	switch {
	case r.fixTests != nil:
		r.fixTests.print()
		fixTotals.targets++
		fixTotals.packages += r.fixTests.packages
		fixTotals.regressions += len(r.fixTests.regression)
		fixTotals.failBoth += len(r.fixTests.failBoth)
	case !t.module:
		// GOROOT's tests take longer than the rest of the check together;
		// std's fixes are built, and the modules' are tested.
		fmt.Println("    fix tests: not run in std (GOROOT's tests are too slow); its fixed code is built")
	case r.fixes > 0 && r.buildErr == "" && !*tests:
		fmt.Println("    fix tests: not run (-tests=false)")
	}
	if *list {
		for _, f := range r.findings {
			fmt.Printf("    %s: %s: %s\n", f.analyzer, f.posn, f.message)
		}
	}
	return r.failed()
}

// fixTotals sums the fix tests over the targets, for the last lines.
var fixTotals struct{ targets, packages, regressions, failBoth int }

type target struct {
	name     string
	dir      string
	patterns []string
	// module is set for a module copied out of the module cache: its
	// tests can run with the fixes applied.
	module bool
}

type finding struct{ analyzer, posn, message string }

type result struct {
	// runtimeFixesSkipped counts fixes in the standard library that import
	// the runtime: GOROOT cannot build them.
	runtimeFixesSkipped int
	packages            int
	findings            []finding
	errors              []string
	loadErrors          int
	unloaded            []string
	notes               []string
	fixes               int
	panicked            bool
	stderr              string
	buildErr            string
	fixTests            *fixTests
}

// failed reports whether the target fails the check. Packages that do
// not load are counted, not failed on (the driver skips them before any
// analyzer runs), unless nothing was analysed at all: analyse records
// that as an error.
func (r *result) failed() bool {
	return r.buildErr != "" || len(r.errors) > 0 || r.panicked || r.fixTests.failed()
}

func (r *result) perAnalyzer() string {
	counts := map[string]int{}
	for _, f := range r.findings {
		counts[f.analyzer]++
	}
	var parts []string
	for a, n := range counts {
		parts = append(parts, fmt.Sprintf("%s=%d", a, n))
	}
	sort.Strings(parts)
	if len(parts) == 0 {
		return "0"
	}
	return strings.Join(parts, ",")
}

// jsonTree is the -json output: package → analyzer → diagnostics or error.
type jsonTree map[string]map[string]json.RawMessage

type jsonDiag struct {
	Posn           string `json:"posn"`
	Message        string `json:"message"`
	SuggestedFixes []struct {
		Edits []struct {
			Filename string `json:"filename"`
			Start    int    `json:"start"`
			End      int    `json:"end"`
			New      string `json:"new"`
		} `json:"edits"`
	} `json:"suggested_fixes"`
}

type edit struct {
	start, end int
	text       string
}

func (t target) analyse(bin, tmp string) *result {
	r := &result{}
	cmd := exec.Command(bin, append([]string{"-json"}, t.patterns...)...)
	cmd.Dir = t.dir
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	runErr := cmd.Run()
	r.stderr = stderr.String()
	r.panicked = strings.Contains(r.stderr, "panic:") || strings.Contains(r.stderr, "internal error")
	var tree jsonTree
	if err := json.Unmarshal(stdout.Bytes(), &tree); err != nil {
		r.errors = append(r.errors, fmt.Sprintf("run failed (%v): %s", runErr, firstLines(r.stderr, 20)))
		return r
	}
	list := exec.Command("go", append([]string{"list", "-e"}, t.patterns...)...)
	list.Dir = t.dir
	own := map[string]bool{}
	if out, err := list.Output(); err == nil {
		for _, pkg := range strings.Fields(string(out)) {
			own[pkg] = true
		}
	}
	r.packages = len(own)
	seen := map[string]bool{}
	edits := map[string][]edit{}
	usesRuntime := false
	// unloaded are the target's packages the driver skipped, without
	// their test variants ("p [p.test]"); the dependencies they failed on
	// are named in the errors, not counted.
	unloaded := map[string]bool{}
	for pkg, byAnalyzer := range tree {
		for analyzer, raw := range byAnalyzer {
			var e struct{ Error string }
			if json.Unmarshal(raw, &e) == nil && e.Error != "" {
				// A package that does not type-check (or depends on one
				// that does not) is skipped by the driver before any
				// analyzer runs: a load problem, not an analyzer error.
				if strings.Contains(e.Error, "analysis skipped due to errors in package") || strings.HasPrefix(e.Error, "failed prerequisites") {
					if base, _, _ := strings.Cut(pkg, " "); own[base] {
						unloaded[base] = true
					}
				} else {
					r.errors = append(r.errors, pkg+": "+analyzer+": "+e.Error)
				}
				continue
			}
			var diags []jsonDiag
			if err := json.Unmarshal(raw, &diags); err != nil {
				r.errors = append(r.errors, pkg+": "+analyzer+": bad JSON: "+err.Error())
				continue
			}
			for _, d := range diags {
				// Test variants of a package repeat its findings.
				key := d.Posn + "\x00" + d.Message
				if seen[key] {
					continue
				}
				seen[key] = true
				r.findings = append(r.findings, finding{analyzer, d.Posn, d.Message})
				if len(d.SuggestedFixes) > 0 {
					fix := d.SuggestedFixes[0]
					needsRuntime := false
					for _, e := range fix.Edits {
						needsRuntime = needsRuntime || strings.Contains(e.New, runtimeModule+"/")
					}
					if needsRuntime && t.name == "std" {
						// The standard library cannot import a module:
						// such fixes are built in module targets only.
						r.runtimeFixesSkipped++
						continue
					}
					usesRuntime = usesRuntime || needsRuntime
					for _, e := range fix.Edits {
						edits[e.Filename] = append(edits[e.Filename], edit{e.Start, e.End, e.New})
					}
				}
			}
		}
	}
	r.loadErrors = len(unloaded)
	for pkg := range unloaded {
		r.unloaded = append(r.unloaded, pkg)
	}
	sort.Strings(r.unloaded)
	sort.Slice(r.findings, func(i, j int) bool { return r.findings[i].posn < r.findings[j].posn })
	if runErr != nil && len(r.errors) == 0 && r.loadErrors == 0 {
		r.errors = append(r.errors, fmt.Sprintf("exit status: %v: %s", runErr, firstLines(r.stderr, 20)))
	}
	if r.packages-r.loadErrors <= 0 && len(r.errors) == 0 {
		// A target whose every package failed to load was not checked:
		// counting it as clean is the silent pass this command exists to
		// prevent.
		r.errors = append(r.errors, fmt.Sprintf("no package was analysed (%d did not load): %s", r.loadErrors, firstLines(r.stderr, 5)))
	}
	r.fixes = len(edits)
	if len(edits) > 0 {
		fixed, err := writeFixes(t, tmp, edits, usesRuntime)
		if err != "" {
			r.buildErr = err
			return r
		}
		r.buildErr = fixed.build()
		if r.buildErr == "" && t.module && *tests {
			r.fixTests = fixed.test()
		}
	}
	return r
}

// applyEdits applies byte-offset edits, dropping exact duplicates (test
// variants) and failing on overlaps.
func applyEdits(src []byte, es []edit) ([]byte, error) {
	sort.SliceStable(es, func(i, j int) bool { return es[i].start < es[j].start })
	var out bytes.Buffer
	last := 0
	var prev *edit
	for i := range es {
		e := es[i]
		if prev != nil && *prev == e {
			continue
		}
		if e.start < last {
			return nil, fmt.Errorf("overlapping fixes at offset %d", e.start)
		}
		out.Write(src[last:e.start])
		out.WriteString(e.text)
		last = e.end
		prev = &es[i]
	}
	out.Write(src[last:])
	return out.Bytes(), nil
}

func run(dir, name string, args ...string) string {
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		fmt.Fprintf(os.Stderr, "%s %s: %v\n%s", name, strings.Join(args, " "), err, stderr.String())
		os.Exit(1)
	}
	return string(out)
}

func firstLines(s string, n int) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	if len(lines) > n {
		lines = lines[:n]
	}
	return strings.Join(lines, "\n")
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

func check(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
