package notimeout

// The uses of a root context, sorted before a fix bounds it: a bound on
// a context that also serves, shuts down or feeds a goroutine would end
// that work too, so the fixer bounds the root only when every use is the
// outbound work the finding is about, and a context derived at the call
// when that call is the one use that is.

import (
	"go/ast"
	"go/token"
	"go/types"
	"strings"
	"unicode"

	"golang.org/x/tools/go/ast/edge"
	"golang.org/x/tools/go/ast/inspector"

	"github.com/resilvet/resilvet/internal/analysisutil"
	"github.com/resilvet/resilvet/internal/knowledge"
	"github.com/resilvet/resilvet/internal/summary"
)

// rootUses sorts the uses of a root context in its function: the
// outbound work of the finding, and whether anything else uses it.
type rootUses struct {
	fn inspector.Cursor
	// reached holds the findings the root reaches, by the opening
	// parenthesis of their call in this package.
	reached map[token.Pos]*summary.Finding
	// work lists the context expressions passed to those calls where a
	// bound covers the call alone (isWork).
	work []inspector.Cursor
	// lasting is set when some use is work that must not be bounded, or
	// one the fixer cannot judge: serving, Shutdown, a goroutine, a loop,
	// a wait on Done, a store, a return, a closure, a call that is not
	// the finding's.
	lasting bool
}

// maxDerivations caps how many derived contexts (context.WithValue of
// context.WithCancel of the root…) classify follows.
const maxDerivations = 3

// classify sorts the use of the context at e (the root call, or a
// variable holding the context) into u, following variables the context
// is assigned to and contexts derived from it without a deadline.
func (f *fixer) classify(u *rootUses, e inspector.Cursor, depth int) {
	for e.ParentEdgeKind() == edge.ParenExpr_X {
		e = e.Parent()
	}
	p := e.Parent()
	switch pn := p.Node().(type) {
	case *ast.CallExpr:
		if e.ParentEdgeKind() != edge.CallExpr_Args {
			u.lasting = true // called: not a context
			return
		}
		if fd, ok := u.reached[pn.Lparen]; ok {
			if f.isWork(u, p, fd, e.ParentEdgeIndex()) {
				u.work = append(u.work, e)
			} else {
				u.lasting = true
			}
			return
		}
		callee := analysisutil.CalleeFunc(f.pass.TypesInfo, pn)
		if callee == nil {
			u.lasting = true
			return
		}
		if derivations[callee.FullName()] && e.ParentEdgeIndex() == 0 {
			// ctx, cancel := context.WithCancel(root): the derived
			// context inherits the bound, so its uses count too.
			if v, ok := f.definedBy(p); ok && depth < maxDerivations {
				f.classifyVar(u, v, depth+1)
				return
			}
			u.lasting = true
			return
		}
		// A logger or a function that ignores its context loses nothing
		// to a deadline (StartMetricsServer is no logger).
		if knowledge.IsLoggingOrMetricsName(callee.Name()) && !longLivedName(callee.Name()) {
			return
		}
		if s := f.summary().Of(callee); s != nil && s.IgnoresCtx {
			return
		}
		u.lasting = true
	case *ast.SelectorExpr:
		// ctx.Value reads a value; Done, Err and Deadline watch the
		// context's end, which a bound would move.
		if e.ParentEdgeKind() != edge.SelectorExpr_X || pn.Sel.Name != "Value" {
			u.lasting = true
		}
	case *ast.AssignStmt, *ast.ValueSpec:
		// ctx := context.Background(), var ctx = …: the variable's uses.
		if v, ok := f.definedBy(e); ok && depth < maxDerivations {
			f.classifyVar(u, v, depth)
			return
		}
		u.lasting = true
	default:
		// Returned, stored, sent, in a literal, compared, reassigned.
		u.lasting = true
	}
}

// derivations are the calls whose first argument's context lives on,
// without a deadline of their own, in the context they return.
var derivations = map[string]bool{
	"context.WithCancel":      true,
	"context.WithCancelCause": true,
	"context.WithValue":       true,
	"os/signal.NotifyContext": true,
}

// definedBy returns the local variable e (a call or the root) is the
// value of, when e is the one value on the right of a definition
// (v := e, v, cancel := e, var v = e).
func (f *fixer) definedBy(e inspector.Cursor) (*types.Var, bool) {
	var id *ast.Ident
	switch pn := e.Parent().Node().(type) {
	case *ast.AssignStmt:
		if pn.Tok != token.DEFINE || len(pn.Rhs) != 1 || e.ParentEdgeKind() != edge.AssignStmt_Rhs {
			return nil, false
		}
		id, _ = pn.Lhs[0].(*ast.Ident)
	case *ast.ValueSpec:
		if len(pn.Values) != 1 || e.ParentEdgeKind() != edge.ValueSpec_Values {
			return nil, false
		}
		id = pn.Names[0]
	}
	if id == nil {
		return nil, false
	}
	v, ok := f.pass.TypesInfo.Defs[id].(*types.Var)
	return v, ok && v.Parent() != nil && v.Parent() != v.Pkg().Scope()
}

// classifyVar classifies every use of a local variable holding the
// context. A variable is local to its function (closures included).
func (f *fixer) classifyVar(u *rootUses, v *types.Var, depth int) {
	// Defined at or after the root, in its function: every use is there.
	for cur := range u.fn.Preorder((*ast.Ident)(nil)) {
		if f.pass.TypesInfo.Uses[cur.Node().(*ast.Ident)] == v {
			f.classify(u, cur, depth)
		}
	}
}

// isWork reports whether the call at call, reached by the finding fd
// with the context as argument arg, is outbound work that a bound for
// the function's lifetime covers alone: made once, in the root's own
// function, neither deferred nor started as a goroutine, its results not
// outliving the function (a deferred cancel would end them), and, when
// the call is a helper's, a helper that only does that work.
func (f *fixer) isWork(u *rootUses, call inspector.Cursor, fd *summary.Finding, arg int) bool {
	if fn, ok := enclosingFunc(call); !ok || fn.Index() != u.fn.Index() || f.inLoop(call, u.fn) {
		return false
	}
	switch call.ParentEdgeKind() {
	case edge.GoStmt_Call, edge.DeferStmt_Call:
		return false
	}
	if f.resultOutlives(call, u.fn) {
		return false
	}
	return len(fd.Chain) == 0 || f.shortHelper(call.Node().(*ast.CallExpr), arg)
}

// resultOutlives reports whether a result of the call that may depend on
// its context (rows, a response, a stream: anything but an error or a
// basic value) can outlive the function: returned, or held in a variable
// that is returned, stored, captured or handed to a goroutine.
func (f *fixer) resultOutlives(call, fn inspector.Cursor) bool {
	t := f.pass.TypesInfo.TypeOf(call.Node().(*ast.CallExpr).Fun)
	if t == nil {
		return true
	}
	sig, ok := t.Underlying().(*types.Signature)
	if !ok {
		return true
	}
	holds := false
	for v := range sig.Results().Variables() {
		holds = holds || mayHoldContext(v.Type())
	}
	if !holds {
		return false
	}
	switch call.ParentEdgeKind() {
	case edge.ExprStmt_X:
		return false // discarded
	case edge.SelectorExpr_X:
		// db.QueryRowContext(ctx, q).Scan(&v): the method's results.
		if outer := call.Parent().Parent(); call.Parent().ParentEdgeKind() == edge.CallExpr_Fun {
			return f.resultOutlives(outer, fn)
		}
		return true
	case edge.AssignStmt_Rhs:
		as := call.Parent().Node().(*ast.AssignStmt)
		if len(as.Rhs) != 1 {
			return true
		}
		for _, lhs := range as.Lhs {
			id, ok := lhs.(*ast.Ident)
			if !ok {
				return true // stored in a field, a map, through a pointer
			}
			if id.Name == "_" {
				continue
			}
			obj := f.pass.TypesInfo.ObjectOf(id)
			if obj == nil {
				return true
			}
			if mayHoldContext(obj.Type()) && f.escapes(obj, fn) {
				return true
			}
		}
		return false
	}
	return true
}

// mayHoldContext reports whether a value of type t may keep using a
// call's context after the call: anything but errors and basic values.
func mayHoldContext(t types.Type) bool {
	if _, ok := t.Underlying().(*types.Basic); ok {
		return false
	}
	return !types.Identical(t, types.Universe.Lookup("error").Type())
}

// escapes reports whether a variable's value can outlive the function:
// it is not a local of the function's body (a named result, a parameter,
// a package variable), or a use of it or of one of its fields is
// returned, stored, aliased, put in a literal, sent, has its address
// taken, is captured by a closure or handed to a goroutine. Deferred
// calls run before the deferred cancel, registered first.
func (f *fixer) escapes(obj types.Object, fn inspector.Cursor) bool {
	body := analysisutil.FuncBody(fn.Node())
	if body == nil || obj.Pos() < body.Lbrace || obj.Pos() > body.Rbrace {
		return true
	}
	for cur := range fn.Preorder((*ast.Ident)(nil)) {
		if f.pass.TypesInfo.Uses[cur.Node().(*ast.Ident)] != obj {
			continue
		}
		if enc, ok := enclosingFunc(cur); !ok || enc.Index() != fn.Index() {
			return true
		}
		// resp.Body, rows.x: the field's value is the variable's.
		e := cur
		for e.ParentEdgeKind() == edge.SelectorExpr_X || e.ParentEdgeKind() == edge.ParenExpr_X {
			if sel, ok := e.Parent().Node().(*ast.SelectorExpr); ok {
				if s := f.pass.TypesInfo.Selections[sel]; s == nil || s.Kind() != types.FieldVal {
					break
				}
			}
			e = e.Parent()
		}
		switch e.ParentEdgeKind() {
		case edge.ReturnStmt_Results, edge.CompositeLit_Elts, edge.KeyValueExpr_Value, edge.SendStmt_Value, edge.UnaryExpr_X, edge.AssignStmt_Rhs, edge.ValueSpec_Values:
			return true
		}
		for g := range cur.Enclosing((*ast.GoStmt)(nil)) {
			if fn.Contains(g) {
				return true
			}
		}
	}
	return false
}

// shortHelper reports whether a helper the finding reaches its outbound
// call through does only that work with the context: its name says
// nothing of serving, waiting or looping, its summary keeps no context
// and reaches the call once, and, when it is declared in this package,
// its body (and its callees' here) starts no goroutine, serves nothing,
// waits on no channel and runs no endless loop.
func (f *fixer) shortHelper(call *ast.CallExpr, arg int) bool {
	callee := analysisutil.CalleeFunc(f.pass.TypesInfo, call)
	if callee == nil || longLivedName(callee.Name()) {
		return false
	}
	s := f.summary().Of(callee)
	if s == nil || s.RetainsCtx {
		return false
	}
	once := false
	for _, r := range s.Reaches {
		if r.Param == arg && r.Of == "ctx" {
			if r.Repeats {
				return false
			}
			once = true
		}
	}
	return once && !f.lastingBody(callee, map[*types.Func]bool{})
}

// lastingBody reports whether a function declared in this package, or a
// function of this package it calls, does work that outlives a bound:
// it starts a goroutine, selects or receives, serves, waits on a
// context's Done, loops with no condition, or calls a context-taking
// function whose name says it serves, waits or loops.
func (f *fixer) lastingBody(fn *types.Func, seen map[*types.Func]bool) bool {
	if seen[fn] {
		return false
	}
	seen[fn] = true
	decl := f.decl(fn)
	if decl == nil || decl.Body == nil {
		return false // another package's: its summary and name decide
	}
	lasting := false
	ast.Inspect(decl.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.GoStmt, *ast.SelectStmt:
			lasting = true
		case *ast.UnaryExpr:
			lasting = lasting || n.Op == token.ARROW
		case *ast.ForStmt:
			lasting = lasting || n.Cond == nil
		case *ast.RangeStmt:
			if t := f.pass.TypesInfo.TypeOf(n.X); t != nil {
				_, ch := t.Underlying().(*types.Chan)
				lasting = lasting || ch
			}
		case *ast.CallExpr:
			callee := analysisutil.CalleeFunc(f.pass.TypesInfo, n)
			if callee == nil {
				break
			}
			sig, _ := callee.Type().(*types.Signature)
			switch {
			case knowledge.IsServe(callee.FullName()):
				lasting = true
			case sig != nil && analysisutil.TakesContext(sig) && longLivedName(callee.Name()):
				lasting = true
			case callee.Pkg() == f.pass.Pkg:
				lasting = lasting || f.lastingBody(callee.Origin(), seen)
			}
		}
		return !lasting
	})
	return lasting
}

// decl returns the declaration of a function of this package.
func (f *fixer) decl(fn *types.Func) *ast.FuncDecl {
	if fn.Pkg() != f.pass.Pkg {
		return nil
	}
	file := f.File(fn.Pos())
	if file == nil {
		return nil
	}
	for _, d := range file.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok && fd.Name.Pos() == fn.Pos() {
			return fd
		}
	}
	return nil
}

// longLivedWords are the words of a function's name that say it serves,
// runs until told to stop, waits or loops: given a context, it keeps it
// for as long as it runs.
var longLivedWords = map[string]bool{
	"serve": true, "server": true, "listen": true, "start": true, "run": true, "shutdown": true,
	"stop": true, "wait": true, "watch": true, "poll": true, "poller": true, "consume": true,
	"consumer": true, "subscribe": true, "loop": true, "forever": true, "daemon": true,
	"worker": true, "background": true, "keepalive": true, "heartbeat": true, "tick": true,
	"ticker": true, "schedule": true, "scheduler": true, "follow": true, "tail": true,
	"block": true, "stream": true, "accept": true, "handle": true, "process": true,
}

// longLivedName reports whether a function's name has one of the
// longLivedWords (ListenAndServe, Start, runLoop, StartWorkers).
func longLivedName(name string) bool {
	for _, w := range words(name) {
		if longLivedWords[w] || longLivedWords[strings.TrimSuffix(w, "s")] {
			return true
		}
	}
	return false
}

// words splits a Go name into its lower-cased words: "startHTTPServer"
// is start, http, server.
func words(name string) []string {
	var ws []string
	r := []rune(name)
	start := 0
	for i := 1; i <= len(r); i++ {
		split := i == len(r) || r[i] == '_' ||
			unicode.IsUpper(r[i]) && (!unicode.IsUpper(r[i-1]) || i+1 < len(r) && unicode.IsLower(r[i+1]))
		if !split {
			continue
		}
		if w := strings.Trim(string(r[start:i]), "_"); w != "" {
			ws = append(ws, strings.ToLower(w))
		}
		start = i
	}
	return ws
}

// reachedFrom returns the findings that the root context made at lparen
// reaches, by the opening parenthesis of their call.
func (f *fixer) reachedFrom(lparen token.Pos) map[token.Pos]*summary.Finding {
	if f.reached == nil {
		f.reached = map[token.Pos]map[token.Pos]*summary.Finding{}
		for _, fd := range f.summary().Findings() {
			for _, o := range fd.Origins {
				if !o.Pos.IsValid() {
					continue
				}
				if f.reached[o.Pos] == nil {
					f.reached[o.Pos] = map[token.Pos]*summary.Finding{}
				}
				f.reached[o.Pos][fd.Pos] = fd
			}
		}
	}
	return f.reached[lparen]
}

// summary returns the package's summaries: the result of the summary
// analyzer notimeout requires (drivers build their own instance, so it
// is found by its type).
func (f *fixer) summary() *summary.Result {
	if f.sum == nil {
		for _, r := range f.pass.ResultOf {
			if s, ok := r.(*summary.Result); ok {
				f.sum = s
				break
			}
		}
		if f.sum == nil {
			panic("internal error: notimeout runs without summaries")
		}
	}
	return f.sum
}
