package main

import (
	"bufio"
	"fmt"
	"go/token"
	"io"
	"os"
	"sort"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"

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

// runMap builds the resilience map of the packages the patterns name and
// writes it to stdout in the format. The summary engine runs in map mode
// over every package in one process (x/tools' checker), and the map is
// joined from its claims on the root packages and the analyzers' findings
// there. It returns the exit status: 0 when the map was written, even
// with findings on it (the map is a report, not a gate), 1 when the
// packages cannot be loaded or the map cannot be written.
func runMap(opts *analyzers.Options, patterns []string, format string, out io.Writer) int {
	opts.Map = true
	suite := analyzers.Suite(opts)
	sum := summaryOf(suite)
	if sum == nil {
		fmt.Fprintln(os.Stderr, "resilvet: internal error: no summary analyzer in the suite")
		return 1
	}
	if len(patterns) == 0 {
		patterns = []string{"."}
	}
	pkgs, err := packages.Load(&packages.Config{Mode: packages.LoadAllSyntax | packages.NeedModule, Tests: opts.IncludeTests}, patterns...)
	if err != nil {
		fmt.Fprintln(os.Stderr, "resilvet:", err)
		return 1
	}
	if n := packages.PrintErrors(pkgs); n > 0 {
		fmt.Fprintf(os.Stderr, "resilvet: %d package error(s); the map leaves out what did not load\n", n)
	}
	g, err := checker.Analyze(append(suite, sum), pkgs, nil)
	if err != nil {
		fmt.Fprintln(os.Stderr, "resilvet:", err)
		return 1
	}
	src := mapSource(g, sum, pkgs)
	m := resilmap.Build(src)
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

// summaryOf returns the summary analyzer the suite's analyzers require.
func summaryOf(suite []*analysis.Analyzer) *analysis.Analyzer {
	for _, a := range suite {
		for _, r := range a.Requires {
			if r.Name == summary.Analyzer.Name {
				return r
			}
		}
	}
	return nil
}

// mapSource collects the engine's map claims and the findings of the
// root packages.
func mapSource(g *checker.Graph, sum *analysis.Analyzer, pkgs []*packages.Package) resilmap.Source {
	var src resilmap.Source
	for _, p := range pkgs {
		if p.Module != nil {
			src.Module, src.Root = p.Module.Path, p.Module.Dir
			break
		}
	}
	for act := range g.All() {
		if !act.IsRoot || act.Err != nil {
			continue
		}
		if act.Analyzer == sum {
			res, ok := act.Result.(*summary.Result)
			if !ok {
				continue
			}
			src.Funcs = append(src.Funcs, res.MapFuncs()...)
			src.Entries = append(src.Entries, res.MapEntries()...)
			continue
		}
		for _, d := range act.Diagnostics {
			src.Findings = append(src.Findings, resilmap.Finding{Analyzer: act.Analyzer.Name, Message: d.Message, Pos: fullPos(act.Package.Fset, d.Pos)})
		}
	}
	// The checker runs packages in parallel: sort for a stable map.
	sort.Slice(src.Funcs, func(i, j int) bool { return src.Funcs[i].Key < src.Funcs[j].Key })
	sort.SliceStable(src.Entries, func(i, j int) bool { return src.Entries[i].At < src.Entries[j].At })
	sort.SliceStable(src.Findings, func(i, j int) bool { return src.Findings[i].Pos < src.Findings[j].Pos })
	return src
}

func fullPos(fset *token.FileSet, pos token.Pos) string {
	p := fset.Position(pos)
	return fmt.Sprintf("%s:%d:%d", p.Filename, p.Line, p.Column)
}
