package ctxverdict

import (
	"go/ast"
	"go/types"

	"golang.org/x/tools/go/ast/edge"
	"golang.org/x/tools/go/ast/inspector"

	"github.com/resilvet/resilvet/internal/analysisutil"
	"github.com/resilvet/resilvet/internal/knowledge"
)

// ctxOf returns the context a function can pass on: its first named
// context.Context parameter, else its first named *http.Request parameter
// (as r.Context()), else, for a closure, a context or request it captures
// from an enclosing function that has one. A function whose context
// parameter is blank or unnamed ignores it on purpose and gets nil.
func (j *judge) ctxOf(fn inspector.Cursor) *Scope {
	n := fn.Node()
	if sc, ok := j.scope[n]; ok {
		return sc
	}
	sc := j.computeCtxOf(fn)
	j.scope[n] = sc
	return sc
}

func (j *judge) computeCtxOf(fn inspector.Cursor) *Scope {
	ftype := analysisutil.FuncType(fn.Node())
	hasOwn := false
	for _, want := range []func(types.Type) bool{analysisutil.IsContext, analysisutil.IsHTTPRequestPtr, analysisutil.ImplementsContext} {
		for _, f := range ftype.Params.List {
			if !want(j.pass.TypesInfo.TypeOf(f.Type)) {
				continue
			}
			hasOwn = true
			for _, id := range f.Names {
				if v, ok := j.pass.TypesInfo.Defs[id].(*types.Var); ok && id.Name != "_" {
					if analysisutil.IsHTTPRequestPtr(v.Type()) && j.buildsOutgoing(fn, ftype, v) {
						return nil
					}
					if j.sum.RootParam(v) {
						continue // every caller passes a root: nothing to drop
					}
					return newScope(v)
				}
			}
		}
	}
	lit, ok := fn.Node().(*ast.FuncLit)
	if hasOwn || !ok {
		return nil
	}
	// A closure has the context it captures.
	var found *Scope
	for cur := range fn.Preorder((*ast.Ident)(nil)) {
		v, ok := j.pass.TypesInfo.Uses[cur.Node().(*ast.Ident)].(*types.Var)
		if !ok || v.IsField() || v.Pkg() == nil || v.Parent() == v.Pkg().Scope() || lit.Pos() <= v.Pos() && v.Pos() < lit.End() {
			continue
		}
		isCtx := analysisutil.IsContext(v.Type())
		if !isCtx && !analysisutil.IsHTTPRequestPtr(v.Type()) {
			continue
		}
		if !j.capturedIsRequestScoped(fn, v) || isCtx && (j.onlyWatched(cur) || j.sum.RootParam(v)) {
			continue
		}
		if isCtx {
			return newScope(v)
		}
		if found == nil {
			found = newScope(v)
		}
	}
	if found == nil {
		if outer, ok := j.joinedGoroutine(fn); ok {
			// The function waits for this goroutine: its work is the
			// function's, and so is the context in scope there.
			return j.ctxOf(outer)
		}
	}
	return found
}

// joinedGoroutine reports whether the closure at fn runs as a goroutine
// that the function making it waits for (go func() { defer wg.Done(); … }()
// before wg.Wait(), wg.Go(func() { … }), or g.Go(func() error { … })
// before g.Wait()), and returns that function.
func (j *judge) joinedGoroutine(fn inspector.Cursor) (inspector.Cursor, bool) {
	var outer inspector.Cursor
	found := false
	for e := range fn.Parent().Enclosing((*ast.FuncDecl)(nil), (*ast.FuncLit)(nil)) {
		outer, found = e, true
		break
	}
	if !found {
		return outer, false
	}
	call, ok := fn.Parent().Node().(*ast.CallExpr)
	if !ok {
		return outer, false
	}
	started := false
	switch {
	case call.Fun == fn.Node():
		_, started = fn.Parent().Parent().Node().(*ast.GoStmt)
	case len(call.Args) == 1 && call.Args[0] == fn.Node():
		callee := analysisutil.CalleeFunc(j.pass.TypesInfo, call)
		started = callee != nil && knowledge.StartsGroupGoroutine(callee.FullName())
	}
	if !started {
		return outer, false
	}
	for cur := range outer.Preorder((*ast.CallExpr)(nil)) {
		if callee := analysisutil.CalleeFunc(j.pass.TypesInfo, cur.Node().(*ast.CallExpr)); callee != nil && knowledge.JoinsGoroutines(callee.FullName()) {
			return outer, true
		}
	}
	return outer, false
}

// buildsOutgoing reports whether the *http.Request parameter v of the
// function at fn is an outgoing request being built, not the caller's:
// the function serves no response (no http.ResponseWriter parameter),
// sets headers, credentials or cookies on it, and never reads its
// context. Such a request's context is whatever its builder gave it
// (http.NewRequest's is context.Background()), so it is no caller context.
func (j *judge) buildsOutgoing(fn inspector.Cursor, ftype *ast.FuncType, v *types.Var) bool {
	for _, f := range ftype.Params.List {
		if t, ok := types.Unalias(j.pass.TypesInfo.TypeOf(f.Type)).(*types.Named); ok && t.Obj().Pkg() != nil && t.Obj().Pkg().Path() == "net/http" && t.Obj().Name() == "ResponseWriter" {
			return false
		}
	}
	writes, readsCtx := false, false
	for cur := range fn.Preorder((*ast.CallExpr)(nil)) {
		sel, ok := ast.Unparen(cur.Node().(*ast.CallExpr).Fun).(*ast.SelectorExpr)
		if !ok {
			continue
		}
		// r.Context(), r.SetBasicAuth(…), r.AddCookie(…) on v; and
		// r.Header.Set(…), r.Header.Add(…) through its Header field.
		recv := ast.Unparen(sel.X)
		if inner, ok := recv.(*ast.SelectorExpr); ok && inner.Sel.Name == "Header" {
			recv = ast.Unparen(inner.X)
			if id, ok := recv.(*ast.Ident); ok && j.pass.TypesInfo.Uses[id] == v && (sel.Sel.Name == "Set" || sel.Sel.Name == "Add" || sel.Sel.Name == "Del") {
				writes = true
			}
			continue
		}
		id, ok := recv.(*ast.Ident)
		if !ok || j.pass.TypesInfo.Uses[id] != v {
			continue
		}
		switch sel.Sel.Name {
		case "Context":
			readsCtx = true
		case "SetBasicAuth", "AddCookie":
			writes = true
		}
	}
	return writes && !readsCtx
}

// onlyWatched reports whether the captured context at cur is used only
// as a lifetime signal (ctx.Done(), ctx.Err()) or to detach from it
// (context.WithoutCancel(ctx)): a goroutine that watches
// the caller's context to know when to stop runs background work on its own
// schedule, and its calls are not the caller's request. The closure still
// has the context if any other use of it appears.
func (j *judge) onlyWatched(cur inspector.Cursor) bool {
	obj := j.pass.TypesInfo.Uses[cur.Node().(*ast.Ident)]
	lit, _ := enclosingFunc(cur)
	for u := range lit.Preorder((*ast.Ident)(nil)) {
		if j.pass.TypesInfo.Uses[u.Node().(*ast.Ident)] != obj {
			continue
		}
		if u.ParentEdgeKind() == edge.CallExpr_Args {
			// context.WithoutCancel(ctx): the closure detaches on purpose.
			if fn := analysisutil.CalleeFunc(j.pass.TypesInfo, u.Parent().Node().(*ast.CallExpr)); fn != nil && fn.FullName() == "context.WithoutCancel" {
				continue
			}
			return false
		}
		sel, ok := u.Parent().Node().(*ast.SelectorExpr)
		if !ok || u.ParentEdgeKind() != edge.SelectorExpr_X || sel.Sel.Name != "Done" && sel.Sel.Name != "Err" {
			return false
		}
	}
	return true
}

// capturedIsRequestScoped reports whether a variable captured by the
// closure at fn is a parameter of an enclosing function, or a local of an
// enclosing function that itself has a context (so the local derives from
// the request rather than from a root context of main).
func (j *judge) capturedIsRequestScoped(fn inspector.Cursor, v *types.Var) bool {
	for e := range fn.Parent().Enclosing((*ast.FuncDecl)(nil), (*ast.FuncLit)(nil)) {
		n := e.Node()
		if v.Pos() < n.Pos() || v.Pos() >= n.End() {
			continue
		}
		if ftype := analysisutil.FuncType(n); ftype.Pos() <= v.Pos() && v.Pos() < ftype.End() {
			return true // a parameter
		}
		return j.ctxOf(e) != nil
	}
	return false
}

func newScope(v *types.Var) *Scope {
	if analysisutil.IsHTTPRequestPtr(v.Type()) {
		return &Scope{Var: v, Expr: v.Name() + ".Context()"}
	}
	return &Scope{Var: v, Expr: v.Name()}
}

// servesRequest reports whether the context in scope is an HTTP
// request's: the function, or one it is inside, is handed an
// *http.Request.
func (j *judge) servesRequest(owner inspector.Cursor, sc *Scope) bool {
	if analysisutil.IsHTTPRequestPtr(sc.Var.Type()) {
		return true
	}
	for e := range owner.Enclosing((*ast.FuncDecl)(nil), (*ast.FuncLit)(nil)) {
		var ft *ast.FuncType
		switch n := e.Node().(type) {
		case *ast.FuncDecl:
			ft = n.Type
		case *ast.FuncLit:
			ft = n.Type
		}
		for _, f := range ft.Params.List {
			if analysisutil.IsHTTPRequestPtr(j.pass.TypesInfo.TypeOf(f.Type)) {
				return true
			}
		}
	}
	return false
}

// hijacked reports whether the context in scope is a served request's
// and call runs after the handler took the connection over (Hijack, a
// websocket upgrade): the request's context then ends when the handler
// returns, not when the client goes away, so passing it would change
// nothing; what has no deadline there is notimeout's.
func (j *judge) hijacked(sc *Scope, call *ast.CallExpr) bool {
	return analysisutil.IsHTTPRequestPtr(sc.Var.Type()) && j.sum.AfterHijack(call.Lparen)
}

func enclosingFunc(cur inspector.Cursor) (inspector.Cursor, bool) {
	for e := range cur.Enclosing((*ast.FuncDecl)(nil), (*ast.FuncLit)(nil)) {
		return e, true
	}
	return inspector.Cursor{}, false
}
