// Command corpus runs every resilvet analyzer over real code, the Go
// standard library and each module of the project's dependency graph that
// is in the module cache, and checks that the run is clean: no panics, no
// analyzer errors, and every suggested fix applied still builds. It prints
// the number of findings per analyzer and target.
//
// Usage, from the repository root:
//
//	go run ./internal/cmd/corpus            # std + every cached dependency module
//	go run ./internal/cmd/corpus -list std  # also print every finding, for triage
//
// Modules are analysed in a writable copy (their own go.mod resolves their
// dependencies through the module proxy); fixes are applied through a
// go build -overlay, so nothing in GOROOT or the module cache is touched.
package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
)

var (
	list    = flag.Bool("list", false, "print every finding")
	keep    = flag.Bool("keep", false, "keep the temporary directory")
	modules = flag.Bool("modules", true, "also analyse the cached dependency modules")
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

	targets := []target{{name: "std", dir: ".", patterns: []string{"std"}}}
	if flag.NArg() > 0 {
		targets = nil
		for _, a := range flag.Args() {
			if a == "std" {
				targets = append(targets, target{name: "std", dir: ".", patterns: []string{"std"}})
			}
		}
	}
	if *modules && (flag.NArg() == 0 || contains(flag.Args(), "modules")) {
		targets = append(targets, dependencyModules(tmp)...)
	}

	if *extra != "" {
		targets = append(targets, extraModules(tmp, strings.Split(*extra, ","))...)
	}

	failed := false
	fmt.Printf("%-40s %8s %10s %8s %8s %6s %s\n", "target", "packages", "findings", "errors", "unloaded", "fixes", "fixed code builds")
	for _, t := range targets {
		r := t.analyse(bin, tmp)
		status := "yes"
		if r.buildErr != "" {
			status = "NO"
			failed = true
		}
		if len(r.errors) > 0 || r.panicked {
			failed = true
		}
		fmt.Printf("%-40s %8d %10s %8d %8d %6d %s\n", t.name, r.packages, r.perAnalyzer(), len(r.errors), r.loadErrors, r.fixes, status)
		if r.runtimeFixesSkipped > 0 {
			fmt.Printf("    %d fixes import the runtime: not built in GOROOT\n", r.runtimeFixesSkipped)
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
		if *list {
			for _, f := range r.findings {
				fmt.Printf("    %s: %s: %s\n", f.analyzer, f.posn, f.message)
			}
		}
	}
	if failed {
		fmt.Println("FAIL")
		os.Exit(1)
	}
	fmt.Println("ok")
}

type target struct {
	name     string
	dir      string
	patterns []string
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
	fixes               int
	panicked            bool
	stderr              string
	buildErr            string
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
	list := exec.Command("go", append([]string{"list"}, t.patterns...)...)
	list.Dir = t.dir
	if out, err := list.Output(); err == nil {
		r.packages = strings.Count(string(out), "\n")
	}
	seen := map[string]bool{}
	edits := map[string][]edit{}
	usesRuntime := false
	for pkg, byAnalyzer := range tree {
		for analyzer, raw := range byAnalyzer {
			var e struct{ Error string }
			if json.Unmarshal(raw, &e) == nil && e.Error != "" {
				// A package that does not type-check (or depends on one
				// that does not) is skipped by the driver before any
				// analyzer runs: a load problem, not an analyzer error.
				if strings.Contains(e.Error, "analysis skipped due to errors in package") || strings.HasPrefix(e.Error, "failed prerequisites") {
					r.loadErrors++
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
	sort.Slice(r.findings, func(i, j int) bool { return r.findings[i].posn < r.findings[j].posn })
	if runErr != nil && len(r.errors) == 0 && r.loadErrors == 0 {
		r.errors = append(r.errors, fmt.Sprintf("exit status: %v: %s", runErr, firstLines(r.stderr, 20)))
	}
	r.fixes = len(edits)
	if len(edits) > 0 {
		r.buildErr = buildWithFixes(t, tmp, edits, usesRuntime)
	}
	return r
}

// runtimeModule is the module the notimeout fixes import; after applying
// them a user runs go mod tidy, which the build below does by hand.
const runtimeModule = "github.com/resilvet/resilvet/runtime"

// buildWithFixes applies the edits through an overlay and builds the
// packages of the edited files.
func buildWithFixes(t target, tmp string, edits map[string][]edit, usesRuntime bool) string {
	overlay := struct{ Replace map[string]string }{Replace: map[string]string{}}
	dirs := map[string]bool{}
	for file, es := range edits {
		src, err := os.ReadFile(file)
		if err != nil {
			return err.Error()
		}
		out, err := applyEdits(src, es)
		if err != nil {
			return file + ": " + err.Error()
		}
		dst := filepath.Join(tmp, "overlay", strings.ReplaceAll(strings.TrimPrefix(file, "/"), "/", "_"))
		check(os.MkdirAll(filepath.Dir(dst), 0o755))
		check(os.WriteFile(dst, out, 0o644))
		overlay.Replace[file] = dst
		dirs[filepath.Dir(file)] = true
	}
	data, _ := json.Marshal(overlay)
	ov := filepath.Join(tmp, "overlay-"+strings.ReplaceAll(t.name, "/", "_")+".json")
	check(os.WriteFile(ov, data, 0o644))
	args := []string{"build", "-overlay=" + ov}
	if usesRuntime {
		// What go mod tidy would add, pointing at this checkout's runtime,
		// in a copy of the target's go.mod.
		root, err := filepath.Abs(".")
		check(err)
		mod := filepath.Join(tmp, "fix-"+strings.ReplaceAll(t.name, "/", "_")+".mod")
		gomod, err := os.ReadFile(filepath.Join(t.dir, "go.mod"))
		if err != nil {
			return "fixes import the runtime, but the target has no go.mod: " + err.Error()
		}
		check(os.WriteFile(mod, gomod, 0o644))
		if sum, err := os.ReadFile(filepath.Join(t.dir, "go.sum")); err == nil {
			check(os.WriteFile(strings.TrimSuffix(mod, ".mod")+".sum", sum, 0o644))
		}
		edit := exec.Command("go", "mod", "edit", "-modfile="+mod, "-require="+runtimeModule+"@v0.0.0", "-replace="+runtimeModule+"="+filepath.Join(root, "runtime"))
		edit.Dir = t.dir
		if out, err := edit.CombinedOutput(); err != nil {
			return string(out)
		}
		args = append(args, "-modfile="+mod)
	}
	for d := range dirs {
		args = append(args, d)
	}
	cmd := exec.Command("go", args...)
	cmd.Dir = t.dir
	if out, err := cmd.CombinedOutput(); err != nil {
		return string(out)
	}
	return ""
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

// extraModules downloads the named modules and prepares them like the
// dependency modules.
func extraModules(tmp string, mods []string) []target {
	var targets []target
	for _, m := range mods {
		out := run(".", "go", "mod", "download", "-json", m)
		var info struct{ Path, Version, Dir string }
		check(json.Unmarshal([]byte(out), &info))
		if t, ok := prepare(tmp, info.Path+"@"+info.Version, info.Dir); ok {
			targets = append(targets, t)
		}
	}
	return targets
}

// dependencyModules copies each module of the build list that is in the
// module cache to a writable directory and downloads its own dependencies.
func dependencyModules(tmp string) []target {
	out := run(".", "go", "list", "-m", "-f", "{{if not .Main}}{{.Path}}@{{.Version}} {{.Dir}}{{end}}", "all")
	var targets []target
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		path, dir, ok := strings.Cut(line, " ")
		if !ok || dir == "" {
			continue
		}
		if t, ok := prepare(tmp, path, dir); ok {
			targets = append(targets, t)
		}
	}
	return targets
}

// prepare copies a module to a writable directory and downloads its own
// dependencies.
func prepare(tmp, path, dir string) (target, bool) {
	dst := filepath.Join(tmp, "mod", strings.ReplaceAll(path, "/", "_"))
	check(os.CopyFS(dst, os.DirFS(dir)))
	check(filepath.WalkDir(dst, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		mode := os.FileMode(0o644)
		if d.IsDir() {
			mode = 0o755
		}
		return os.Chmod(p, mode)
	}))
	if _, err := os.Stat(filepath.Join(dst, "go.mod")); err != nil {
		return target{}, false // pre-module code: nothing to build it with
	}
	dl := exec.Command("go", "mod", "download")
	dl.Dir = dst
	if out, err := dl.CombinedOutput(); err != nil {
		// Modules that replace dependencies with sibling directories of
		// their repository cannot be built from the module alone.
		fmt.Printf("%-40s skipped: its dependencies do not resolve: %s\n", path, firstLines(string(out), 1))
		return target{}, false
	}
	return target{name: path, dir: dst, patterns: []string{"./..."}}, true
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
	lines := strings.Split(s, "\n")
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
