package ctxverdict

import (
	"go/ast"
	"go/types"

	"golang.org/x/tools/go/ast/edge"
	"golang.org/x/tools/go/ast/inspector"

	"github.com/resilvet/resilvet/internal/analysisutil"
)

// ctxAppliedLater reports whether the result of the call at cur is later
// handed, together with the context in scope, to another call: the
// context then reaches the work by another path, as in
//
//	req, _ := http.NewRequest(…); req = req.WithContext(ctx)
//	cmd := exec.Command(…); runWithContext(ctx, cmd)
func (j *judge) ctxAppliedLater(cur, owner inspector.Cursor, sc *Scope) bool {
	// Only deferred work can have the context applied later: a request
	// or a command built now and sent later. A call that does its I/O now
	// (u, _ := j.LoadUser(id); stmt, _ := db.Prepare(q)) has already
	// ignored the context by the time its result meets it.
	if !analysisutil.IsDeferredWork(j.pass.TypesInfo.TypeOf(cur.Node().(*ast.CallExpr))) {
		return false
	}
	if _, ok := cur.Parent().Node().(*ast.ReturnStmt); ok {
		// return http.NewRequest(…): built and returned unsent.
		return analysisutil.IsHTTPRequestPtr(sc.Var.Type())
	}
	result := j.resultVar(cur)
	if result == nil {
		return false
	}
	if analysisutil.IsHTTPRequestPtr(sc.Var.Type()) && j.returnedUnsent(owner, result) {
		return true
	}
	// The result may be kept in a field first (s.req = req) and sent
	// later from there (s.client.Do(s.req.WithContext(ctx))).
	holders := map[types.Object]bool{result: true}
	for a := range owner.Preorder((*ast.AssignStmt)(nil)) {
		as := a.Node().(*ast.AssignStmt)
		for i, r := range as.Rhs {
			if id, ok := ast.Unparen(r).(*ast.Ident); ok && j.pass.TypesInfo.Uses[id] == result && i < len(as.Lhs) {
				if sel, ok := as.Lhs[i].(*ast.SelectorExpr); ok {
					if s, ok := j.pass.TypesInfo.Selections[sel]; ok && s.Kind() == types.FieldVal {
						holders[s.Obj()] = true
					}
				}
			}
		}
	}
	for other := range owner.Preorder((*ast.CallExpr)(nil)) {
		call := other.Node().(*ast.CallExpr)
		if call.Pos() < cur.Node().End() {
			continue
		}
		usesResult, usesCtx := false, false
		ast.Inspect(call, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.Ident:
				obj := j.pass.TypesInfo.Uses[n]
				switch {
				case holders[obj]:
					usesResult = true
				case obj == sc.Var:
					usesCtx = true
				case obj != nil && analysisutil.IsContext(obj.Type()) && obj.Pos() > owner.Node().Pos():
					// A context derived from the one in scope
					// (ctx, span := tracer.Start(ctx, …)).
					usesCtx = true
				}
			case *ast.SelectorExpr:
				if s, ok := j.pass.TypesInfo.Selections[n]; ok && holders[s.Obj()] {
					usesResult = true
				}
			}
			return true
		})
		if usesResult && usesCtx {
			return true
		}
	}
	return false
}

// returnedUnsent reports whether the function returns the deferred work
// it built (a request, a command) and hands it to no call. Where the
// context in scope is an incoming request's, that is a copy of the
// request for another destination (a proxy cloning it for a shadow
// backend) whose caller attaches the context it wants or sends it
// detached on purpose; where the caller sends it with no deadline,
// notimeout reports the send. A builder that ignores a context
// parameter is still reported.
func (j *judge) returnedUnsent(owner inspector.Cursor, result *types.Var) bool {
	returned := false
	for r := range owner.Preorder((*ast.ReturnStmt)(nil), (*ast.CallExpr)(nil)) {
		if fn, ok := enclosingFunc(r); !ok || fn.Node() != owner.Node() {
			continue
		}
		switch n := r.Node().(type) {
		case *ast.ReturnStmt:
			for _, e := range n.Results {
				if id, ok := ast.Unparen(e).(*ast.Ident); ok && j.pass.TypesInfo.Uses[id] == result {
					returned = true
				}
			}
		case *ast.CallExpr:
			for _, a := range n.Args {
				if id, ok := ast.Unparen(a).(*ast.Ident); ok && j.pass.TypesInfo.Uses[id] == result {
					return false
				}
			}
		}
	}
	return returned
}

// receiverCarriesCtx reports whether the method's receiver is a local
// variable made by a call that was given the context in scope
// (f := p.submit(ctx, cmd); f.Wait()): the work already carries the
// context, and the plain method only waits for it.
func (j *judge) receiverCarriesCtx(call *ast.CallExpr, owner inspector.Cursor, sc *Scope) bool {
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok {
		return false
	}
	// database/sql documents that a Tx's context only rolls it back and
	// PrepareContext's bounds only the preparation: tx.Exec and
	// stmt.Query run with context.Background() whatever made them.
	if t := j.pass.TypesInfo.TypeOf(sel.X); t != nil && analysisutil.IsSQLTxOrStmt(t) {
		return false
	}
	id, ok := ast.Unparen(sel.X).(*ast.Ident)
	if !ok {
		return false
	}
	v, ok := j.pass.TypesInfo.Uses[id].(*types.Var)
	if !ok {
		return false
	}
	for cur := range owner.Preorder((*ast.AssignStmt)(nil)) {
		as := cur.Node().(*ast.AssignStmt)
		if len(as.Rhs) != 1 || len(as.Lhs) == 0 {
			continue
		}
		lid, ok := as.Lhs[0].(*ast.Ident)
		if !ok || j.pass.TypesInfo.ObjectOf(lid) != v {
			continue
		}
		made, ok := ast.Unparen(as.Rhs[0]).(*ast.CallExpr)
		if !ok {
			continue
		}
		for _, a := range made.Args {
			if j.mentions(a, sc.Var) {
				return true
			}
		}
	}
	return false
}

// mentions reports whether the expression refers to obj.
func (j *judge) mentions(e ast.Expr, obj types.Object) bool {
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && j.pass.TypesInfo.Uses[id] == obj {
			found = true
		}
		return !found
	})
	return found
}

// workGetsCtx reports whether a func literal passed to the call captures
// a context of the enclosing function: the work the plain function runs
// (graceful.Graceful(func() error { return w.Run(ctx) }, …)) has the
// caller's context already, and the variant's would govern only the
// wrapper's own wait.
func (j *judge) workGetsCtx(call *ast.CallExpr) bool {
	for _, a := range call.Args {
		lit, ok := ast.Unparen(a).(*ast.FuncLit)
		if !ok {
			continue
		}
		found := false
		ast.Inspect(lit.Body, func(n ast.Node) bool {
			id, ok := n.(*ast.Ident)
			if !ok || found {
				return !found
			}
			if v, ok := j.pass.TypesInfo.Uses[id].(*types.Var); ok && !v.IsField() && (v.Pos() < lit.Pos() || v.Pos() >= lit.End()) && analysisutil.IsContext(v.Type()) {
				found = true
			}
			return true
		})
		if found {
			return true
		}
	}
	return false
}

// processOutlives reports whether the call at cur makes an *exec.Cmd
// that its function starts and does not wait for: the process is meant
// to outlive the call (a browser kept open, a daemon), and
// exec.CommandContext would kill it when the context ends. A command run
// to completion (Run, Output, CombinedOutput, or Start then Wait in the
// function itself, not in a goroutine) is the caller's work and keeps
// the finding.
func (j *judge) processOutlives(cur, owner inspector.Cursor) bool {
	if !isExecCmd(j.pass.TypesInfo.TypeOf(cur.Node().(*ast.CallExpr))) {
		return false
	}
	cmd := j.resultVar(cur)
	if cmd == nil {
		return false
	}
	started, completed := false, false
	for sel := range owner.Preorder((*ast.SelectorExpr)(nil)) {
		x, ok := sel.Node().(*ast.SelectorExpr)
		if !ok || sel.ParentEdgeKind() != edge.CallExpr_Fun {
			continue
		}
		if id, ok := ast.Unparen(x.X).(*ast.Ident); !ok || j.pass.TypesInfo.Uses[id] != cmd {
			continue
		}
		switch x.Sel.Name {
		case "Start":
			started = true
		case "Run", "Output", "CombinedOutput", "Wait":
			// Waited for in a closure or a go statement (a goroutine
			// reaping it) is not waited for by the function.
			if fn, _ := enclosingFunc(sel); fn == owner && sel.Parent().ParentEdgeKind() != edge.GoStmt_Call {
				completed = true
			}
		}
	}
	return started && !completed
}

// isExecCmd reports whether t is *os/exec.Cmd.
func isExecCmd(t types.Type) bool {
	ptr, ok := t.(*types.Pointer)
	if !ok {
		return false
	}
	named, ok := ptr.Elem().(*types.Named)
	return ok && named.Obj().Pkg() != nil && named.Obj().Pkg().Path() == "os/exec" && named.Obj().Name() == "Cmd"
}

// resultVar returns the variable the call at cur assigns its first result
// to (x, err := f(); var x = f()), or nil: the value whose later uses
// decide rule 2 (the context applied later, a process waited for).
func (j *judge) resultVar(cur inspector.Cursor) *types.Var {
	var v types.Object
	switch as := cur.Parent().Node().(type) {
	case *ast.AssignStmt:
		if cur.ParentEdgeKind() == edge.AssignStmt_Rhs && len(as.Rhs) == 1 && len(as.Lhs) > 0 {
			if id, ok := as.Lhs[0].(*ast.Ident); ok {
				v = j.pass.TypesInfo.ObjectOf(id)
			}
		}
	case *ast.ValueSpec:
		if len(as.Values) == 1 && len(as.Names) > 0 {
			v = j.pass.TypesInfo.Defs[as.Names[0]]
		}
	}
	result, _ := v.(*types.Var)
	return result
}
