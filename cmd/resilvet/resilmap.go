package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/packages"
	"honnef.co/go/tools/analysis/lint"

	"github.com/resilvet/resilvet/analyzers"
	"github.com/resilvet/resilvet/internal/resilmap"
	"github.com/resilvet/resilvet/internal/summary"
)

// The resilience map's formats (-f): the page, and its data for machines.
const (
	formatHTML    = "html"
	formatMapJSON = "map-json"
)

// isMapFormat reports whether -f asks for the resilience map.
func isMapFormat(format string) bool { return format == formatHTML || format == formatMapJSON }

// runMap builds the resilience map of the packages args name and writes
// it to out in the format. It runs the analyzers as the standalone run
// does (staticcheck's runner, one package in memory at a time), with the
// summary in map mode and one more analyzer that collects the map claims
// of each package it checks; the map is joined from those claims and the
// findings. The runner's cache is a fresh directory: a package read from
// the cache would run no analyzer, and collect nothing. Packages that do
// not load are named on stderr and on the map. It returns the exit
// status: 0 when the map was written, even with findings on it (the map
// is a report, not a gate), 1 when no package can be loaded, when the map
// would be empty because what did not load is all that had entries, or
// when the map cannot be written.
func runMap(opts *analyzers.Options, args, patterns []string, format string, out io.Writer) int {
	opts.Map = true
	module, root := moduleOf(patterns)
	opts.MapModule = module
	cache, err := os.MkdirTemp("", "resilvet-map-*")
	if err != nil {
		fmt.Fprintln(os.Stderr, "resilvet:", err)
		return 1
	}
	defer os.RemoveAll(cache)
	if err := os.Setenv("STATICCHECK_CACHE", cache); err != nil {
		fmt.Fprintln(os.Stderr, "resilvet:", err)
		return 1
	}
	var col collector
	results, status := runBinary(opts, args, col.analyzer)
	if results == nil {
		return max(status, 1)
	}
	notLoaded := loadErrors(results)
	for _, le := range notLoaded {
		fmt.Fprintf(os.Stderr, "resilvet: %s (the map leaves out what did not load)\n", loadErrorText(le))
	}
	if col.checked() == 0 {
		// An empty map would read as a service with no entry points.
		fmt.Fprintln(os.Stderr, "resilvet: no package was loaded and checked: no map written")
		return 1
	}
	src := col.source()
	src.Module, src.Root = module, root
	for _, f := range identify(results) {
		d := f.d
		// The runner's positions are relative to the working directory;
		// the engine's have the file's full path.
		file, err := filepath.Abs(d.Position.Filename)
		if err != nil {
			file = d.Position.Filename
		}
		src.Findings = append(src.Findings, resilmap.Finding{Analyzer: d.Category, Message: d.Message, Pos: fmt.Sprintf("%s:%d:%d", file, d.Position.Line, d.Position.Column)})
	}
	src.NotLoaded = notLoaded
	m := resilmap.Build(src)
	if len(m.Entries) == 0 && len(notLoaded) > 0 {
		// The packages that loaded have no entry point: the service's
		// are in what did not load, and an empty map would read as a
		// service with none.
		fmt.Fprintf(os.Stderr, "resilvet: the packages that loaded have no entry point, and %d packages did not load: no map written\n", len(notLoaded))
		return 1
	}
	w := bufio.NewWriter(out)
	if format == formatHTML {
		err = resilmap.WriteHTML(w, m)
	} else {
		err = resilmap.WriteJSON(w, m)
	}
	if err == nil {
		err = w.Flush()
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "resilvet:", err)
		return 1
	}
	return 0
}

func loadErrorText(le resilmap.LoadError) string {
	if le.Package == "" {
		return le.Message
	}
	return "package " + le.Package + " did not load: " + le.Message
}

// loadErrors returns the packages the runner could not load, each once
// (a package is loaded in several builds), sorted: the runner loads them
// in parallel. The runner's message names the package on its first line
// ("# example.com/shop/api") and has the compiler's errors, with their
// positions, after; a position of its own is put before the message.
func loadErrors(results []lintResult) []resilmap.LoadError {
	var out []resilmap.LoadError
	seen := map[resilmap.LoadError]bool{}
	for _, r := range results {
		for _, d := range r.Diagnostics {
			if d.Category != "compile" {
				continue
			}
			le := resilmap.LoadError{Message: d.Message}
			if head, rest, ok := strings.Cut(d.Message, "\n"); ok && strings.HasPrefix(head, "# ") {
				le.Package, le.Message = strings.TrimPrefix(head, "# "), rest
			}
			le.Message = strings.TrimSpace(le.Message)
			if d.Position.IsValid() {
				le.Message = d.Position.String() + ": " + le.Message
			}
			if !seen[le] {
				seen[le] = true
				out = append(out, le)
			}
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Package != out[j].Package {
			return out[i].Package < out[j].Package
		}
		return out[i].Message < out[j].Message
	})
	return out
}

// collector gathers the map claims of the packages the runner checks.
type collector struct {
	mu      sync.Mutex
	funcs   []*summary.MapFunc
	entries []*summary.MapEntry
	impls   []summary.MapImpl
	// packages counts the packages whose claims were collected.
	packages int
}

// analyzer returns the collecting analyzer, which requires the suite's
// summary. The runner runs it on the packages named, not on their
// dependencies: it has no facts.
func (c *collector) analyzer(suite []*analysis.Analyzer) *lint.Analyzer {
	sum := summaryOf(suite)
	a := &analysis.Analyzer{
		Name:     "resilvetmap",
		Doc:      "collects the resilience map's claims of each package",
		Requires: []*analysis.Analyzer{sum},
		Run: func(pass *analysis.Pass) (any, error) {
			res, ok := pass.ResultOf[sum].(*summary.Result)
			if !ok {
				return nil, nil
			}
			c.mu.Lock()
			defer c.mu.Unlock()
			c.funcs = append(c.funcs, res.MapFuncs()...)
			c.entries = append(c.entries, res.MapEntries()...)
			c.impls = append(c.impls, res.MapImpls()...)
			c.packages++
			return nil, nil
		},
	}
	return &lint.Analyzer{Analyzer: a, Doc: &lint.RawDocumentation{Title: "the resilience map's claims", Severity: lint.SeverityHint}}
}

// checked returns how many packages the collector saw.
func (c *collector) checked() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.packages
}

// source returns what was collected, in a stable order (the runner
// checks packages in parallel).
func (c *collector) source() resilmap.Source {
	c.mu.Lock()
	defer c.mu.Unlock()
	funcs := dedupFuncs(c.funcs)
	sort.SliceStable(c.entries, func(i, j int) bool { return c.entries[i].At < c.entries[j].At })
	// Impls may repeat (a test variant); Build keeps one of each.
	return resilmap.Source{Funcs: funcs, Entries: c.entries, Impls: c.impls}
}

// dedupFuncs sorts funcs by key and keeps one of each: a package checked
// in two builds (its test variant) is collected twice.
func dedupFuncs(funcs []*summary.MapFunc) []*summary.MapFunc {
	sort.SliceStable(funcs, func(i, j int) bool { return funcs[i].Key < funcs[j].Key })
	var out []*summary.MapFunc
	for _, f := range funcs {
		if len(out) > 0 && out[len(out)-1].Key == f.Key {
			continue
		}
		out = append(out, f)
	}
	return out
}

// summaryOf returns the summary analyzer the suite's analyzers require.
func summaryOf(suite []*analysis.Analyzer) *analysis.Analyzer {
	for _, a := range suite {
		for _, r := range a.Requires {
			if r.Name == summary.Analyzer.Name {
				return r
			}
		}
	}
	panic("internal error: no summary analyzer in the suite")
}

// moduleOf returns the path and directory of the module the patterns'
// first package belongs to, or empty strings.
func moduleOf(patterns []string) (path, dir string) {
	if len(patterns) == 0 {
		patterns = []string{"."}
	}
	pkgs, err := packages.Load(&packages.Config{Mode: packages.NeedName | packages.NeedModule}, patterns...)
	if err != nil {
		return "", ""
	}
	for _, p := range pkgs {
		if p.Module != nil {
			return p.Module.Path, p.Module.Dir
		}
	}
	return "", ""
}
