package ctxdrop

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/printer"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/resilvet/resilvet/internal/analysisutil"
	"github.com/resilvet/resilvet/internal/ctxverdict"
	"github.com/resilvet/resilvet/internal/knowledge"
)

// fixer builds suggested fixes. Every edit it emits leaves the file
// gofmt-clean as is, because gopls applies edits verbatim, unlike the
// -fix drivers, which reformat.
type fixer struct {
	pass    *analysis.Pass
	pkgUses map[*types.PkgName]int // uses of each imported package name
	sources map[string][]byte
}

func newFixer(pass *analysis.Pass) *fixer {
	return &fixer{pass: pass, sources: map[string][]byte{}}
}

// replaceRoot replaces a context.Background() call with the context in
// scope, removing the context import if that was its last use.
func (f *fixer) replaceRoot(root *ast.CallExpr, sc *ctxverdict.Scope, rootText string) (analysis.SuggestedFix, bool) {
	if !f.visible(sc, root.Pos()) || f.translated(root.Pos()) {
		return analysis.SuggestedFix{}, false
	}
	edits := []analysis.TextEdit{{Pos: root.Pos(), End: root.End(), NewText: []byte(sc.Expr)}}
	if sel, ok := ast.Unparen(root.Fun).(*ast.SelectorExpr); ok {
		if id, ok := sel.X.(*ast.Ident); ok {
			if pn, ok := f.pass.TypesInfo.Uses[id].(*types.PkgName); ok && f.usesOf(pn) == 1 {
				if e, ok := f.deleteImport(pn, root.Pos()); ok {
					edits = append(edits, e)
				}
			}
		}
	}
	return analysis.SuggestedFix{
		Message:   fmt.Sprintf("Pass %s instead of %s", sc.Expr, rootText),
		TextEdits: edits,
	}, true
}

// callTwin rewrites a call to its context-taking twin.
func (f *fixer) callTwin(call *ast.CallExpr, twin knowledge.Twin, sc *ctxverdict.Scope) (analysis.SuggestedFix, bool) {
	if twin.Rewrite == knowledge.NoRewrite || !f.visible(sc, call.Pos()) || f.translated(call.Pos()) || call.Ellipsis.IsValid() && twin.Rewrite != knowledge.RenameInsertCtx {
		return analysis.SuggestedFix{}, false
	}
	if len(call.Args) == 1 {
		if _, ok := f.pass.TypesInfo.TypeOf(call.Args[0]).(*types.Tuple); ok {
			return analysis.SuggestedFix{}, false // f(g()) with multi-value g
		}
	}
	var edits []analysis.TextEdit
	var qual string // the package qualifier as written, for net rewrites
	switch fun := ast.Unparen(call.Fun).(type) {
	case *ast.SelectorExpr:
		if id, ok := fun.X.(*ast.Ident); ok {
			if _, ok := f.pass.TypesInfo.Uses[id].(*types.PkgName); ok {
				qual = id.Name
			}
		}
		if twin.Method != "" {
			edits = append(edits, analysis.TextEdit{Pos: fun.Sel.Pos(), End: fun.Sel.End(), NewText: []byte(twin.Method)})
		}
	case *ast.Ident:
		if twin.Rewrite != knowledge.RenameInsertCtx {
			return analysis.SuggestedFix{}, false // dot import: no qualifier to build on
		}
		edits = append(edits, analysis.TextEdit{Pos: fun.Pos(), End: fun.End(), NewText: []byte(twin.Method)})
	default:
		return analysis.SuggestedFix{}, false
	}
	lead := sc.Expr
	switch twin.Rewrite {
	case knowledge.RenameInsertCtxAppendNil:
		if len(call.Args) != 0 {
			return analysis.SuggestedFix{}, false
		}
		lead += ", nil"
	case knowledge.NetDialer:
		if qual == "" {
			return analysis.SuggestedFix{}, false
		}
		dialer := "(&" + qual + ".Dialer{})"
		if len(call.Args) == 3 {
			dialer = "(&" + qual + ".Dialer{Timeout: " + f.text(call.Args[2]) + "})"
			edits = append(edits, analysis.TextEdit{Pos: call.Args[1].End(), End: call.Args[2].End()})
		} else if len(call.Args) != 2 {
			return analysis.SuggestedFix{}, false
		}
		edits = append(edits, analysis.TextEdit{Pos: call.Fun.Pos(), End: call.Fun.End(), NewText: []byte(dialer + ".DialContext")})
	case knowledge.DefaultResolver:
		if qual == "" {
			return analysis.SuggestedFix{}, false
		}
		edits = []analysis.TextEdit{{Pos: call.Fun.Pos(), End: call.Fun.End(), NewText: []byte(qual + ".DefaultResolver." + twin.Method)}}
		if twin.Extra != "" {
			lead += ", " + twin.Extra
		}
	}
	edits = append(edits, f.insertFirstArg(call, lead))
	return analysis.SuggestedFix{
		Message:   fmt.Sprintf("Call %s with %s", twin.Display, sc.Expr),
		TextEdits: edits,
	}, true
}

// insertFirstArg inserts text as the first argument of call, keeping the
// layout gofmt-clean when the arguments start on their own line.
func (f *fixer) insertFirstArg(call *ast.CallExpr, text string) analysis.TextEdit {
	if len(call.Args) == 0 {
		return analysis.TextEdit{Pos: call.Rparen, End: call.Rparen, NewText: []byte(text)}
	}
	first := call.Args[0]
	fset := f.pass.Fset
	if fset.Position(call.Lparen).Line == fset.Position(first.Pos()).Line {
		return analysis.TextEdit{Pos: first.Pos(), End: first.Pos(), NewText: []byte(text + ", ")}
	}
	return analysis.TextEdit{Pos: first.Pos(), End: first.Pos(), NewText: []byte(text + ",\n" + f.indent(first.Pos()))}
}

// translated reports whether pos is in a file that maps to another by
// //line directives (cgo's translated copies): edits would land in the
// copy, not in the user's file, so no fix is offered there.
func (f *fixer) translated(pos token.Pos) bool {
	return f.pass.Fset.Position(pos).Filename != f.pass.Fset.File(pos).Name()
}

// visible reports whether the context variable is the one its name refers
// to at pos, so the fix does not pick up a shadowing declaration.
func (f *fixer) visible(sc *ctxverdict.Scope, pos token.Pos) bool {
	scope := f.pass.Pkg.Scope().Innermost(pos)
	if scope == nil {
		return false
	}
	_, obj := scope.LookupParent(sc.Var.Name(), pos)
	return obj == sc.Var
}

// usesOf counts the uses of an imported package name in the package.
func (f *fixer) usesOf(pn *types.PkgName) int {
	if f.pkgUses == nil {
		f.pkgUses = map[*types.PkgName]int{}
		for _, obj := range f.pass.TypesInfo.Uses {
			if p, ok := obj.(*types.PkgName); ok {
				f.pkgUses[p]++
			}
		}
	}
	return f.pkgUses[pn]
}

// deleteImport returns the edit removing the import of pn from the file
// containing pos: the spec's whole line inside an import group, or the
// whole declaration when it is the only spec.
func (f *fixer) deleteImport(pn *types.PkgName, pos token.Pos) (analysis.TextEdit, bool) {
	var file *ast.File
	for _, fl := range f.pass.Files {
		if fl.FileStart <= pos && pos < fl.FileEnd {
			file = fl
		}
	}
	if file == nil {
		return analysis.TextEdit{}, false
	}
	tf := f.pass.Fset.File(pos)
	for _, d := range file.Decls {
		gd, ok := d.(*ast.GenDecl)
		if !ok || gd.Tok != token.IMPORT {
			continue
		}
		for _, spec := range gd.Specs {
			is := spec.(*ast.ImportSpec)
			if f.pass.TypesInfo.Implicits[is] != pn && f.pass.TypesInfo.Defs[is.Name] != pn {
				continue
			}
			if is.Doc != nil || is.Comment != nil {
				return analysis.TextEdit{}, false
			}
			if len(gd.Specs) == 1 {
				start, end := lineSpan(tf, gd.Pos(), gd.End())
				return analysis.TextEdit{Pos: start, End: end}, true
			}
			if !gd.Lparen.IsValid() || tf.Line(is.Pos()) == tf.Line(gd.Lparen) || tf.Line(is.End()) == tf.Line(gd.Rparen) {
				return analysis.TextEdit{}, false
			}
			for _, other := range gd.Specs {
				if other != spec && (tf.Line(other.Pos()) == tf.Line(is.Pos()) || tf.Line(other.End()) == tf.Line(is.Pos())) {
					return analysis.TextEdit{}, false // shares its line
				}
			}
			start, end := lineSpan(tf, is.Pos(), is.End())
			return analysis.TextEdit{Pos: start, End: end}, true
		}
	}
	return analysis.TextEdit{}, false
}

// lineSpan extends [pos, end) to whole lines, including the newline.
func lineSpan(tf *token.File, pos, end token.Pos) (token.Pos, token.Pos) {
	start := tf.LineStart(tf.Line(pos))
	last := tf.Line(end)
	if last < tf.LineCount() {
		return start, tf.LineStart(last + 1)
	}
	return start, token.Pos(tf.Base() + tf.Size())
}

// text renders an expression as source.
func (f *fixer) text(e ast.Expr) string {
	if src := f.source(e.Pos()); src != nil {
		tf := f.pass.Fset.File(e.Pos())
		return string(src[tf.Offset(e.Pos()):tf.Offset(e.End())])
	}
	var b bytes.Buffer
	printer.Fprint(&b, f.pass.Fset, e)
	return b.String()
}

// indent returns the whitespace that starts the line holding pos.
func (f *fixer) indent(pos token.Pos) string {
	src := f.source(pos)
	tf := f.pass.Fset.File(pos)
	if src == nil {
		return "\t"
	}
	line := src[tf.Offset(tf.LineStart(tf.Line(pos))):tf.Offset(pos)]
	return string(line[:len(line)-len(bytes.TrimLeft(line, " \t"))])
}

func (f *fixer) source(pos token.Pos) []byte {
	name := f.pass.Fset.File(pos).Name()
	if src, ok := f.sources[name]; ok {
		return src
	}
	src, err := analysisutil.ReadFile(f.pass, name)
	if err != nil || strings.HasSuffix(name, ".go") && len(src) != f.pass.Fset.File(pos).Size() {
		src = nil // not the file we parsed (cgo, overlays): print instead
	}
	f.sources[name] = src
	return src
}
