// Package fixedit holds what the analyzers' suggested fixes share: the
// source around a position, lines and their indentation, and imports
// added where gofmt keeps them. Every edit built with it leaves the file
// gofmt-clean as emitted (gopls applies edits verbatim).
package fixedit

import (
	"go/ast"
	"go/token"
	"sort"
	"strconv"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/resilvet/resilvet/internal/analysisutil"
)

// RuntimeModule is the import path prefix of resilvet's runtime packages.
const RuntimeModule = "github.com/resilvet/resilvet/runtime"

// Editor reads a package's source for fixes.
type Editor struct {
	Pass *analysis.Pass
}

// RuntimeReachable reports whether the package imports, directly or not,
// a package of the resilvet runtime: its module then requires the runtime,
// and an import of runtime/deadline compiles.
func (e *Editor) RuntimeReachable() bool {
	return analysisutil.FindImport(e.Pass.Pkg, func(path string) bool { return strings.HasPrefix(path, RuntimeModule) }) != nil
}

// ImportName returns the name under which file imports path, and the
// path again when the file does not import it yet. It fails when the name
// would clash with another identifier visible at pos.
func (e *Editor) ImportName(file *ast.File, path string, pos token.Pos) (string, []string, bool) {
	name := path[strings.LastIndex(path, "/")+1:]
	for _, is := range file.Imports {
		p, _ := strconv.Unquote(is.Path.Value)
		if p != path {
			continue
		}
		if is.Name != nil {
			if is.Name.Name == "_" || is.Name.Name == "." {
				return "", nil, false
			}
			return is.Name.Name, nil, true
		}
		return name, nil, true
	}
	if scope := e.Pass.TypesInfo.Scopes[file]; scope != nil {
		if scope.Lookup(name) != nil {
			return "", nil, false
		}
		if inner := scope.Innermost(pos); inner != nil {
			if _, obj := inner.LookupParent(name, pos); obj != nil {
				return "", nil, false
			}
		}
	}
	if e.Pass.Pkg.Scope().Lookup(name) != nil {
		return "", nil, false
	}
	return name, []string{path}, true
}

// ImportEdits returns the edits adding paths to the file's imports, each
// in the run gofmt keeps it sorted in: with the standard library or with
// the module paths.
func (e *Editor) ImportEdits(file *ast.File, paths []string) ([]analysis.TextEdit, bool) {
	if len(paths) == 0 {
		return nil, true
	}
	var group *ast.GenDecl
	for _, decl := range file.Decls {
		if gd, ok := decl.(*ast.GenDecl); ok && gd.Tok == token.IMPORT {
			if gd.Lparen.IsValid() {
				group = gd
				break
			}
			if group == nil {
				group = gd
			}
		}
	}
	if group == nil || !group.Lparen.IsValid() {
		// No import group: write one with every spec.
		var specs []string
		pos, end := file.Name.End(), file.Name.End()
		prefix := "\n\n"
		if group != nil {
			if len(group.Specs) != 1 || group.Doc != nil {
				return nil, false
			}
			is := group.Specs[0].(*ast.ImportSpec)
			if is.Comment != nil {
				return nil, false
			}
			specs = append(specs, e.Text(is))
			pos, end, prefix = group.Pos(), group.End(), ""
		}
		for _, p := range paths {
			specs = append(specs, strconv.Quote(p))
		}
		return []analysis.TextEdit{{Pos: pos, End: end, NewText: []byte(prefix + importBlock(specs))}}, true
	}
	// Runs of specs separated by blank lines; gofmt sorts within a run.
	var runs [][]*ast.ImportSpec
	prevLine := -1
	for _, s := range group.Specs {
		is := s.(*ast.ImportSpec)
		if is.Doc != nil || is.Comment != nil {
			return nil, false
		}
		line := e.Line(is.Pos())
		if prevLine < 0 || line > prevLine+1 {
			runs = append(runs, nil)
		}
		runs[len(runs)-1] = append(runs[len(runs)-1], is)
		prevLine = line
	}
	var edits []analysis.TextEdit
	// One edit per import, in order: two fixes that both add "time"
	// make the same edit, which drivers apply once.
	insert := func(at token.Pos, text string) {
		edits = append(edits, analysis.TextEdit{Pos: at, End: at, NewText: []byte(text)})
	}
	for _, path := range paths {
		quoted := strconv.Quote(path)
		std := isStdPath(path)
		if len(runs) == 0 {
			insert(group.Lparen+1, "\n\t"+quoted)
			continue
		}
		var run []*ast.ImportSpec
		for _, r := range runs {
			allStd := true
			for _, is := range r {
				allStd = allStd && isStdSpec(is)
			}
			if allStd == std && (run == nil || !std) {
				run = r
			}
		}
		switch {
		case run == nil && std:
			insert(e.LineStart(runs[0][0].Pos()), "\t"+quoted+"\n\n")
		case run == nil:
			insert(group.Specs[len(group.Specs)-1].End(), "\n\n\t"+quoted)
		default:
			placed := false
			for _, is := range run {
				if importPath(is.Path.Value) > path {
					insert(e.LineStart(is.Pos()), "\t"+quoted+"\n")
					placed = true
					break
				}
			}
			if !placed {
				insert(run[len(run)-1].End(), "\n\t"+quoted)
			}
		}
	}
	return edits, true
}

// importBlock formats an import declaration of the specs: the standard
// library first, then a blank line and the module paths, each run sorted.
func importBlock(specs []string) string {
	var std, mod []string
	for _, s := range specs {
		if isStdPath(importPath(s)) {
			std = append(std, s)
		} else {
			mod = append(mod, s)
		}
	}
	byPath := func(ss []string) {
		sort.Slice(ss, func(i, j int) bool { return importPath(ss[i]) < importPath(ss[j]) })
	}
	byPath(std)
	byPath(mod)
	if len(specs) == 1 {
		return "import " + specs[0]
	}
	var b strings.Builder
	b.WriteString("import (\n")
	for _, s := range std {
		b.WriteString("\t" + s + "\n")
	}
	if len(std) > 0 && len(mod) > 0 {
		b.WriteString("\n")
	}
	for _, s := range mod {
		b.WriteString("\t" + s + "\n")
	}
	b.WriteString(")")
	return b.String()
}

func isStdPath(p string) bool { return !strings.Contains(strings.Split(p, "/")[0], ".") }

func importPath(spec string) string {
	i := strings.Index(spec, `"`)
	if i < 0 {
		return spec
	}
	p, _ := strconv.Unquote(spec[i:])
	return p
}

func isStdSpec(is *ast.ImportSpec) bool {
	p, _ := strconv.Unquote(is.Path.Value)
	return isStdPath(p)
}

func HasComments(file *ast.File, n ast.Node) bool {
	for _, cg := range file.Comments {
		if cg.Pos() >= n.Pos() && cg.End() <= n.End() {
			return true
		}
	}
	return false
}

func (e *Editor) HasComment(n ast.Node) bool {
	file := e.File(n.Pos())
	return file != nil && HasComments(file, n)
}

func (e *Editor) File(pos token.Pos) *ast.File {
	for _, file := range e.Pass.Files {
		if file.FileStart <= pos && pos <= file.FileEnd {
			return file
		}
	}
	return nil
}

func (e *Editor) Line(pos token.Pos) int { return e.Pass.Fset.Position(pos).Line }

func (e *Editor) LineStart(pos token.Pos) token.Pos {
	tf := e.Pass.Fset.File(pos)
	return tf.LineStart(tf.Line(pos))
}

// Indent returns the whitespace before pos on its line.
func (e *Editor) Indent(pos token.Pos) string {
	src := e.Source(pos)
	tf := e.Pass.Fset.File(pos)
	start := tf.Offset(e.LineStart(pos))
	end := tf.Offset(pos)
	if src == nil || end > len(src) {
		return "\t"
	}
	s := string(src[start:end])
	if strings.TrimLeft(s, " \t") != "" {
		return "\t"
	}
	return s
}

func (e *Editor) Text(n ast.Node) string {
	src := e.Source(n.Pos())
	tf := e.Pass.Fset.File(n.Pos())
	if src == nil {
		return ""
	}
	return string(src[tf.Offset(n.Pos()):tf.Offset(n.End())])
}

func (e *Editor) Source(pos token.Pos) []byte {
	tf := e.Pass.Fset.File(pos)
	if tf == nil {
		return nil
	}
	b, err := analysisutil.ReadFile(e.Pass, tf.Name())
	if err != nil {
		return nil
	}
	return b
}
