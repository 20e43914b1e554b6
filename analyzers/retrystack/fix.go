package retrystack

import (
	"bytes"
	"go/ast"
	"go/printer"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/analysis"

	"github.com/resilvet/resilvet/internal/analysisutil"
	"github.com/resilvet/resilvet/internal/fixedit"
)

// sleepFix rewrites a retry loop's time.Sleep(d), or <-time.After(d), to
// a wait that ends when the context is done:
//
//	select {
//	case <-ctx.Done():
//	case <-time.After(d):
//	}
//
// The loop then goes on to its next attempt, which fails at once with
// the context's error; so the fix is offered only where the loop ends by
// itself (a count, or a look at the context), not where it would then
// spin (the ctxerr category). It needs a context the function can name
// at the sleep: its own parameter, or one a closure captures.
func sleepFix(ed *fixedit.Editor, pos token.Pos) []analysis.SuggestedFix {
	file := ed.File(pos)
	if file == nil {
		return nil
	}
	stmt, timePkg, delay := sleepStmt(file, pos)
	if stmt == nil {
		return nil
	}
	ctx := contextNamed(ed.Pass, file, stmt.Pos())
	if ctx == "" {
		return nil
	}
	indent := ed.Indent(stmt.Pos())
	var d bytes.Buffer
	if err := printer.Fprint(&d, ed.Pass.Fset, delay); err != nil {
		return nil
	}
	text := "select {\n" +
		indent + "case <-" + ctx + ".Done():\n" +
		indent + "case <-" + timePkg + ".After(" + d.String() + "):\n" +
		indent + "}"
	return []analysis.SuggestedFix{{
		Message:   "wait for " + ctx + ".Done() or the delay, whichever comes first",
		TextEdits: []analysis.TextEdit{{Pos: stmt.Pos(), End: stmt.End(), NewText: []byte(text)}},
	}}
}

// sleepStmt finds the statement time.Sleep(d) whose call's opening
// parenthesis is at pos, or <-time.After(d) whose arrow is at pos, and
// returns it with the name the file gives package time and d.
func sleepStmt(file *ast.File, pos token.Pos) (*ast.ExprStmt, string, ast.Expr) {
	var found *ast.ExprStmt
	var pkg string
	var delay ast.Expr
	ast.Inspect(file, func(n ast.Node) bool {
		if found != nil || n == nil || n.Pos() > pos || n.End() < pos {
			return found == nil
		}
		st, ok := n.(*ast.ExprStmt)
		if !ok {
			return true
		}
		var call *ast.CallExpr
		switch x := ast.Unparen(st.X).(type) {
		case *ast.CallExpr:
			if x.Lparen == pos && selectorOf(x, "Sleep") != "" {
				call = x
			}
		case *ast.UnaryExpr:
			if c, ok := ast.Unparen(x.X).(*ast.CallExpr); ok && x.Op == token.ARROW && x.OpPos == pos && selectorOf(c, "After") != "" {
				call = c
			}
		}
		if call != nil && len(call.Args) == 1 {
			found, pkg, delay = st, selectorOf(call, ""), call.Args[0]
		}
		return found == nil
	})
	return found, pkg, delay
}

// selectorOf returns X of a call X.name(…) (any name when name is "").
func selectorOf(call *ast.CallExpr, name string) string {
	sel, ok := call.Fun.(*ast.SelectorExpr)
	if !ok || name != "" && sel.Sel.Name != name {
		return ""
	}
	id, ok := sel.X.(*ast.Ident)
	if !ok {
		return ""
	}
	return id.Name
}

// contextNamed returns the name of a context parameter of the function
// around pos, or of a function a closure there is written in, that pos
// sees under that name.
func contextNamed(pass *analysis.Pass, file *ast.File, pos token.Pos) string {
	var types_ []*ast.FuncType
	ast.Inspect(file, func(n ast.Node) bool {
		if n == nil || n.Pos() > pos || n.End() < pos {
			return false
		}
		switch f := n.(type) {
		case *ast.FuncDecl:
			types_ = append(types_, f.Type)
		case *ast.FuncLit:
			types_ = append(types_, f.Type)
		}
		return true
	})
	scope := pass.Pkg.Scope().Innermost(pos)
	for i := len(types_) - 1; i >= 0; i-- {
		for _, field := range types_[i].Params.List {
			for _, name := range field.Names {
				obj, ok := pass.TypesInfo.Defs[name].(*types.Var)
				if !ok || name.Name == "_" || !analysisutil.IsContext(obj.Type()) {
					continue
				}
				if scope != nil {
					if _, seen := scope.LookupParent(name.Name, pos); seen != obj {
						continue // shadowed
					}
				}
				return name.Name
			}
		}
	}
	return ""
}
