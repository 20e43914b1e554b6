package main

import (
	"bytes"
	"fmt"
	"go/parser"
	"go/token"
	"io"
	"os"
	"slices"
	"strings"

	"honnef.co/go/tools/lintcmd/runner"
)

// textEdit replaces the bytes [start, end) of a file with text.
type textEdit struct {
	start, end int
	text       string
}

// overlaps reports whether e and o touch the same bytes, or insert at the
// same place: applied together, one would change what the other means.
func (e textEdit) overlaps(o textEdit) bool {
	if e.start == e.end && o.start == o.end {
		return e.start == o.start
	}
	return e.start < o.end && o.start < e.end || e.start == e.end && e.start > o.start && e.start < o.end || o.start == o.end && o.start > e.start && o.start < e.end
}

// fixSet collects the suggested fixes to apply, file by file. Fixes are
// added in a fixed order (the findings' positions); a fix is taken whole
// or not at all. An edit identical to one already taken (the same import
// added by two fixes) is taken once; a fix with an edit that overlaps a
// different one already taken is refused, and its finding remains for a
// second run, as x/tools' checker does it.
type fixSet struct {
	files map[string][]textEdit
	taken [][]string // the files each fix taken edits
}

func newFixSet() *fixSet { return &fixSet{files: map[string][]textEdit{}} }

// add takes fix if it merges with the fixes taken so far, and reports
// whether it did. A fix whose edits have no file or a negative range
// (an edit the runner could not place) is refused.
func (s *fixSet) add(fix runner.SuggestedFix) bool {
	type fileEdit struct {
		file string
		edit textEdit
	}
	var take []fileEdit
	for _, te := range fix.TextEdits {
		file := te.Position.Filename
		if file == "" || te.End.Filename != file || te.Position.Offset < 0 || te.End.Offset < te.Position.Offset {
			return false
		}
		e := textEdit{start: te.Position.Offset, end: te.End.Offset, text: string(te.NewText)}
		taken := s.files[file]
		if slices.Contains(taken, e) {
			continue
		}
		if slices.ContainsFunc(taken, e.overlaps) {
			return false
		}
		for _, t := range take {
			if t.file == file && (t.edit == e || t.edit.overlaps(e)) {
				return false // a fix that edits one place twice is malformed
			}
		}
		take = append(take, fileEdit{file, e})
	}
	var files []string
	for _, t := range take {
		s.files[t.file] = append(s.files[t.file], t.edit)
		if !slices.Contains(files, t.file) {
			files = append(files, t.file)
		}
	}
	s.taken = append(s.taken, files)
	return true
}

// appliedIn returns how many of the fixes taken edit only files among
// written: a file left alone (it would not parse) leaves its fixes
// unapplied.
func (s *fixSet) appliedIn(written []fixedFile) int {
	n := 0
	for _, files := range s.taken {
		if !slices.ContainsFunc(files, func(f string) bool {
			return !slices.ContainsFunc(written, func(w fixedFile) bool { return w.name == f })
		}) {
			n++
		}
	}
	return n
}

// sortedFiles returns the names of the files the set edits, sorted.
func (s *fixSet) sortedFiles() []string {
	var names []string
	for f := range s.files {
		names = append(names, f)
	}
	slices.Sort(names)
	return names
}

// apply returns src with edits applied. The edits must not overlap.
func apply(src []byte, edits []textEdit) ([]byte, error) {
	edits = slices.Clone(edits)
	slices.SortFunc(edits, func(a, b textEdit) int {
		if a.start != b.start {
			return a.start - b.start
		}
		return a.end - b.end
	})
	var out bytes.Buffer
	last := 0
	for _, e := range edits {
		if e.start < last || e.end > len(src) {
			return nil, fmt.Errorf("an edit at offset %d does not fit the file (it changed since it was analysed?)", e.start)
		}
		out.Write(src[last:e.start])
		out.WriteString(e.text)
		last = e.end
	}
	out.Write(src[last:])
	return out.Bytes(), nil
}

// fixedFile is a file with the fixes applied, before it is written.
type fixedFile struct {
	name     string
	old, new []byte
}

// applyAll reads each file the set edits and applies its edits. A file
// whose result does not parse is left alone, with an error: the fixes are
// emitted to compile, so that means the file changed under the run.
func (s *fixSet) applyAll() ([]fixedFile, []error) {
	var out []fixedFile
	var errs []error
	for _, name := range s.sortedFiles() {
		old, err := os.ReadFile(name)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		fixed, err := apply(old, s.files[name])
		if err == nil && strings.HasSuffix(name, ".go") {
			_, err = parser.ParseFile(token.NewFileSet(), name, fixed, parser.SkipObjectResolution)
			if err != nil {
				err = fmt.Errorf("the fixed file would not parse, so it is left as it is: %v", err)
			}
		}
		if err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", name, err))
			continue
		}
		out = append(out, fixedFile{name: name, old: old, new: fixed})
	}
	return out, errs
}

// writeDiff writes the change from f.old to f.new as a unified diff with
// three lines of context, named by path.
func writeDiff(w io.Writer, path string, f fixedFile) error {
	a, b := splitLines(f.old), splitLines(f.new)
	ops := diffLines(a, b)
	var buf bytes.Buffer
	fmt.Fprintf(&buf, "--- a/%s\n+++ b/%s\n", path, path)
	for _, h := range hunks(ops, 3) {
		fmt.Fprintf(&buf, "@@ -%s +%s @@\n", hunkRange(h.aStart, h.aLen), hunkRange(h.bStart, h.bLen))
		for _, op := range h.ops {
			line := op.line
			buf.WriteByte(op.kind)
			buf.WriteString(line)
			if !strings.HasSuffix(line, "\n") {
				buf.WriteString("\n\\ No newline at end of file\n")
			}
		}
	}
	_, err := w.Write(buf.Bytes())
	return err
}

// hunkRange formats a hunk's start and length as unified diffs do: the
// line before the hunk when it is empty, and no length when it is 1.
func hunkRange(start, n int) string {
	switch n {
	case 0:
		return fmt.Sprintf("%d,0", start)
	case 1:
		return fmt.Sprint(start + 1)
	}
	return fmt.Sprintf("%d,%d", start+1, n)
}

// splitLines splits text after each newline; the last line may have none.
func splitLines(text []byte) []string {
	var lines []string
	for len(text) > 0 {
		i := bytes.IndexByte(text, '\n')
		if i < 0 {
			lines = append(lines, string(text))
			break
		}
		lines = append(lines, string(text[:i+1]))
		text = text[i+1:]
	}
	return lines
}

// diffOp is a line of a diff: ' ' kept, '-' removed, '+' added.
type diffOp struct {
	kind byte
	line string
}

// diffLines returns a shortest edit script from a to b. The lines both
// share at the start and the end are kept without a search, so the
// quadratic part covers only the region the fixes changed.
func diffLines(a, b []string) []diffOp {
	pre := 0
	for pre < len(a) && pre < len(b) && a[pre] == b[pre] {
		pre++
	}
	suf := 0
	for suf < len(a)-pre && suf < len(b)-pre && a[len(a)-1-suf] == b[len(b)-1-suf] {
		suf++
	}
	var ops []diffOp
	for _, l := range a[:pre] {
		ops = append(ops, diffOp{' ', l})
	}
	ops = append(ops, lcsDiff(a[pre:len(a)-suf], b[pre:len(b)-suf])...)
	for _, l := range a[len(a)-suf:] {
		ops = append(ops, diffOp{' ', l})
	}
	return ops
}

// lcsDiff diffs a and b by their longest common subsequence; past a size
// where the table would be large it replaces a by b outright, which is
// still a correct diff.
func lcsDiff(a, b []string) []diffOp {
	var ops []diffOp
	if len(a)*len(b) > 4_000_000 {
		for _, l := range a {
			ops = append(ops, diffOp{'-', l})
		}
		for _, l := range b {
			ops = append(ops, diffOp{'+', l})
		}
		return ops
	}
	// common[i][j] is the length of the LCS of a[i:] and b[j:].
	common := make([][]int, len(a)+1)
	for i := range common {
		common[i] = make([]int, len(b)+1)
	}
	for i := len(a) - 1; i >= 0; i-- {
		for j := len(b) - 1; j >= 0; j-- {
			if a[i] == b[j] {
				common[i][j] = common[i+1][j+1] + 1
			} else {
				common[i][j] = max(common[i+1][j], common[i][j+1])
			}
		}
	}
	i, j := 0, 0
	for i < len(a) || j < len(b) {
		switch {
		case i < len(a) && j < len(b) && a[i] == b[j]:
			ops = append(ops, diffOp{' ', a[i]})
			i, j = i+1, j+1
		case i < len(a) && (j == len(b) || common[i+1][j] >= common[i][j+1]):
			ops = append(ops, diffOp{'-', a[i]})
			i++
		default:
			ops = append(ops, diffOp{'+', b[j]})
			j++
		}
	}
	return ops
}

// hunk is a run of a diff's operations with its place in both files
// (0-based first lines, and line counts).
type hunk struct {
	aStart, aLen, bStart, bLen int
	ops                        []diffOp
}

// hunks groups the changes of ops into hunks with up to context kept
// lines around each; changes closer than twice that share a hunk.
func hunks(ops []diffOp, context int) []hunk {
	var out []hunk
	var changed []int
	for i, op := range ops {
		if op.kind != ' ' {
			changed = append(changed, i)
		}
	}
	for k := 0; k < len(changed); {
		from := max(changed[k]-context, 0)
		end := k
		for end+1 < len(changed) && changed[end+1]-changed[end] <= 2*context {
			end++
		}
		to := min(changed[end]+context+1, len(ops))
		h := hunk{ops: ops[from:to]}
		for _, op := range ops[:from] {
			if op.kind != '+' {
				h.aStart++
			}
			if op.kind != '-' {
				h.bStart++
			}
		}
		for _, op := range h.ops {
			if op.kind != '+' {
				h.aLen++
			}
			if op.kind != '-' {
				h.bLen++
			}
		}
		out = append(out, h)
		k = end + 1
	}
	return out
}
