package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"

	"golang.org/x/tools/go/analysis"

	"github.com/resilvet/resilvet/internal/baseline"
)

// The checker driver (x/tools' multichecker: -fix, -diff, -json) runs
// packages in parallel and exits from inside; a baseline needs a view of
// the whole run. So a run with a baseline flag runs the checker again as
// a child process, whose analyzers decide each root-package finding
// against the baseline (dropping the absorbed ones, or every one when
// recording) and write their decisions to a file the parent reads when
// the child is done.
const (
	baselineStateEnv = "RESILVET_BASELINE_STATE" // the decisions file
	baselineReadEnv  = "RESILVET_BASELINE_READ"  // the baseline to match, if any
	baselineRootsEnv = "RESILVET_BASELINE_ROOTS" // the root packages, one per line
)

// decision is a line of the decisions file.
type decision struct {
	ID       baseline.Identity `json:"id"`
	Absorbed bool              `json:"absorbed"`
}

// baselineArgs returns the baseline flags in args, and args without
// them; ok is false when there are none.
func baselineArgs(args []string) (flags baselineFlags, rest []string, ok bool, err error) {
	for i := 0; i < len(args); i++ {
		arg := args[i]
		if arg == "--" || !strings.HasPrefix(arg, "-") {
			rest = append(rest, args[i:]...)
			break
		}
		name, value, hasValue := strings.Cut(strings.TrimLeft(arg, "-"), "=")
		if name != "baseline" && name != "baseline-write" {
			rest = append(rest, arg)
			continue
		}
		if !hasValue {
			if i+1 >= len(args) {
				return flags, nil, false, fmt.Errorf("flag -%s needs a file", name)
			}
			i++
			value = args[i]
		}
		if name == "baseline" {
			flags.read = value
		} else {
			flags.write = value
		}
		ok = true
	}
	return flags, rest, ok, nil
}

// runCheckerWithBaseline runs the checker as a child with the baseline
// applied, and reports or records the decisions. It returns the exit
// status.
//
// args are the command line without the baseline flags: the child that
// runs without a baseline (when it cannot be read) must not find them.
func runCheckerWithBaseline(flags baselineFlags, args []string) int {
	if flags.read != "" && flags.write != "" {
		fmt.Fprintln(os.Stderr, "resilvet: -baseline and -baseline-write do not go together: write a baseline, then run with it")
		return 2
	}
	var file *baseline.File
	if flags.read != "" {
		var err error
		if file, err = baseline.Read(flags.read); err != nil {
			fmt.Fprintln(os.Stderr, "resilvet:", err, "(reporting every finding)")
		}
	}
	if file == nil && flags.write == "" {
		// The baseline could not be read: report every finding, and fail.
		return max(runChild(args, nil), 1)
	}
	roots, err := rootPackages(args)
	if err != nil {
		fmt.Fprintln(os.Stderr, "resilvet:", err)
		return 1
	}
	state, err := os.CreateTemp("", "resilvet-decisions-*.jsonl")
	if err != nil {
		fmt.Fprintln(os.Stderr, "resilvet:", err)
		return 1
	}
	state.Close()
	defer os.Remove(state.Name())
	env := []string{baselineStateEnv + "=" + state.Name(), baselineRootsEnv + "=" + strings.Join(roots, "\n")}
	if file != nil {
		env = append(env, baselineReadEnv+"="+flags.read)
	} // else recording: the child drops every finding
	status := runChild(args, env)
	decisions, err := readDecisions(state.Name())
	if err != nil {
		fmt.Fprintln(os.Stderr, "resilvet: reading the checker's decisions:", err)
		return 1
	}
	switch {
	case flags.write != "":
		ids := make([]baseline.Identity, len(decisions))
		for i, d := range decisions {
			ids[i] = d.ID
		}
		return recordBaseline(flags.write, ids)
	case file != nil:
		// The child's matcher decided; the same matcher replayed here
		// counts what it absorbed and what it left.
		m := baseline.NewMatcher(file)
		for _, d := range decisions {
			if d.Absorbed {
				m.Absorb(d.ID)
			}
		}
		reportBaseline(flags.read, m.Absorbed(), m.Stale())
	}
	return status
}

// runChild runs this binary with args and env added to the environment,
// sharing its standard streams, and returns its exit status.
func runChild(args, env []string) int {
	child := exec.Command(os.Args[0], args...)
	child.Stdin, child.Stdout, child.Stderr = os.Stdin, os.Stdout, os.Stderr
	child.Env = append(os.Environ(), env...)
	if err := child.Run(); err != nil {
		if exit, ok := err.(*exec.ExitError); ok {
			return exit.ExitCode()
		}
		fmt.Fprintln(os.Stderr, "resilvet:", err)
		return 1
	}
	return 0
}

// rootPackages lists the packages args name, as the checker will load
// them: the ones whose findings it prints.
func rootPackages(args []string) ([]string, error) {
	var patterns []string
	for i, arg := range args {
		if !strings.HasPrefix(arg, "-") {
			patterns = args[i:]
			break
		}
	}
	if len(patterns) == 0 {
		patterns = []string{"."}
	}
	out, err := exec.Command("go", append([]string{"list", "-e", "-f", "{{.ImportPath}}"}, patterns...)...).Output()
	if err != nil {
		return nil, fmt.Errorf("listing the packages to check: %v", err)
	}
	return strings.Fields(string(out)), nil
}

// readDecisions reads the decisions file.
func readDecisions(path string) ([]decision, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []decision
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var d decision
		if err := json.Unmarshal(sc.Bytes(), &d); err != nil {
			return nil, err
		}
		out = append(out, d)
	}
	return out, sc.Err()
}

// baselineChild is the child's side: it decides each finding of a root
// package once (a package's test variant repeats its findings) and
// writes the decision down.
type baselineChild struct {
	mu       sync.Mutex
	x        *baseline.Identifier
	matcher  *baseline.Matcher // nil: recording, every finding dropped
	roots    map[string]bool
	decided  map[string]bool // by position and message: absorbed
	state    *os.File
	stateErr error
}

// newBaselineChild returns the child's side when this process is a
// baseline run's child, else nil.
func newBaselineChild() (*baselineChild, error) {
	path := os.Getenv(baselineStateEnv)
	if path == "" {
		return nil, nil
	}
	c := &baselineChild{x: baseline.NewIdentifier(), roots: map[string]bool{}, decided: map[string]bool{}}
	for _, r := range strings.Split(os.Getenv(baselineRootsEnv), "\n") {
		c.roots[r] = true
	}
	if read := os.Getenv(baselineReadEnv); read != "" {
		f, err := baseline.Read(read)
		if err != nil {
			return nil, err
		}
		c.matcher = baseline.NewMatcher(f)
	}
	state, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		return nil, err
	}
	c.state = state
	return c, nil
}

// wrap returns a copy of a whose root-package findings go through the
// baseline.
func (c *baselineChild) wrap(a *analysis.Analyzer) *analysis.Analyzer {
	wrapped := *a
	wrapped.Run = func(pass *analysis.Pass) (any, error) {
		path := strings.TrimSuffix(pass.Pkg.Path(), "_test")
		if !c.roots[path] {
			return a.Run(pass)
		}
		report := pass.Report
		pass.Report = func(d analysis.Diagnostic) {
			if !c.absorbs(a.Name, pass, d) {
				report(d)
			}
		}
		return a.Run(pass)
	}
	return &wrapped
}

// absorbs decides d, and writes the decision down the first time.
func (c *baselineChild) absorbs(analyzer string, pass *analysis.Pass, d analysis.Diagnostic) bool {
	pos := pass.Fset.Position(d.Pos)
	var end = pos
	if d.End.IsValid() {
		end = pass.Fset.Position(d.End)
	}
	key := fmt.Sprint(pos, analyzer, d.Message)
	c.mu.Lock()
	defer c.mu.Unlock()
	if absorbed, ok := c.decided[key]; ok {
		return absorbed
	}
	if abs, err := filepath.Abs(pos.Filename); err == nil {
		pos.Filename, end.Filename = abs, abs
	}
	id := c.x.Identify(analyzer, d.Message, pos, end)
	absorbed := c.matcher == nil || c.matcher.Absorb(id)
	c.decided[key] = absorbed
	line, _ := json.Marshal(decision{ID: id, Absorbed: absorbed})
	if _, err := c.state.Write(append(line, '\n')); err != nil && c.stateErr == nil {
		c.stateErr = err
		fmt.Fprintln(os.Stderr, "resilvet: writing a baseline decision:", err)
	}
	return absorbed
}
