package ctxverdict

import (
	"go/ast"
	"go/types"
	"slices"

	"golang.org/x/tools/go/ast/edge"
	"golang.org/x/tools/go/ast/inspector"

	"github.com/resilvet/resilvet/internal/analysisutil"
	"github.com/resilvet/resilvet/internal/knowledge"
)

// plainCallWithCtx returns the callee of a call that takes no context,
// made where a context is in scope, and that context.
func (j *judge) plainCallWithCtx(cur inspector.Cursor, call *ast.CallExpr) (*types.Func, *Scope, bool) {
	callee := analysisutil.CalleeFunc(j.pass.TypesInfo, call)
	if callee == nil {
		return nil, nil, false
	}
	sig, ok := callee.Type().(*types.Signature)
	if !ok || analysisutil.TakesContext(sig) {
		return nil, nil, false
	}
	owner, ok := enclosingFunc(cur)
	if !ok {
		return nil, nil, false
	}
	sc := j.ctxOf(owner)
	return callee, sc, sc != nil && !j.hijacked(sc, call)
}

// twinOf returns the context-taking twin of callee: from the knowledge
// table, else by the naming rule (M and MContext or MWithContext with the
// same parameters after a leading context and the same results).
func (j *judge) twinOf(call *ast.CallExpr, callee *types.Func) (knowledge.Twin, bool) {
	if t, ok := knowledge.TwinOf(callee.FullName()); ok {
		return t, true
	}
	fn, recv := j.instantiated(call)
	if fn == nil {
		return knowledge.Twin{}, false
	}
	for _, suffix := range []string{"Context", "WithContext"} {
		tname := fn.Name() + suffix
		tfn := analysisutil.Beside(fn, recv, j.pass.Pkg, tname)
		// An alternative that keeps its context for later (go-oidc's
		// VerifierContext) wants a long-lived one, not the request's.
		if tfn == nil || knowledge.IsValueOnlyContextSink(tfn.Origin().FullName()) || knowledge.RetainsContext(tfn.Origin().FullName()) || !isTwinSignature(fn, tfn) {
			continue
		}
		// Found by name, not in the table: only a context that bounds
		// outbound work or a wait makes the alternative worth its
		// context (a process-info or resource-detection variant reads
		// local state). The standard library has no facts; its
		// name-found alternatives (net.Dialer.DialContext) do I/O.
		if !analysisutil.IsStdPath(tfn.Pkg().Path()) {
			if s := j.sum.Of(tfn); s == nil || !slices.Contains(s.CtxIO, 0) {
				continue
			}
			// And the plain function is the variant without a context
			// only if it waits or makes its own context: a getter that
			// returns at once beside a variant that waits for the value
			// (PrimaryInfo, PrimaryInfoWithContext) is not, and the swap
			// would make the caller wait.
			if s := j.sum.Of(fn); s == nil || !s.Waits && s.DropsCtx == nil {
				continue
			}
		}
		if recv != nil && !j.receiverFits(recv, fn, tfn) {
			return knowledge.Twin{Name: tfn.FullName(), Display: tname}, true
		}
		return knowledge.Twin{Name: tfn.FullName(), Display: tname, Method: tname, Rewrite: knowledge.RenameInsertCtx}, true
	}
	return knowledge.Twin{}, false
}

// instantiated returns the called function as seen at the call (methods of
// instantiated generic types keep their instantiated signature) and, for
// method calls, the receiver expression's type.
func (j *judge) instantiated(call *ast.CallExpr) (*types.Func, types.Type) {
	switch f := ast.Unparen(call.Fun).(type) {
	case *ast.SelectorExpr:
		if sel, ok := j.pass.TypesInfo.Selections[f]; ok {
			if sel.Kind() != types.MethodVal {
				return nil, nil // method expressions: T.M(recv, …)
			}
			fn, _ := sel.Obj().(*types.Func)
			return fn, sel.Recv()
		}
		fn, _ := j.pass.TypesInfo.Uses[f.Sel].(*types.Func)
		if fn != nil && fn.Type().(*types.Signature).TypeParams().Len() > 0 {
			return nil, nil
		}
		return fn, nil
	case *ast.Ident:
		fn, _ := j.pass.TypesInfo.Uses[f].(*types.Func)
		if fn != nil && fn.Type().(*types.Signature).TypeParams().Len() > 0 {
			return nil, nil
		}
		return fn, nil
	}
	return nil, nil
}

// receiverFits reports whether renaming the method keeps the call valid:
// a twin with a pointer receiver needs an addressable or pointer operand,
// which the original call guarantees only if it had one too.
func (j *judge) receiverFits(recv types.Type, fn, twin *types.Func) bool {
	if _, ok := recv.Underlying().(*types.Pointer); ok {
		return true
	}
	return ptrRecv(twin) == ptrRecv(fn) || !ptrRecv(twin)
}

func ptrRecv(fn *types.Func) bool {
	r := fn.Type().(*types.Signature).Recv()
	if r == nil {
		return false
	}
	_, ok := r.Type().(*types.Pointer)
	return ok
}

// isTwinSignature reports whether twin's parameters are a context followed
// by fn's parameters, with identical results.
func isTwinSignature(fn, twin *types.Func) bool {
	s, t := fn.Type().(*types.Signature), twin.Type().(*types.Signature)
	if t.Params().Len() != s.Params().Len()+1 || !analysisutil.IsContext(t.Params().At(0).Type()) || s.Variadic() != t.Variadic() {
		return false
	}
	for i := range s.Params().Len() {
		if !types.Identical(s.Params().At(i).Type(), t.Params().At(i+1).Type()) {
			return false
		}
	}
	if s.Results().Len() != t.Results().Len() {
		return false
	}
	for i := range s.Results().Len() {
		if !types.Identical(s.Results().At(i).Type(), t.Results().At(i).Type()) {
			return false
		}
	}
	return true
}

// twinVerdict decides rule 2 for a call of a function that has a
// context-taking twin, made where sc is in scope.
func (j *judge) twinVerdict(cur inspector.Cursor, call *ast.CallExpr, twin knowledge.Twin, sc *Scope) bool {
	owner, _ := enclosingFunc(cur)
	// The twin's own implementation may call the plain function
	// (exec.CommandContext calls Command, then sets the context).
	if callee := analysisutil.CalleeFunc(j.pass.TypesInfo, call); callee != nil && j.sum.LocalWork(callee) {
		return false // db.Query on an in-process database
	}
	if j.setUp(call) || j.localDial(call) || j.deadlineCopied(cur, call) {
		return false
	}
	if twin.Bounded && j.takesDuration(call) && !j.servesRequest(owner, sc) {
		// net.DialTimeout(n, a, 5*time.Second) where the context in scope
		// is not a request's: the author chose a bound for the call, as
		// with a root bounded where it is made; only cancellation is
		// lost.
		return false
	}
	return !j.isCleanup(cur, owner) && !j.insideFunc(cur, twin.Name) && !attachedAtOnce(cur) && !j.ctxAppliedLater(cur, owner, sc) && !j.receiverCarriesCtx(call, owner, sc) && !j.workGetsCtx(call) && !j.processOutlives(cur, owner)
}

// insideFunc reports whether the call at cur is in the body of the named
// function (closures included).
func (j *judge) insideFunc(cur inspector.Cursor, fullName string) bool {
	for e := range cur.Enclosing((*ast.FuncDecl)(nil)) {
		fn, ok := j.pass.TypesInfo.Defs[e.Node().(*ast.FuncDecl).Name].(*types.Func)
		return ok && fn.FullName() == fullName
	}
	return false
}

// attachedAtOnce reports whether the call's result gets a context in the
// same expression: httptest.NewRequest(…).WithContext(ctx).
func attachedAtOnce(cur inspector.Cursor) bool {
	if cur.ParentEdgeKind() != edge.SelectorExpr_X {
		return false
	}
	sel := cur.Parent().Node().(*ast.SelectorExpr)
	if sel.Sel.Name != "WithContext" && sel.Sel.Name != "Clone" {
		return false
	}
	return cur.Parent().ParentEdgeKind() == edge.CallExpr_Fun
}
