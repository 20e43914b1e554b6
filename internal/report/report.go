// Package report is the single way resilvet analyzers emit diagnostics.
// It fills in Category and URL, and drops findings that the user has
// silenced with a //resilvet:ignore directive, that sit in generated
// files, or that sit in _test.go files when tests are excluded.
//
// Directive grammar:
//
//	//resilvet:ignore ctxdrop[,notimeout] reason why the finding is wrong or deliberate
//
// A directive on the line of a finding or on the line just above it
// silences that line; one in a function's doc comment silences the whole
// function. A directive without a reason silences nothing and is itself
// reported, so suppressions stay reviewable.
package report

import (
	"go/ast"
	"go/token"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/resilvet/resilvet/internal/analysisutil"
)

const directivePrefix = "//resilvet:ignore"

// Reporter reports the findings of one analyzer in one pass.
type Reporter struct {
	pass         *analysis.Pass
	analyzer     string
	includeTests bool
	files        map[*token.File]*fileInfo
}

type fileInfo struct {
	generated bool
	test      bool
	lines     map[int]bool // lines silenced by a line directive
	funcs     []span       // function bodies silenced by a doc directive
}

type span struct{ from, to token.Pos }

// New returns a Reporter for the named analyzer. It reports malformed
// directives that name the analyzer right away.
func New(pass *analysis.Pass, analyzer string, includeTests bool) *Reporter {
	r := &Reporter{pass: pass, analyzer: analyzer, includeTests: includeTests, files: map[*token.File]*fileInfo{}}
	for _, f := range pass.Files {
		tf := pass.Fset.File(f.FileStart)
		if tf == nil {
			continue
		}
		r.files[tf] = r.scan(f, tf)
	}
	return r
}

// Report emits d unless it is silenced. Category and URL are filled in
// when empty.
func (r *Reporter) Report(d analysis.Diagnostic) {
	if r.Silenced(d.Pos) {
		return
	}
	if d.Category == "" {
		d.Category = r.analyzer
	}
	if d.URL == "" {
		d.URL = analysisutil.URL(r.analyzer)
	}
	r.pass.Report(d)
}

// Silenced reports whether a finding at pos would be dropped.
func (r *Reporter) Silenced(pos token.Pos) bool {
	tf := r.pass.Fset.File(pos)
	fi := r.files[tf]
	if fi == nil {
		return false
	}
	if fi.generated || fi.test && !r.includeTests {
		return true
	}
	if fi.lines[tf.Line(pos)] {
		return true
	}
	for _, s := range fi.funcs {
		if s.from <= pos && pos < s.to {
			return true
		}
	}
	return false
}

func (r *Reporter) scan(f *ast.File, tf *token.File) *fileInfo {
	fi := &fileInfo{
		generated: ast.IsGenerated(f),
		test:      strings.HasSuffix(tf.Name(), "_test.go"),
		lines:     map[int]bool{},
	}
	docOf := map[*ast.CommentGroup]*ast.FuncDecl{}
	for _, d := range f.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok && fd.Doc != nil {
			docOf[fd.Doc] = fd
		}
	}
	for _, cg := range f.Comments {
		for _, c := range cg.List {
			names, reason, ok := parseDirective(c.Text)
			if !ok || !names[r.analyzer] {
				continue
			}
			if reason == "" {
				if !(fi.generated || fi.test && !r.includeTests) {
					r.pass.Report(analysis.Diagnostic{
						Pos:      c.Pos(),
						End:      c.End(),
						Category: "directive",
						URL:      analysisutil.URL(r.analyzer),
						Message:  "resilvet:ignore directive has no reason, so it silences nothing; say why the " + r.analyzer + " finding is wrong or deliberate",
					})
				}
				continue
			}
			if fd := docOf[cg]; fd != nil {
				fi.funcs = append(fi.funcs, span{fd.Pos(), fd.End()})
				continue
			}
			line := tf.Line(c.Pos())
			fi.lines[line] = true
			fi.lines[line+1] = true
		}
	}
	return fi
}

// parseDirective splits "//resilvet:ignore a,b reason..." into the set of
// analyzer names and the reason.
func parseDirective(text string) (names map[string]bool, reason string, ok bool) {
	rest, found := strings.CutPrefix(text, directivePrefix)
	if !found || rest != "" && rest[0] != ' ' && rest[0] != '\t' {
		return nil, "", false
	}
	// Text after a nested "//" comments on the directive itself.
	rest, _, _ = strings.Cut(rest, "//")
	fields := strings.Fields(rest)
	if len(fields) == 0 {
		return nil, "", false
	}
	names = map[string]bool{}
	for _, n := range strings.Split(fields[0], ",") {
		if n != "" {
			names[n] = true
		}
	}
	return names, strings.Join(fields[1:], " "), true
}
