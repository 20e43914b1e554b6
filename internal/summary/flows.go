package summary

import (
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ast/edge"
	"golang.org/x/tools/go/ast/inspector"

	"github.com/resilvet/resilvet/internal/analysisutil"
	"github.com/resilvet/resilvet/internal/knowledge"
)

// RootUse is one call of a root-context constructor (context.Background
// or context.TODO) and the places its value, or a context derived from it,
// flows to.
type RootUse struct {
	Call  *ast.CallExpr
	Root  string   // "context.Background" or "context.TODO"
	Owner ast.Node // innermost *ast.FuncDecl or *ast.FuncLit containing Call
	Sinks []Sink   // in source order
}

// SinkKind says how a root context leaves the expression that made it.
type SinkKind int

const (
	// SinkCall: passed as a context.Context argument of a call that runs
	// now.
	SinkCall SinkKind = iota
	// SinkGo: passed to the function a go statement starts.
	SinkGo
	// SinkDefer: passed to a deferred call (cleanup; never reported).
	SinkDefer
	// SinkStore: stored in a struct field, map, slice, channel or
	// package variable, to be used later.
	SinkStore
)

// Sink is one place a root context flows to.
type Sink struct {
	Kind   SinkKind
	Node   ast.Node    // the call, composite literal, assignment or send
	Callee *types.Func // for calls with a static callee; nil otherwise
	// Owner is the innermost function containing Node; it differs from
	// the RootUse's Owner when the context is captured by a closure.
	Owner ast.Node
	// PreCancelled is set when the context reaching the sink was
	// cancelled before it: "ctx, cancel := context.WithCancel(bg);
	// cancel()" makes an already-done context on purpose (close now,
	// do not wait), which drops nothing.
	PreCancelled bool
}

// flowAnalysis finds root contexts in one function declaration (closures
// included) and follows them through local context variables. It is
// flow-insensitive and deliberately conservative: a variable counts as
// holding a root context only if every assignment to it does, so the
// common "if ctx == nil { ctx = context.Background() }" fallback is never
// mistaken for a dropped context.
type flowAnalysis struct {
	info    *types.Info
	decl    inspector.Cursor
	sources map[*types.Var][]ast.Expr // every value assigned to a local context variable
	opaque  map[*types.Var]bool       // assigned in a way we do not follow
	roots   map[*types.Var][]*ast.CallExpr
	// cancelOf maps a context variable to the cancel function returned
	// with it; cancelled records where each cancel function is called
	// outside a defer.
	cancelOf  map[*types.Var]*types.Var
	cancelled map[*types.Var][]token.Pos
}

// rootUses returns the root-context uses in the function declaration at
// decl, in source order.
func rootUses(info *types.Info, decl inspector.Cursor) []*RootUse {
	fa := &flowAnalysis{
		info:      info,
		decl:      decl,
		sources:   map[*types.Var][]ast.Expr{},
		opaque:    map[*types.Var]bool{},
		roots:     map[*types.Var][]*ast.CallExpr{},
		cancelOf:  map[*types.Var]*types.Var{},
		cancelled: map[*types.Var][]token.Pos{},
	}
	var calls []inspector.Cursor
	for cur := range decl.Preorder((*ast.CallExpr)(nil), (*ast.AssignStmt)(nil), (*ast.ValueSpec)(nil), (*ast.UnaryExpr)(nil), (*ast.RangeStmt)(nil), (*ast.FuncType)(nil)) {
		switch n := cur.Node().(type) {
		case *ast.CallExpr:
			if fn := analysisutil.CalleeFunc(info, n); fn != nil && knowledge.IsRootContext(fn.FullName()) {
				calls = append(calls, cur)
			}
			if id, ok := ast.Unparen(n.Fun).(*ast.Ident); ok && len(n.Args) == 0 && cur.ParentEdgeKind() == edge.ExprStmt_X {
				if v, ok := info.Uses[id].(*types.Var); ok {
					fa.cancelled[v] = append(fa.cancelled[v], n.Pos())
				}
			}
		case *ast.AssignStmt:
			fa.assign(n.Lhs, n.Rhs)
		case *ast.ValueSpec:
			lhs := make([]ast.Expr, len(n.Names))
			for i, id := range n.Names {
				lhs[i] = id
			}
			fa.assign(lhs, n.Values)
		case *ast.UnaryExpr:
			if v := fa.localCtxVar(n.X); v != nil && n.Op == token.AND {
				fa.opaque[v] = true
			}
		case *ast.FuncType:
			// Parameters and results receive values from elsewhere.
			for _, fl := range []*ast.FieldList{n.Params, n.Results} {
				if fl == nil {
					continue
				}
				for _, f := range fl.List {
					for _, id := range f.Names {
						if v := fa.localCtxVar(id); v != nil {
							fa.opaque[v] = true
						}
					}
				}
			}
		case *ast.RangeStmt:
			for _, e := range []ast.Expr{n.Key, n.Value} {
				if v := fa.localCtxVar(e); v != nil {
					fa.opaque[v] = true
				}
			}
		}
	}
	if len(calls) == 0 {
		return nil
	}
	fa.solve()

	uses := map[*ast.CallExpr]*RootUse{}
	var out []*RootUse
	for _, cur := range calls {
		call := cur.Node().(*ast.CallExpr)
		u := &RootUse{Call: call, Root: analysisutil.CalleeFunc(info, call).FullName(), Owner: enclosingFunc(cur)}
		uses[call] = u
		out = append(out, u)
	}
	// Every expression that may hold a root context: the root calls, calls
	// deriving from them, and idents of tainted variables.
	for cur := range decl.Preorder((*ast.CallExpr)(nil), (*ast.Ident)(nil)) {
		e := cur.Node().(ast.Expr)
		rs := fa.rootsOf(e)
		if len(rs) == 0 {
			continue
		}
		sink, ok := fa.sinkOf(cur)
		if !ok {
			continue
		}
		sink.PreCancelled = fa.preCancelled(e)
		for _, r := range rs {
			if u := uses[r]; u != nil {
				u.Sinks = append(u.Sinks, sink)
			}
		}
	}
	return out
}

// assign records lhs[i] = rhs[i] (or lhs... = rhs[0] for a tuple).
func (fa *flowAnalysis) assign(lhs, rhs []ast.Expr) {
	for i, l := range lhs {
		v := fa.localCtxVar(l)
		if v == nil {
			continue
		}
		switch {
		case len(rhs) == len(lhs):
			fa.sources[v] = append(fa.sources[v], rhs[i])
		case len(rhs) == 1 && i == 0:
			// ctx, cancel := context.WithTimeout(...): the context is the
			// first result of a deriving call.
			fa.sources[v] = append(fa.sources[v], rhs[0])
			if len(lhs) == 2 {
				if id, ok := ast.Unparen(lhs[1]).(*ast.Ident); ok {
					if c, ok := fa.info.ObjectOf(id).(*types.Var); ok {
						fa.cancelOf[v] = c
					}
				}
			}
		case len(rhs) == 0:
			// var ctx context.Context: no value yet.
		default:
			fa.opaque[v] = true
		}
	}
}

// localCtxVar returns the local context variable e names, if any.
func (fa *flowAnalysis) localCtxVar(e ast.Expr) *types.Var {
	id, ok := ast.Unparen(e).(*ast.Ident)
	if !ok {
		return nil
	}
	obj := fa.info.Defs[id]
	if obj == nil {
		obj = fa.info.Uses[id]
	}
	v, ok := obj.(*types.Var)
	if !ok || v.IsField() || !analysisutil.IsContext(v.Type()) {
		return nil
	}
	d := fa.decl.Node()
	if v.Pos() < d.Pos() || v.Pos() >= d.End() {
		return nil // package-level or declared elsewhere
	}
	return v
}

// solve computes which variables hold only root contexts (greatest fixed
// point: optimistic, then remove any variable with another source) and
// which root calls reach them (least fixed point).
func (fa *flowAnalysis) solve() {
	tainted := map[*types.Var]bool{}
	for v, srcs := range fa.sources {
		if !fa.opaque[v] && len(srcs) > 0 {
			tainted[v] = true
		}
	}
	for changed := true; changed; {
		changed = false
		for v := range tainted {
			for _, s := range fa.sources[v] {
				if !fa.mayBeRoot(s, tainted) {
					delete(tainted, v)
					changed = true
					break
				}
			}
		}
	}
	for changed := true; changed; {
		changed = false
		for v := range tainted {
			var rs []*ast.CallExpr
			for _, s := range fa.sources[v] {
				rs = appendUnique(rs, fa.rootsOf(s)...)
			}
			if len(rs) > len(fa.roots[v]) {
				fa.roots[v] = rs
				changed = true
			}
		}
	}
}

// mayBeRoot reports whether e holds a root context, assuming the tainted
// variables do.
func (fa *flowAnalysis) mayBeRoot(e ast.Expr, tainted map[*types.Var]bool) bool {
	switch e := ast.Unparen(e).(type) {
	case *ast.Ident:
		v, _ := fa.info.Uses[e].(*types.Var)
		return v != nil && tainted[v]
	case *ast.CallExpr:
		fn := analysisutil.CalleeFunc(fa.info, e)
		if fn != nil && knowledge.IsRootContext(fn.FullName()) {
			return true
		}
		if arg := fa.derivedFrom(e); arg != nil {
			return fa.mayBeRoot(arg, tainted)
		}
	}
	return false
}

// rootsOf returns the root calls whose context e holds.
func (fa *flowAnalysis) rootsOf(e ast.Expr) []*ast.CallExpr {
	switch e := ast.Unparen(e).(type) {
	case *ast.Ident:
		if v, ok := fa.info.Uses[e].(*types.Var); ok {
			return fa.roots[v]
		}
	case *ast.CallExpr:
		fn := analysisutil.CalleeFunc(fa.info, e)
		if fn != nil && knowledge.IsRootContext(fn.FullName()) {
			return []*ast.CallExpr{e}
		}
		if arg := fa.derivedFrom(e); arg != nil {
			return fa.rootsOf(arg)
		}
	}
	return nil
}

// derivedFrom returns the context argument a call derives its context
// result from (context.WithTimeout(parent, d) → parent), or nil when the
// call does not return a context.
func (fa *flowAnalysis) derivedFrom(call *ast.CallExpr) ast.Expr {
	sig, ok := signatureOf(fa.info, call)
	if !ok || !analysisutil.ReturnsContext(sig) {
		return nil
	}
	for _, a := range call.Args {
		if analysisutil.IsContext(fa.info.TypeOf(a)) {
			return a
		}
	}
	return nil
}

// sinkOf classifies the place the expression at cur flows to.
func (fa *flowAnalysis) sinkOf(cur inspector.Cursor) (Sink, bool) {
	// Look through parentheses to the real parent.
	for {
		p := cur.Parent()
		if _, ok := p.Node().(*ast.ParenExpr); !ok {
			break
		}
		cur = p
	}
	kind, idx := cur.ParentEdge()
	parent := cur.Parent()
	switch kind {
	case edge.CallExpr_Args:
		call := parent.Node().(*ast.CallExpr)
		if fa.derivedFrom(call) != nil {
			return Sink{}, false // a derivation, followed as an expression
		}
		if !fa.paramIsContext(call, idx) {
			return Sink{}, false
		}
		s := Sink{Kind: SinkCall, Node: call, Callee: analysisutil.CalleeFunc(fa.info, call), Owner: enclosingFunc(parent)}
		switch parent.ParentEdgeKind() {
		case edge.GoStmt_Call:
			s.Kind = SinkGo
		case edge.DeferStmt_Call:
			s.Kind = SinkDefer
		}
		return s, true
	case edge.KeyValueExpr_Value, edge.CompositeLit_Elts:
		lit := parent
		if kind == edge.KeyValueExpr_Value {
			lit = parent.Parent()
		}
		if _, ok := lit.Node().(*ast.CompositeLit); !ok {
			return Sink{}, false
		}
		return Sink{Kind: SinkStore, Node: lit.Node(), Owner: enclosingFunc(parent)}, true
	case edge.SendStmt_Value:
		return Sink{Kind: SinkStore, Node: parent.Node(), Owner: enclosingFunc(parent)}, true
	case edge.AssignStmt_Rhs:
		as := parent.Node().(*ast.AssignStmt)
		if len(as.Lhs) != len(as.Rhs) {
			return Sink{}, false
		}
		switch l := ast.Unparen(as.Lhs[idx]).(type) {
		case *ast.SelectorExpr, *ast.IndexExpr, *ast.StarExpr:
			return Sink{Kind: SinkStore, Node: as, Owner: enclosingFunc(parent)}, true
		case *ast.Ident:
			if v, ok := fa.info.Uses[l].(*types.Var); ok && v.Parent() == v.Pkg().Scope() {
				return Sink{Kind: SinkStore, Node: as, Owner: enclosingFunc(parent)}, true
			}
		}
	}
	return Sink{}, false
}

// preCancelled reports whether e names a context variable whose cancel
// function was called, outside a defer, before e.
func (fa *flowAnalysis) preCancelled(e ast.Expr) bool {
	id, ok := e.(*ast.Ident)
	if !ok {
		return false
	}
	v, ok := fa.info.Uses[id].(*types.Var)
	if !ok || fa.cancelOf[v] == nil {
		return false
	}
	for _, p := range fa.cancelled[fa.cancelOf[v]] {
		if p < id.Pos() {
			return true
		}
	}
	return false
}

// paramIsContext reports whether argument idx of call is received by a
// context.Context parameter (not, say, fmt.Println's any).
func (fa *flowAnalysis) paramIsContext(call *ast.CallExpr, idx int) bool {
	sig, ok := signatureOf(fa.info, call)
	if !ok {
		return false
	}
	n := sig.Params().Len()
	if n == 0 {
		return false
	}
	var t types.Type
	switch {
	case idx < n-1 || !sig.Variadic() && idx < n:
		t = sig.Params().At(idx).Type()
	case sig.Variadic():
		if s, ok := sig.Params().At(n - 1).Type().(*types.Slice); ok {
			t = s.Elem()
		}
	}
	return t != nil && analysisutil.IsContext(t)
}

// signatureOf returns the signature of the called function, or false for
// conversions, builtins and code that did not type-check.
func signatureOf(info *types.Info, call *ast.CallExpr) (*types.Signature, bool) {
	t := info.TypeOf(call.Fun)
	if t == nil {
		return nil, false
	}
	sig, ok := t.Underlying().(*types.Signature)
	return sig, ok
}

func enclosingFunc(cur inspector.Cursor) ast.Node {
	for c := range cur.Enclosing((*ast.FuncDecl)(nil), (*ast.FuncLit)(nil)) {
		return c.Node()
	}
	return nil
}

func appendUnique(dst []*ast.CallExpr, src ...*ast.CallExpr) []*ast.CallExpr {
outer:
	for _, s := range src {
		for _, d := range dst {
			if d == s {
				continue outer
			}
		}
		dst = append(dst, s)
	}
	return dst
}
