package resilvettest

import (
	"bytes"
	"fmt"
	"go/format"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/analysistest"
	"golang.org/x/tools/go/packages"
)

// CheckFixes checks the results of analysistest.RunWithSuggestedFixes on
// GOPATH-mode packages under dir/src beyond its golden comparison (which
// formats both sides and so cannot see layout): every suggested fix
//   - leaves its file gofmt-clean exactly as emitted, since gopls applies
//     edits verbatim, and
//   - compiles: each file with its first fixes applied type-checks.
//
// It returns the fixed sources by file name. With RESILVET_UPDATE_GOLDEN=1
// in the environment it also writes them, formatted, as the .golden files
// that analysistest.RunWithSuggestedFixes compares against; review the
// diff before committing.
func CheckFixes(t *testing.T, dir string, results []*analysistest.Result) map[string][]byte {
	t.Helper()
	fixed := map[string][]byte{}
	for _, r := range results {
		perFile := map[string][]analysis.TextEdit{}
		for _, d := range r.Diagnostics {
			for i, fix := range d.SuggestedFixes {
				byFile := map[string][]analysis.TextEdit{}
				for _, e := range fix.TextEdits {
					name := r.Pass.Fset.File(e.Pos).Name()
					byFile[name] = append(byFile[name], e)
				}
				for name, edits := range byFile {
					src, err := os.ReadFile(name)
					if err != nil {
						t.Fatal(err)
					}
					out, err := apply(r.Pass, src, edits)
					if err != nil {
						t.Errorf("%s: fix %q: %v", name, fix.Message, err)
						continue
					}
					if f, err := format.Source(out); err != nil {
						t.Errorf("%s: fix %q produces unparsable code: %v\n%s", name, fix.Message, err, out)
					} else if !bytes.Equal(alignFree(f), alignFree(out)) {
						t.Errorf("%s: fix %q is not gofmt-clean as emitted:\n%s", name, fix.Message, diffLines(f, out))
					}
					if i == 0 {
						perFile[name] = append(perFile[name], edits...)
					}
				}
			}
		}
		for name, edits := range perFile {
			src, _ := os.ReadFile(name)
			out, err := apply(r.Pass, src, dedupe(edits))
			if err != nil {
				t.Errorf("%s: combined fixes: %v", name, err)
				continue
			}
			fixed[name] = out
		}
	}
	typecheck(t, dir, fixed)
	if os.Getenv("RESILVET_UPDATE_GOLDEN") != "" {
		for name, out := range fixed {
			if f, err := format.Source(out); err == nil {
				out = f
			}
			if err := os.WriteFile(name+".golden", out, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	return fixed
}

func dedupe(edits []analysis.TextEdit) []analysis.TextEdit {
	var out []analysis.TextEdit
	for _, e := range edits {
		if !slices.ContainsFunc(out, func(o analysis.TextEdit) bool {
			return o.Pos == e.Pos && o.End == e.End && bytes.Equal(o.NewText, e.NewText)
		}) {
			out = append(out, e)
		}
	}
	return out
}

// apply applies non-overlapping edits to src.
func apply(pass *analysis.Pass, src []byte, edits []analysis.TextEdit) ([]byte, error) {
	edits = slices.Clone(edits)
	slices.SortStableFunc(edits, func(a, b analysis.TextEdit) int { return int(a.Pos - b.Pos) })
	var out bytes.Buffer
	last := 0
	for _, e := range edits {
		tf := pass.Fset.File(e.Pos)
		end := e.End
		if !end.IsValid() {
			end = e.Pos
		}
		start, stop := tf.Offset(e.Pos), tf.Offset(end)
		if start < last {
			return nil, fmt.Errorf("overlapping edits at offset %d", start)
		}
		out.Write(src[last:start])
		out.Write(e.NewText)
		last = stop
	}
	out.Write(src[last:])
	return out.Bytes(), nil
}

// typecheck loads the packages holding the fixed files, with the fixes as
// an overlay, and reports any compile error.
func typecheck(t *testing.T, dir string, fixed map[string][]byte) {
	t.Helper()
	if len(fixed) == 0 {
		return
	}
	if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
		// A module: its packages, in module mode.
		typecheckPatterns(t, dir, fixed, []string{"./..."}, append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod"))
		return
	}
	var patterns []string
	for name := range fixed {
		rel, err := filepath.Rel(filepath.Join(dir, "src"), filepath.Dir(name))
		if err != nil {
			t.Fatal(err)
		}
		patterns = append(patterns, filepath.ToSlash(rel))
	}
	slices.Sort(patterns)
	patterns = slices.Compact(patterns)
	typecheckPatterns(t, dir, fixed, patterns, append(os.Environ(), "GOPATH="+dir, "GO111MODULE=off", "GOWORK=off", "GOFLAGS="))
}

// typecheckPatterns loads the packages with the fixes as an overlay and
// reports any compile error.
func typecheckPatterns(t *testing.T, dir string, fixed map[string][]byte, patterns, env []string) {
	t.Helper()
	cfg := &packages.Config{
		// The fixed packages from source, their dependencies from export
		// data: type-checking std from source would be most of the cost.
		Mode:    packages.NeedName | packages.NeedTypes | packages.NeedSyntax | packages.NeedTypesInfo | packages.NeedImports,
		Dir:     dir,
		Env:     env,
		Overlay: fixed,
	}
	loaded, err := packages.Load(cfg, patterns...)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range loaded {
		for _, e := range p.Errors {
			t.Errorf("fixed code does not compile: %s", e.Error())
		}
	}
}

// trailingComment matches the padding gofmt puts before aligned trailing
// comments. A fix that changes a line's length shifts the alignment of the
// comments around it (the fixtures' // want comments); that is gofmt's
// cosmetic business, so the check ignores it and nothing else.
var trailingComment = regexp.MustCompile(`[ \t]+//`)

func alignFree(src []byte) []byte {
	return trailingComment.ReplaceAll(src, []byte(" //"))
}

func diffLines(want, got []byte) string {
	wl, gl := strings.Split(string(want), "\n"), strings.Split(string(got), "\n")
	var b strings.Builder
	for i := 0; i < len(wl) || i < len(gl); i++ {
		var w, g string
		if i < len(wl) {
			w = wl[i]
		}
		if i < len(gl) {
			g = gl[i]
		}
		if w != g {
			fmt.Fprintf(&b, "line %d:\n  gofmt: %q\n  fix:   %q\n", i+1, w, g)
		}
	}
	return b.String()
}
