package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
)

// runtimeModule is the module the notimeout fixes import; after applying
// them a user runs go mod tidy, which the build below does by hand.
const runtimeModule = "github.com/resilvet/resilvet/runtime"

// fixedTree is a target with every offered fix applied through an
// overlay, as go build and go test see it.
type fixedTree struct {
	t       target
	overlay string
	// modfile, when set, is a copy of the target's go.mod requiring the
	// runtime the fixes import.
	modfile string
	// dirs are the directories of the edited files, as package patterns.
	dirs []string
}

// writeFixes applies the edits into overlay files, and returns the tree
// or why the fixes cannot be applied.
func writeFixes(t target, tmp string, edits map[string][]edit, usesRuntime bool) (*fixedTree, string) {
	fixed := &fixedTree{t: t}
	overlay := struct{ Replace map[string]string }{Replace: map[string]string{}}
	dirs := map[string]bool{}
	for file, es := range edits {
		src, err := os.ReadFile(file)
		if err != nil {
			return nil, err.Error()
		}
		out, err := applyEdits(src, es)
		if err != nil {
			return nil, file + ": " + err.Error()
		}
		dst := filepath.Join(tmp, "overlay", strings.ReplaceAll(strings.TrimPrefix(file, "/"), "/", "_"))
		check(os.MkdirAll(filepath.Dir(dst), 0o755))
		check(os.WriteFile(dst, out, 0o644))
		overlay.Replace[file] = dst
		dirs[filepath.Dir(file)] = true
	}
	for d := range dirs {
		fixed.dirs = append(fixed.dirs, d)
	}
	sort.Strings(fixed.dirs)
	data, _ := json.Marshal(overlay)
	fixed.overlay = filepath.Join(tmp, "overlay-"+fileName(t.name)+".json")
	check(os.WriteFile(fixed.overlay, data, 0o644))
	if usesRuntime {
		// What go mod tidy would add, pointing at this checkout's runtime,
		// in a copy of the target's go.mod.
		root, err := filepath.Abs(".")
		check(err)
		mod := filepath.Join(tmp, "fix-"+fileName(t.name)+".mod")
		gomod, err := os.ReadFile(filepath.Join(t.dir, "go.mod"))
		if err != nil {
			return nil, "fixes import the runtime, but the target has no go.mod: " + err.Error()
		}
		check(os.WriteFile(mod, gomod, 0o644))
		if sum, err := os.ReadFile(filepath.Join(t.dir, "go.sum")); err == nil {
			check(os.WriteFile(strings.TrimSuffix(mod, ".mod")+".sum", sum, 0o644))
		}
		edit := exec.Command("go", "mod", "edit", "-modfile="+mod, "-require="+runtimeModule+"@v0.0.0", "-replace="+runtimeModule+"="+filepath.Join(root, "runtime"))
		edit.Dir = t.dir
		if out, err := edit.CombinedOutput(); err != nil {
			return nil, string(out)
		}
		fixed.modfile = mod
	}
	return fixed, ""
}

func fileName(target string) string {
	return strings.NewReplacer("/", "_", " ", "_", ">", "_").Replace(target)
}

// flags are the go command's flags that apply the fixes.
func (f *fixedTree) flags() []string {
	args := []string{"-overlay=" + f.overlay}
	if f.modfile != "" {
		args = append(args, "-modfile="+f.modfile)
	}
	return args
}

// build builds the packages of the edited files with the fixes, and
// returns the build's output when it fails.
func (f *fixedTree) build() string {
	cmd := exec.Command("go", append(append([]string{"build"}, f.flags()...), f.dirs...)...)
	cmd.Dir = f.t.dir
	if out, err := cmd.CombinedOutput(); err != nil {
		return string(out)
	}
	return ""
}

// fixTests compares the tests of the packages the fixes edit, run
// without and with the fixes.
type fixTests struct {
	packages   int
	pass       int
	noTests    int
	failBoth   []string // packages that fail without the fixes too: reported, not failed on
	regression []string // tests that pass without the fixes and fail with them
	errors     []string // go test did not run
}

func (ft *fixTests) failed() bool {
	return ft != nil && (len(ft.regression) > 0 || len(ft.errors) > 0)
}

func (ft *fixTests) print() {
	fmt.Printf("    fix tests (go test -short, without and with the fixes): %d packages: %d pass with the fixes, %d without tests, %d fail without the fixes too (not counted), %d regressions\n",
		ft.packages, ft.pass, ft.noTests, len(ft.failBoth), len(ft.regression))
	for _, s := range ft.failBoth {
		fmt.Printf("      fails without the fixes too: %s\n", s)
	}
	for _, s := range ft.regression {
		fmt.Printf("      REGRESSION: %s\n", s)
	}
	for _, s := range ft.errors {
		fmt.Printf("      error: %s\n", s)
	}
}

// test runs the tests of the packages the fixes edit, without the fixes
// and then with them. A test that passes without and fails with them is
// a regression; one that fails either way (it needs the network, a tool,
// another environment) is reported and not failed on, since the fixes
// cannot be judged by it.
func (f *fixedTree) test() *fixTests {
	ft := &fixTests{}
	args := []string{"test", "-json", "-count=1", "-short", "-timeout=5m"}
	before, err := goTest(f.t.dir, append(append([]string{}, args...), f.dirs...))
	if err != "" {
		ft.errors = append(ft.errors, "without the fixes: "+err)
		return ft
	}
	after, err := goTest(f.t.dir, append(append(append([]string{}, args...), f.flags()...), f.dirs...))
	if err != "" {
		ft.errors = append(ft.errors, "with the fixes: "+err)
		return ft
	}
	return compareTests(before, after)
}

// compareTests compares each package's tests without the fixes (before)
// and with them (after).
func compareTests(before, after map[string]*pkgTests) *fixTests {
	ft := &fixTests{}
	var pkgs []string
	for pkg := range after {
		pkgs = append(pkgs, pkg)
	}
	sort.Strings(pkgs)
	ft.packages = len(pkgs)
	var lost []string
	for pkg := range before {
		if after[pkg] == nil {
			lost = append(lost, pkg)
		}
	}
	sort.Strings(lost)
	for _, pkg := range lost {
		// A package that ran without the fixes and has no result with
		// them was not tested: go test stopped before it.
		ft.errors = append(ft.errors, pkg+": tested without the fixes, no result with them")
	}
	for _, pkg := range pkgs {
		a, b := after[pkg], before[pkg]
		switch {
		case a.result == "skip":
			ft.noTests++
		case a.result == "pass":
			ft.pass++
		case b == nil || b.result != "fail":
			// The package passed without the fixes: whatever fails now,
			// the fixes did it.
			ft.regression = append(ft.regression, fmt.Sprintf("%s passes without the fixes and fails with them:\n%s", pkg, indent(a.failure(), 8)))
		case a.buildFailed && !b.buildFailed:
			ft.regression = append(ft.regression, fmt.Sprintf("%s: its tests build without the fixes and not with them:\n%s", pkg, indent(a.failure(), 8)))
		default:
			var broken []string
			for test := range a.failedTests {
				if b.passedTests[test] {
					broken = append(broken, test)
				}
			}
			sort.Strings(broken)
			if len(broken) > 0 {
				ft.regression = append(ft.regression, fmt.Sprintf("%s: %s pass without the fixes and fail with them:\n%s", pkg, strings.Join(broken, ", "), indent(a.failure(broken...), 8)))
				continue
			}
			ft.failBoth = append(ft.failBoth, fmt.Sprintf("%s%s: %s", pkg, a.failedNames(), firstLines(a.failure(), 1)))
		}
	}
	return ft
}

// pkgTests is one package's go test -json result.
type pkgTests struct {
	result      string // the package's Action: pass, fail or skip (no test files)
	buildFailed bool
	passedTests map[string]bool
	failedTests map[string]bool
	output      map[string][]string // by test, "" for the package and its build
}

// failedNames lists the failed tests, in parentheses, for the one-line
// report of a package that fails either way.
func (p *pkgTests) failedNames() string {
	var tests []string
	for test := range p.failedTests {
		// A subtest's parent fails with it; the parent says enough.
		if parent, _, ok := strings.Cut(test, "/"); !ok || !p.failedTests[parent] {
			tests = append(tests, test)
		}
	}
	if len(tests) == 0 {
		return ""
	}
	sort.Strings(tests)
	if len(tests) > 5 {
		tests = append(tests[:5], fmt.Sprintf("and %d more", len(tests)-5))
	}
	return " (" + strings.Join(tests, ", ") + ")"
}

// failure returns the first lines of the output of the named tests (all
// the failed ones when none is named), or of the package when there is
// none (a build failure, a panic, a timeout).
func (p *pkgTests) failure(tests ...string) string {
	if len(tests) == 0 {
		for test := range p.failedTests {
			tests = append(tests, test)
		}
		sort.Strings(tests)
	}
	var lines []string
	for _, test := range tests {
		lines = append(lines, p.output[test]...)
	}
	if len(lines) == 0 {
		lines = p.output[""]
	}
	// The framing lines say nothing about the failure.
	lines = slices.DeleteFunc(slices.Clone(lines), func(l string) bool {
		return strings.HasPrefix(l, "=== RUN") || strings.HasPrefix(l, "=== PAUSE") || strings.HasPrefix(l, "=== CONT")
	})
	return firstLines(strings.Join(lines, ""), 10)
}

// goTest runs go test -json and returns each package's result, or the
// go command's output when it ran no package.
func goTest(dir string, args []string) (map[string]*pkgTests, string) {
	cmd := exec.Command("go", args...)
	cmd.Dir = dir
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	runErr := cmd.Run()
	pkgs := parseTestEvents(&stdout)
	if len(pkgs) == 0 {
		return nil, fmt.Sprintf("go %s: %v: %s", strings.Join(args[:min(len(args), 5)], " "), runErr, firstLines(stderr.String()+stdout.String(), 10))
	}
	return pkgs, ""
}

// parseTestEvents reads go test -json's events into each package's
// result.
func parseTestEvents(r io.Reader) map[string]*pkgTests {
	pkgs := map[string]*pkgTests{}
	get := func(pkg string) *pkgTests {
		if pkgs[pkg] == nil {
			pkgs[pkg] = &pkgTests{passedTests: map[string]bool{}, failedTests: map[string]bool{}, output: map[string][]string{}}
		}
		return pkgs[pkg]
	}
	// buildOutput is by ImportPath ("p", "p [p.test]"), which a package
	// whose build failed names in FailedBuild: its own or an import's.
	buildOutput := map[string][]string{}
	failedBuild := map[string]string{}
	sc := bufio.NewScanner(r)
	sc.Buffer(nil, 16<<20)
	for sc.Scan() {
		var ev struct {
			Action, Package, Test, Output, ImportPath string
			FailedBuild                               string
		}
		if json.Unmarshal(sc.Bytes(), &ev) != nil {
			continue
		}
		switch ev.Action {
		case "build-output":
			buildOutput[ev.ImportPath] = append(buildOutput[ev.ImportPath], ev.Output)
		case "output":
			p := get(ev.Package)
			p.output[ev.Test] = append(p.output[ev.Test], ev.Output)
		case "pass", "fail", "skip":
			p := get(ev.Package)
			switch {
			case ev.Test == "":
				p.result = ev.Action
				if ev.FailedBuild != "" {
					p.buildFailed = true
					failedBuild[ev.Package] = ev.FailedBuild
				}
			case ev.Action == "pass":
				p.passedTests[ev.Test] = true
			case ev.Action == "fail":
				p.failedTests[ev.Test] = true
			}
		}
	}
	for pkg, p := range pkgs {
		if p.result == "" {
			delete(pkgs, pkg)
		}
		if b, ok := failedBuild[pkg]; ok {
			p.output[""] = append(buildOutput[b], p.output[""]...)
		}
	}
	return pkgs
}

func indent(s string, n int) string {
	pad := strings.Repeat(" ", n)
	return pad + strings.ReplaceAll(strings.TrimRight(s, "\n"), "\n", "\n"+pad)
}
