package main

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/resilvet/resilvet/analyzers"
	"github.com/resilvet/resilvet/internal/baseline"
)

// severityIgnored is the runner's severity of a finding silenced by
// //lint:ignore: it is in the binary output, and no finding to fix.
const severityIgnored = 2

// runFix applies the suggested fixes (or, with diff, prints them as a
// unified diff), says on stderr what was applied and what remains, and
// returns the exit status: 0 when no finding remains, 3 when some do (no
// fix, a fix that overlaps another, a fix refused), 1 when a package
// does not load or a file cannot be fixed.
//
// It runs on the standalone runner, one package in memory at a time,
// not on x/tools' checker, which holds every package of the run at once:
// several times the memory on a large service. With a baseline (-baseline)
// only the findings it does not absorb are fixed.
func runFix(opts *analyzers.Options, args []string, flags baselineFlags, format string, diff bool) int {
	if format != "" && format != "text" {
		fmt.Fprintf(os.Stderr, "resilvet: -fix and -diff print no report; run without them for -f %s\n", format)
		return 2
	}
	if flags.write != "" {
		fmt.Fprintln(os.Stderr, "resilvet: -baseline-write records findings and fixes none; run it without -fix")
		return 2
	}
	results, status := runBinary(opts, args)
	if results == nil {
		return status
	}
	failed := false
	for _, r := range results {
		for _, d := range r.Diagnostics {
			if d.Category == "compile" {
				fmt.Fprintf(os.Stderr, "%s: %s\n", displayPosition(d.Position.Filename, d.Position.Line, d.Position.Column), d.Message)
				failed = true
			}
		}
	}
	var findings []finding
	for _, f := range identify(results) {
		if f.d.Severity != severityIgnored {
			findings = append(findings, f)
		}
	}
	if flags.read != "" {
		file, err := baseline.Read(flags.read)
		if err != nil {
			fmt.Fprintln(os.Stderr, "resilvet:", err, "(fixing every finding)")
			failed = true
		} else {
			m := baseline.NewMatcher(file)
			kept := findings[:0]
			for _, f := range findings {
				if !m.Absorb(f.id) {
					kept = append(kept, f)
				}
			}
			findings = kept
			reportBaseline(flags.read, m.Absorbed(), m.Stale())
		}
	}

	set := newFixSet()
	var fixed, noFix, refused int
	for _, f := range findings {
		switch {
		case len(f.d.SuggestedFixes) == 0:
			noFix++
		case set.add(f.d.SuggestedFixes[0]):
			fixed++
		default:
			refused++
		}
	}
	files, errs := set.applyAll()
	for _, err := range errs {
		fmt.Fprintln(os.Stderr, "resilvet:", err)
		failed = true
	}
	cwd, _ := os.Getwd()
	for _, f := range files {
		if diff {
			if err := writeDiff(os.Stdout, relativeTo(cwd, f.name), f); err != nil {
				fmt.Fprintln(os.Stderr, "resilvet: writing the diff:", err)
				return 1
			}
			continue
		}
		if err := writeFileKeepMode(f.name, f.new); err != nil {
			fmt.Fprintln(os.Stderr, "resilvet:", err)
			failed = true
		}
	}
	// A file left alone leaves its findings: they remain, not fixed.
	applied := set.appliedIn(files)
	refused += fixed - applied
	fixed = applied
	fmt.Fprintln(os.Stderr, fixSummary(fixed, len(files), diff))
	fmt.Fprintln(os.Stderr, remainSummary(noFix, refused, flags.read != ""))
	switch {
	case failed:
		return 1
	case noFix+refused > 0:
		return 3
	}
	return 0
}

// fixSummary is the first line -fix and -diff end with.
func fixSummary(fixed, files int, diff bool) string {
	if diff {
		return fmt.Sprintf("resilvet: -diff: %s in %s shown above; nothing written", plural(fixed, "fix", "fixes"), plural(files, "file", "files"))
	}
	return fmt.Sprintf("resilvet: applied %s in %s", plural(fixed, "fix", "fixes"), plural(files, "file", "files"))
}

// remainSummary is the second: what the fixes leave, and why; with a
// baseline, the findings it absorbed are not counted and stay as they are.
func remainSummary(noFix, refused int, withBaseline bool) string {
	if noFix+refused == 0 && withBaseline {
		return "resilvet: no findings remain but the baseline's"
	}
	if noFix+refused == 0 {
		return "resilvet: no findings remain"
	}
	msg := "resilvet: " + plural(noFix+refused, "finding remains", "findings remain")
	switch {
	case noFix > 0 && refused > 0:
		msg += fmt.Sprintf(" (%d with no suggested fix, %d whose fix overlaps another: run -fix again)", noFix, refused)
	case noFix > 0:
		msg += " with no suggested fix"
	default:
		msg += " whose fix overlaps another: run -fix again"
	}
	return msg + "; resilvet ./... lists them"
}

// plural is n and the noun in the number n takes.
func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

// relativeTo returns name relative to dir when it lies under it.
func relativeTo(dir, name string) string {
	if rel, err := filepath.Rel(dir, name); err == nil && filepath.IsLocal(rel) {
		return filepath.ToSlash(rel)
	}
	return filepath.ToSlash(name)
}

// displayPosition formats a position as the text output does.
func displayPosition(file string, line, col int) string {
	switch {
	case file == "":
		return "-"
	case line == 0:
		return file
	case col == 0:
		return fmt.Sprintf("%s:%d", file, line)
	}
	return fmt.Sprintf("%s:%d:%d", file, line, col)
}

// writeFileKeepMode replaces the file's content, keeping its mode.
func writeFileKeepMode(name string, data []byte) error {
	mode := os.FileMode(0o644)
	if fi, err := os.Stat(name); err == nil {
		mode = fi.Mode().Perm()
	}
	return os.WriteFile(name, data, mode)
}
