package analysisutil

import (
	"strings"

	"golang.org/x/tools/go/analysis"
)

// Doc is the documentation of an analyzer in one place: the first line of
// Render's output is the title that `resilvet help` lists.
type Doc struct {
	Title   string // one line, lowercase, what the analyzer reports
	Text    string // why it matters and what is and is not reported
	Example string // code that is reported
	Fix     string // how to fix it; what the suggested fix does
}

// Render formats d as an analysis.Analyzer Doc string.
func (d Doc) Render() string {
	var b strings.Builder
	b.WriteString(d.Title)
	b.WriteString("\n\n")
	b.WriteString(strings.TrimSpace(d.Text))
	if d.Example != "" {
		b.WriteString("\n\nExample:\n\n")
		b.WriteString(indent(strings.TrimSpace(d.Example)))
	}
	if d.Fix != "" {
		b.WriteString("\n\nFix:\n\n")
		b.WriteString(strings.TrimSpace(d.Fix))
	}
	return b.String()
}

func indent(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		if l != "" {
			lines[i] = "\t" + l
		}
	}
	return strings.Join(lines, "\n")
}

// URL returns the documentation page of the named analyzer.
func URL(name string) string { return DocsURL + name + ".md" }

// Imports reports whether the package imports any of paths, directly.
// Analyzers use it as a fast path: a package that imports neither context
// nor any outbound API has nothing to report.
func Imports(pass *analysis.Pass, paths ...string) bool {
	for _, imp := range pass.Pkg.Imports() {
		for _, p := range paths {
			if imp.Path() == p {
				return true
			}
		}
	}
	return false
}
