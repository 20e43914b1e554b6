package main

import (
	"bufio"
	"bytes"
	"encoding/gob"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"
	"honnef.co/go/tools/analysis/lint"
	"honnef.co/go/tools/lintcmd/runner"

	"github.com/resilvet/resilvet/analyzers"
	"github.com/resilvet/resilvet/internal/baseline"
)

// baselineFlags are the standalone driver's baseline flags.
type baselineFlags struct {
	read, write string
}

func (b *baselineFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&b.read, "baseline", "", "report, and fail on, only the findings not in this baseline file")
	fs.StringVar(&b.write, "baseline-write", "", "record the current findings in this baseline file and report nothing")
}

// lintResult and lintDiagnostic mirror the runner's binary output (-f
// binary), a gob stream of its results, field for field: what the
// driver reads to filter findings and gives back to the runner's -merge
// to print in the format asked for.
type lintResult struct {
	CheckedFiles []string
	Diagnostics  []lintDiagnostic
	Warnings     []string
}

type lintDiagnostic struct {
	runner.Diagnostic
	Severity  uint8
	MergeIf   int
	BuildName string
}

// finding is a diagnostic of one of resilvet's analyzers with its
// identity; absorbed when the baseline holds it.
type finding struct {
	d        *lintDiagnostic
	id       baseline.Identity
	absorbed bool
}

// runWithBaseline runs the analyzers with the runner's binary output,
// decides which findings the baseline absorbs (or records them all with
// -baseline-write), and prints the others in the format asked for, with
// fingerprints in SARIF. It returns the exit status.
func runWithBaseline(opts *analyzers.Options, args []string, flags baselineFlags, format string) int {
	results, status := runBinary(opts, args)
	if results == nil {
		return status
	}
	findings := identify(results)
	if flags.write != "" {
		ids := make([]baseline.Identity, len(findings))
		for i, f := range findings {
			ids[i] = f.id
		}
		return recordBaseline(flags.write, ids)
	}
	failed := false
	if flags.read != "" {
		file, err := baseline.Read(flags.read)
		if err != nil {
			// Report everything rather than nothing, and fail.
			fmt.Fprintln(os.Stderr, "resilvet:", err, "(reporting every finding)")
			failed = true
		} else {
			m := baseline.NewMatcher(file)
			for i := range findings {
				findings[i].absorbed = m.Absorb(findings[i].id)
			}
			reportBaseline(flags.read, m.Absorbed(), m.Stale())
		}
	}
	absorbed := map[*lintDiagnostic]bool{}
	for _, f := range findings {
		if f.absorbed {
			absorbed[f.d] = true
		}
	}
	if format == "sarif" {
		// Every finding, absorbed ones as "unchanged"; the status is the
		// runner's for SARIF (0: the report carries the findings).
		status = printSARIF(opts, results, findings, flags.read != "" && !failed)
	} else {
		status = printMerged(opts, keep(results, absorbed), format, os.Stdout)
	}
	if failed {
		status = max(status, 1)
	}
	return status
}

// recordBaseline writes the baseline of ids to path, says so, and
// returns the exit status: both drivers' -baseline-write.
func recordBaseline(path string, ids []baseline.Identity) int {
	file := baseline.New(ids)
	if err := file.Write(path); err != nil {
		fmt.Fprintln(os.Stderr, "resilvet: writing the baseline:", err)
		return 1
	}
	fmt.Fprintf(os.Stderr, "resilvet: recorded %d findings (%d entries) in %s\n", len(ids), len(file.Findings), path)
	return 0
}

// reportBaseline prints the line every run with a baseline ends with.
func reportBaseline(path string, absorbed, stale int) {
	fmt.Fprintf(os.Stderr, "resilvet: baseline %s absorbed %d findings; %d of its findings no longer occur", path, absorbed, stale)
	if stale > 0 {
		fmt.Fprintf(os.Stderr, " (prune them with -baseline-write %s)", path)
	}
	fmt.Fprintln(os.Stderr)
}

// runBinary runs the analyzers on args with the runner's binary output
// and returns its results; nil and the runner's status if it failed.
func runBinary(opts *analyzers.Options, args []string, extra ...func(suite []*analysis.Analyzer) *lint.Analyzer) ([]lintResult, int) {
	out, err := os.CreateTemp("", "resilvet-run-*.bin")
	if err != nil {
		fmt.Fprintln(os.Stderr, "resilvet:", err)
		return nil, 1
	}
	defer os.Remove(out.Name())
	defer out.Close()
	cmd := newCommand(opts, extra...)
	if err := cmd.parse(args, opts); err != nil {
		fmt.Fprintln(os.Stderr, "resilvet:", err)
		return nil, 2
	}
	if err := cmd.FlagSet().Set("f", "binary"); err != nil {
		fmt.Fprintln(os.Stderr, "resilvet:", err)
		return nil, 1
	}
	stdout := os.Stdout
	os.Stdout = out // the runner writes its binary output there
	status := cmd.Execute()
	os.Stdout = stdout
	if status != 0 {
		return nil, status
	}
	if _, err := out.Seek(0, io.SeekStart); err != nil {
		fmt.Fprintln(os.Stderr, "resilvet:", err)
		return nil, 1
	}
	// One gob stream per build configuration, one after the other: each
	// decoder must stop where its stream ends, which it does on a
	// ByteReader.
	br := bufio.NewReader(out)
	var results []lintResult
	for {
		var r lintResult
		if err := gob.NewDecoder(br).Decode(&r); err != nil {
			if errors.Is(err, io.EOF) {
				break
			}
			fmt.Fprintln(os.Stderr, "resilvet: reading the runner's results:", err)
			return nil, 1
		}
		results = append(results, r)
	}
	return results, 0
}

// identify returns the findings of resilvet's analyzers in results, each
// once (a file checked in several builds or packages is reported once),
// in position order, with their identities.
func identify(results []lintResult) []finding {
	x := baseline.NewIdentifier()
	seen := map[string]bool{}
	var out []finding
	for i := range results {
		for j := range results[i].Diagnostics {
			d := &results[i].Diagnostics[j]
			if !isAnalyzer(d.Category) {
				continue // the runner's own: compile errors, unused directives
			}
			key := fmt.Sprint(d.Position, d.Category, d.Message)
			if seen[key] {
				continue
			}
			seen[key] = true
			out = append(out, finding{d: d, id: x.Identify(d.Category, d.Message, d.Position, d.End)})
		}
	}
	slices.SortFunc(out, func(a, b finding) int {
		pa, pb := a.d.Position, b.d.Position
		if c := strings.Compare(pa.Filename, pb.Filename); c != 0 {
			return c
		}
		if pa.Line != pb.Line {
			return pa.Line - pb.Line
		}
		if pa.Column != pb.Column {
			return pa.Column - pb.Column
		}
		return strings.Compare(a.d.Message, b.d.Message)
	})
	return out
}

// sameFinding reports whether a and b are one finding seen twice.
func sameFinding(a, b *lintDiagnostic) bool {
	return a.Position == b.Position && a.Category == b.Category && a.Message == b.Message
}

// keep returns results without the absorbed diagnostics (and their
// duplicates from other builds or packages).
func keep(results []lintResult, absorbed map[*lintDiagnostic]bool) []lintResult {
	var gone []*lintDiagnostic
	for d := range absorbed {
		gone = append(gone, d)
	}
	out := make([]lintResult, len(results))
	for i, r := range results {
		out[i] = lintResult{CheckedFiles: r.CheckedFiles, Warnings: r.Warnings}
		for j := range r.Diagnostics {
			d := &r.Diagnostics[j]
			if !slices.ContainsFunc(gone, func(g *lintDiagnostic) bool { return sameFinding(g, d) }) {
				out[i].Diagnostics = append(out[i].Diagnostics, *d)
			}
		}
	}
	return out
}

// printMerged prints results in format through the runner's -merge, to
// w, and returns its status.
func printMerged(opts *analyzers.Options, results []lintResult, format string, w *os.File) int {
	in, err := os.CreateTemp("", "resilvet-merge-*.bin")
	if err != nil {
		fmt.Fprintln(os.Stderr, "resilvet:", err)
		return 1
	}
	defer os.Remove(in.Name())
	for _, r := range results {
		if err := gob.NewEncoder(in).Encode(r); err != nil {
			in.Close()
			fmt.Fprintln(os.Stderr, "resilvet:", err)
			return 1
		}
	}
	if err := in.Close(); err != nil {
		fmt.Fprintln(os.Stderr, "resilvet:", err)
		return 1
	}
	cmd := newCommand(opts)
	cmd.ParseFlags([]string{"-merge", "-f", format, in.Name()})
	stdout := os.Stdout
	os.Stdout = w
	defer func() { os.Stdout = stdout }()
	return cmd.Execute()
}

// fingerprintKey names resilvet's identity among a SARIF result's
// partialFingerprints.
const fingerprintKey = "resilvet/v1"

// printSARIF prints every finding in SARIF with its identity as a
// partial fingerprint and, with a baseline, its baselineState: "new", or
// "unchanged" for the findings the baseline absorbed.
func printSARIF(opts *analyzers.Options, results []lintResult, findings []finding, withBaseline bool) int {
	out, err := os.CreateTemp("", "resilvet-sarif-*.json")
	if err != nil {
		fmt.Fprintln(os.Stderr, "resilvet:", err)
		return 1
	}
	defer os.Remove(out.Name())
	defer out.Close()
	status := printMerged(opts, results, "sarif", out)
	data, err := os.ReadFile(out.Name())
	if err != nil {
		fmt.Fprintln(os.Stderr, "resilvet:", err)
		return 1
	}
	var log map[string]any
	if err := json.Unmarshal(data, &log); err != nil {
		fmt.Fprintln(os.Stderr, "resilvet: reading the runner's SARIF:", err)
		return 1
	}
	addFingerprints(log, findings, withBaseline)
	loadFailed := tidySARIF(log)
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(log); err != nil {
		fmt.Fprintln(os.Stderr, "resilvet: SARIF:", err)
		return 1
	}
	data = buf.Bytes()
	os.Stdout.Write(data)
	if loadFailed {
		// The report says so (executionSuccessful false); so does the
		// status, as a run that did not analyse everything.
		fmt.Fprintln(os.Stderr, "resilvet: some packages did not load; the SARIF report lists them as notifications")
		return max(status, 1)
	}
	return status
}

// addFingerprints adds each result's partial fingerprint, and its
// baseline state with a baseline, to the runner's SARIF log.
func addFingerprints(log map[string]any, findings []finding, withBaseline bool) {
	byPlace := map[string]finding{}
	for _, f := range findings {
		byPlace[sarifPlace(sarifURI(f.d.Position.Filename), f.d.Position.Line, f.d.Position.Column, f.d.Category, f.d.Message)] = f
	}
	runs, _ := log["runs"].([]any)
	for _, r := range runs {
		run, _ := r.(map[string]any)
		results, _ := run["results"].([]any)
		for _, res := range results {
			result, _ := res.(map[string]any)
			f, ok := byPlace[resultPlace(result)]
			if !ok {
				continue // the runner's own diagnostics
			}
			result["partialFingerprints"] = map[string]any{fingerprintKey: f.id.Fingerprint()}
			if withBaseline {
				state := "new"
				if f.absorbed {
					state = "unchanged"
				}
				result["baselineState"] = state
			}
		}
	}
}

// sarifPlace keys a finding by where it is, which rule reported it and
// what it says.
func sarifPlace(uri string, line, col int, rule, message string) string {
	return fmt.Sprintf("%s:%d:%d:%s:%s", uri, line, col, rule, message)
}

// resultPlace is sarifPlace of a SARIF result, whose message text the
// runner follows with the related positions.
func resultPlace(result map[string]any) string {
	rule, _ := result["ruleId"].(string)
	msg, _ := result["message"].(map[string]any)
	text, _ := msg["text"].(string)
	text, _, _ = strings.Cut(text, "\n\t[")
	locs, _ := result["locations"].([]any)
	if len(locs) == 0 {
		return ""
	}
	loc, _ := locs[0].(map[string]any)
	phys, _ := loc["physicalLocation"].(map[string]any)
	art, _ := phys["artifactLocation"].(map[string]any)
	region, _ := phys["region"].(map[string]any)
	uri, _ := art["uri"].(string)
	line, _ := region["startLine"].(float64)
	col, _ := region["startColumn"].(float64)
	return sarifPlace(uri, int(line), int(col), rule, text)
}

// sarifURI is a file's artifact URI as the runner's SARIF writes it: the
// escaped path when relative (the binary output's paths are relative to
// the working directory), a file URI when absolute.
func sarifURI(filename string) string {
	if filepath.IsAbs(filename) {
		return (&url.URL{Scheme: "file", Path: filename}).String()
	}
	return (&url.URL{Path: filepath.ToSlash(filename)}).EscapedPath()
}
