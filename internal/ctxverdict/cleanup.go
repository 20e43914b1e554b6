package ctxverdict

import (
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ast/edge"
	"golang.org/x/tools/go/ast/inspector"

	"github.com/resilvet/resilvet/internal/analysisutil"
)

// isCleanup reports whether code at cur runs after the context in scope is
// done, where a fresh context is the right choice: inside a deferred
// closure, inside a "case <-ctx.Done():" or "if ctx.Err() != nil" block, or
// after a statement that waits for <-ctx.Done().
func (j *judge) isCleanup(cur, owner inspector.Cursor) bool {
	for a := cur; a.Index() != owner.Index(); a = a.Parent() {
		if !a.Valid() {
			return false
		}
		switch n := a.Node().(type) {
		case *ast.FuncLit:
			if j.isDeferredLit(n) {
				return true
			}
		case *ast.CommClause:
			if j.waitsDone(n.Comm) {
				return true
			}
		case *ast.IfStmt:
			if a.ParentEdgeKind() != edge.IfStmt_Else && j.checksErr(n.Cond) && cur.Node().Pos() >= n.Body.Pos() && cur.Node().End() <= n.Body.End() {
				return true
			}
		}
		switch a.ParentEdgeKind() {
		case edge.BlockStmt_List, edge.CaseClause_Body, edge.CommClause_Body:
			for p, ok := a.PrevSibling(); ok; p, ok = p.PrevSibling() {
				if j.doneBefore(p.Node()) || j.loopEndsOnDone(p.Node()) {
					return true
				}
			}
		}
	}
	return false
}

// loopEndsOnDone reports whether the statement is a loop that ends when
// the context is done: a select case on ctx.Done() in its body breaks out
// of it (break with its label) or sets a variable its condition tests
// (for err == nil { select { case <-ctx.Done(): err = ctx.Err() } }).
// What follows it is the final flush or report, run after the context
// is done.
func (j *judge) loopEndsOnDone(n ast.Node) bool {
	var label string
	if ls, ok := n.(*ast.LabeledStmt); ok {
		label, n = ls.Label.Name, ls.Stmt
	}
	loop, ok := n.(*ast.ForStmt)
	if !ok {
		return false
	}
	condVars := map[types.Object]bool{}
	if loop.Cond != nil {
		ast.Inspect(loop.Cond, func(x ast.Node) bool {
			if id, ok := x.(*ast.Ident); ok {
				if obj := j.pass.TypesInfo.Uses[id]; obj != nil {
					condVars[obj] = true
				}
			}
			return true
		})
	}
	ends := false
	ast.Inspect(loop.Body, func(x ast.Node) bool {
		cl, ok := x.(*ast.CommClause)
		if !ok || ends {
			return !ends
		}
		if !j.waitsDone(cl.Comm) {
			return true
		}
		for _, st := range cl.Body {
			switch st := st.(type) {
			case *ast.BranchStmt:
				if st.Tok == token.BREAK && st.Label != nil && st.Label.Name == label && label != "" {
					ends = true
				}
			case *ast.AssignStmt:
				for _, l := range st.Lhs {
					if id, ok := l.(*ast.Ident); ok && condVars[j.pass.TypesInfo.ObjectOf(id)] {
						ends = true
					}
				}
			}
		}
		return !ends
	})
	return ends
}

// waitsDone reports whether the statement receives from ctx.Done() (as a
// statement, an assignment, or a select case).
func (j *judge) waitsDone(n ast.Node) bool {
	switch s := n.(type) {
	case *ast.ExprStmt:
		return j.isDoneRecv(s.X)
	case *ast.AssignStmt:
		return len(s.Rhs) == 1 && j.isDoneRecv(s.Rhs[0])
	case *ast.SelectStmt:
		for _, cc := range s.Body.List {
			if cl, ok := cc.(*ast.CommClause); ok && j.waitsDone(cl.Comm) {
				return true
			}
		}
	}
	return false
}

// doneBefore reports whether the statements after n run only once the
// context is done: n waits for <-ctx.Done(), or is a select whose
// ctx.Done() case carries on past it. A select whose Done case returns
// (select { case <-ctx.Done(): return; case <-tick.C: }) lets only its
// other cases through: what follows runs while the context is live.
func (j *judge) doneBefore(n ast.Node) bool {
	sel, ok := n.(*ast.SelectStmt)
	if !ok {
		return j.waitsDone(n)
	}
	for _, cc := range sel.Body.List {
		if cl, ok := cc.(*ast.CommClause); ok && j.waitsDone(cl.Comm) && !terminates(cl.Body) {
			return true
		}
	}
	return false
}

// terminates reports whether a select case's statements end by leaving
// the flow after the select: a return, a continue, a goto, a labelled
// break, or a panic.
func terminates(list []ast.Stmt) bool {
	if len(list) == 0 {
		return false
	}
	switch s := list[len(list)-1].(type) {
	case *ast.ReturnStmt:
		return true
	case *ast.BranchStmt:
		// A plain break leaves only the select: what follows it runs.
		return s.Tok != token.BREAK || s.Label != nil
	case *ast.ExprStmt:
		if call, ok := s.X.(*ast.CallExpr); ok {
			if id, ok := call.Fun.(*ast.Ident); ok && id.Name == "panic" {
				return true
			}
		}
	case *ast.BlockStmt:
		return terminates(s.List)
	}
	return false
}

func (j *judge) isDoneRecv(e ast.Expr) bool {
	u, ok := ast.Unparen(e).(*ast.UnaryExpr)
	if !ok || u.Op != token.ARROW {
		return false
	}
	return j.isCtxMethodCall(u.X, "Done")
}

// checksErr reports whether cond calls ctx.Err().
func (j *judge) checksErr(cond ast.Expr) bool {
	found := false
	ast.Inspect(cond, func(n ast.Node) bool {
		if e, ok := n.(ast.Expr); ok && j.isCtxMethodCall(e, "Err") {
			found = true
		}
		return !found
	})
	return found
}

func (j *judge) isCtxMethodCall(e ast.Expr, method string) bool {
	call, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok {
		return false
	}
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	return ok && sel.Sel.Name == method && analysisutil.IsContext(j.pass.TypesInfo.TypeOf(sel.X))
}

// isDeferredLit reports whether n is a function literal called by a defer
// statement.
func (j *judge) isDeferredLit(n ast.Node) bool {
	lit, ok := n.(*ast.FuncLit)
	return ok && j.deferred[lit]
}
