package notimeout

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"strings"
	"time"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ast/edge"
	"golang.org/x/tools/go/ast/inspector"

	"github.com/resilvet/resilvet/internal/analysisutil"
	"github.com/resilvet/resilvet/internal/fixedit"
	"github.com/resilvet/resilvet/internal/summary"
)

// fixer builds suggested fixes. Every edit leaves the file gofmt-clean as
// is (gopls applies edits verbatim) and the package compiling.
type fixer struct {
	*fixedit.Editor
	pass    *analysis.Pass
	timeout time.Duration
	// sum is the package's summaries (summary) and reached the findings
	// by root (reachedFrom), found on first use.
	sum     *summary.Result
	reached map[token.Pos]map[token.Pos]*summary.Finding
}

func newFixer(pass *analysis.Pass, timeout time.Duration) *fixer {
	return &fixer{Editor: &fixedit.Editor{Pass: pass}, pass: pass, timeout: timeout}
}

const deadlinePath = fixedit.RuntimeModule + "/deadline"

// addTimeout adds Timeout: <d> to a client literal (&http.Client{…}).
func (f *fixer) addTimeout(d *analysis.Diagnostic, cur inspector.Cursor) {
	lit := cur.Node().(*ast.CompositeLit)
	if t := f.pass.TypesInfo.TypeOf(lit); t == nil || !isHTTPClient(t) {
		return
	}
	for _, e := range lit.Elts {
		if _, ok := e.(*ast.KeyValueExpr); !ok {
			return // positional fields: no key to add beside them
		}
	}
	file := f.File(lit.Pos())
	if file == nil {
		return
	}
	timeName, need, ok := f.ImportName(file, "time", lit.Pos())
	if !ok {
		return
	}
	value := durationText(timeName, f.timeout, " ")
	var edit analysis.TextEdit
	switch {
	case len(lit.Elts) == 0:
		edit = analysis.TextEdit{Pos: lit.Lbrace + 1, End: lit.Lbrace + 1, NewText: []byte("Timeout: " + value)}
	case f.Line(lit.Elts[0].Pos()) == f.Line(lit.Lbrace):
		edit = analysis.TextEdit{Pos: lit.Elts[0].Pos(), End: lit.Elts[0].Pos(), NewText: []byte("Timeout: " + value + ", ")}
	default:
		// One field per line: a line of its own at the end, padded to the
		// column gofmt aligns the values of the block at.
		last := lit.Elts[len(lit.Elts)-1]
		if f.Line(lit.Rbrace) == f.Line(last.End()) || fixedit.HasComments(file, lit) {
			return
		}
		pad, ok := f.alignment(lit, len("Timeout"))
		if !ok {
			return
		}
		indent := f.Indent(lit.Elts[0].Pos())
		edit = analysis.TextEdit{Pos: f.LineStart(lit.Rbrace), End: f.LineStart(lit.Rbrace), NewText: []byte(indent + "Timeout:" + pad + value + ",\n")}
	}
	edits := []analysis.TextEdit{edit}
	imps, ok := f.ImportEdits(file, need)
	if !ok {
		return
	}
	edits = append(edits, imps...)
	d.SuggestedFixes = []analysis.SuggestedFix{{
		Message:   "Add Timeout: " + durationText("time", f.timeout, " "),
		TextEdits: edits,
	}}
}

// useClient rewrites http.Get(u) (Head, Post, PostForm) to the same
// method of a package-level client that has a Timeout, when one is
// visible at the call and the file keeps using net/http otherwise.
func (f *fixer) useClient(d *analysis.Diagnostic, call *ast.CallExpr, clients []*types.Var) {
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok {
		return
	}
	pkgID, ok := sel.X.(*ast.Ident)
	if !ok {
		return
	}
	pn, ok := f.pass.TypesInfo.Uses[pkgID].(*types.PkgName)
	if !ok || pn.Imported().Path() != "net/http" {
		return
	}
	file := f.File(call.Pos())
	if file == nil || f.usesInFile(file, pn) < 2 {
		return // the import would be left unused
	}
	scope := f.pass.TypesInfo.Scopes[file]
	for _, v := range clients {
		if scope == nil {
			return
		}
		inner := scope.Innermost(call.Pos())
		if inner == nil {
			return
		}
		if _, obj := inner.LookupParent(v.Name(), call.Pos()); obj != v {
			continue // shadowed
		}
		d.SuggestedFixes = []analysis.SuggestedFix{{
			Message:   fmt.Sprintf("Use %s, which has a Timeout", v.Name()),
			TextEdits: []analysis.TextEdit{{Pos: sel.X.Pos(), End: sel.X.End(), NewText: []byte(v.Name())}},
		}}
		return
	}
}

// usesInFile counts the uses of an imported package name in a file.
func (f *fixer) usesInFile(file *ast.File, pn *types.PkgName) int {
	n := 0
	ast.Inspect(file, func(node ast.Node) bool {
		if id, ok := node.(*ast.Ident); ok && f.pass.TypesInfo.Uses[id] == pn {
			n++
		}
		return true
	})
	return n
}

// ensure bounds a root context where it is made, with the runtime's
// deadline.Ensure, and cancels it when the function returns:
//
//	ctx := context.Background()
//
// becomes
//
//	ctx, cancel := deadline.Ensure(context.Background(), 10*time.Second)
//	defer cancel()
//
// and a root passed straight to a call gets a statement of its own first.
//
// The bound reaches every use of the context, so it is written only when
// every use is the outbound work of the finding (rootUses). When the
// context also serves, shuts a server down, feeds a goroutine or a loop,
// is kept or is handed to work the fix cannot judge, a deadline there
// would stop that work too (a server started with it shuts down with an
// expired context): the fix then bounds a context derived for the one
// outbound call instead (boundAtCall), or is not offered.
func (f *fixer) ensure(d *analysis.Diagnostic, root inspector.Cursor) {
	fn, ok := enclosingFunc(root)
	if !ok || f.inLoop(root, fn) {
		return
	}
	rootCall, ok := root.Node().(*ast.CallExpr)
	if !ok || !analysisutil.IsContext(f.pass.TypesInfo.TypeOf(rootCall)) {
		return
	}
	u := &rootUses{fn: fn, reached: f.reachedFrom(rootCall.Lparen)}
	f.classify(u, root, 0)
	switch {
	case !u.lasting && len(u.work) > 0:
		f.boundRoot(d, root, fn)
	case u.lasting && len(u.work) == 1:
		f.boundAtCall(d, u.work[0], fn)
	}
}

// boundRoot writes ensure's fix at the root itself.
func (f *fixer) boundRoot(d *analysis.Diagnostic, root, fn inspector.Cursor) {
	if f.declares(fn, "cancel") {
		return
	}
	file := f.File(root.Node().Pos())
	if file == nil {
		return
	}
	bounded, fixName, imports, ok := f.bounded(file, f.Text(root.Node()), root.Node().Pos())
	if !ok {
		return
	}
	var edits []analysis.TextEdit
	stmt, ok := statementOf(root, fn)
	if !ok {
		return
	}
	indent := f.Indent(stmt.Node().Pos())
	if as, ok := stmt.Node().(*ast.AssignStmt); ok && as.Tok == token.DEFINE && len(as.Lhs) == 1 && len(as.Rhs) == 1 && as.Rhs[0] == root.Node() {
		id, ok := as.Lhs[0].(*ast.Ident)
		if !ok || id.Name == "_" {
			return
		}
		// defer cancel() on the next line, after any comment that
		// trails the statement.
		tf := f.pass.Fset.File(as.End())
		line := tf.Line(as.End())
		if line >= tf.LineCount() {
			return
		}
		next := tf.LineStart(line + 1)
		edits = []analysis.TextEdit{
			{Pos: id.End(), End: id.End(), NewText: []byte(", cancel")},
			{Pos: root.Node().Pos(), End: root.Node().End(), NewText: []byte(bounded)},
			{Pos: next, End: next, NewText: []byte(indent + "defer cancel()\n")},
		}
	} else {
		if f.declares(fn, "ctx") || f.HasComment(stmt.Node()) {
			return
		}
		edits = []analysis.TextEdit{
			{Pos: stmt.Node().Pos(), End: stmt.Node().Pos(), NewText: []byte("ctx, cancel := " + bounded + "\n" + indent + "defer cancel()\n" + indent)},
			{Pos: root.Node().Pos(), End: root.Node().End(), NewText: []byte("ctx")},
		}
	}
	imps, ok := f.ImportEdits(file, imports)
	if !ok {
		return
	}
	edits = append(edits, imps...)
	d.SuggestedFixes = []analysis.SuggestedFix{{
		Message:   "Bound the context with " + fixName + "(…, " + durationText("time", f.timeout, "") + ")",
		TextEdits: edits,
	}}
}

// boundAtCall bounds a context derived from the root for one outbound
// call, when the root also reaches work that must not be bounded:
//
//	if err := db.PingContext(ctx); err != nil {
//
// becomes
//
//	callCtx, cancel := context.WithTimeout(ctx, 10*time.Second)
//	defer cancel()
//	if err := db.PingContext(callCtx); err != nil {
//
// use is the context passed to the call, a variable; the call is in the
// root's function, outside loops and closures (rootUses.isWork).
func (f *fixer) boundAtCall(d *analysis.Diagnostic, use, fn inspector.Cursor) {
	id, ok := use.Node().(*ast.Ident)
	if !ok || !analysisutil.IsContext(f.pass.TypesInfo.TypeOf(id)) {
		return
	}
	stmt, ok := blockStatementOf(use, fn)
	if !ok || !f.startsLine(stmt.Node().Pos()) || jumps(fn) || f.declares(fn, "callCtx") {
		return
	}
	cancel := "cancel"
	if f.declares(fn, cancel) {
		cancel = "callCancel"
		if f.declares(fn, cancel) {
			return
		}
	}
	file := f.File(id.Pos())
	if file == nil {
		return
	}
	bounded, fixName, imports, ok := f.bounded(file, id.Name, stmt.Node().Pos())
	if !ok {
		return
	}
	indent := f.Indent(stmt.Node().Pos())
	edits := []analysis.TextEdit{
		{Pos: stmt.Node().Pos(), End: stmt.Node().Pos(), NewText: []byte("callCtx, " + cancel + " := " + bounded + "\n" + indent + "defer " + cancel + "()\n" + indent)},
		{Pos: id.Pos(), End: id.End(), NewText: []byte("callCtx")},
	}
	imps, ok := f.ImportEdits(file, imports)
	if !ok {
		return
	}
	edits = append(edits, imps...)
	callee := "the call"
	if call, ok := use.Parent().Node().(*ast.CallExpr); ok {
		if fn := analysisutil.CalleeFunc(f.pass.TypesInfo, call); fn != nil {
			callee = analysisutil.FuncName(fn)
		}
	}
	d.SuggestedFixes = []analysis.SuggestedFix{{
		Message:   "Bound a context derived for " + callee + " with " + fixName + "(…, " + durationText("time", f.timeout, "") + ")",
		TextEdits: edits,
	}}
}

// bounded returns the expression that bounds the context ctx (source
// text) by the fixer's timeout, the name of the function it calls, and
// the imports it needs. The runtime's deadline.Ensure when the package
// can already import the runtime (its module requires it);
// context.WithTimeout otherwise, so the fix compiles as emitted. On a
// root context, which has no deadline to keep, the two are the same.
func (f *fixer) bounded(file *ast.File, ctx string, pos token.Pos) (string, string, []string, bool) {
	timeName, needTime, ok := f.ImportName(file, "time", pos)
	if !ok {
		return "", "", nil, false
	}
	if f.RuntimeReachable() {
		dlName, need, ok := f.ImportName(file, deadlinePath, pos)
		if !ok {
			return "", "", nil, false
		}
		return fmt.Sprintf("%s.Ensure(%s, %s)", dlName, ctx, durationText(timeName, f.timeout, "")), "deadline.Ensure", append(needTime, need...), true
	}
	ctxName, need, ok := f.ImportName(file, "context", pos)
	if !ok || len(need) > 0 {
		return "", "", nil, false
	}
	return fmt.Sprintf("%s.WithTimeout(%s, %s)", ctxName, ctx, durationText(timeName, f.timeout, "")), "context.WithTimeout", needTime, true
}

// blockStatementOf returns the statement that holds cur and sits
// directly in a block, so a statement can go before it: the statement
// itself, or the if or switch statement whose header (init, condition,
// tag) holds it. None when cur is in a loop header, a case expression,
// a select's communication, an else-if's header or a go or defer
// statement.
func blockStatementOf(cur, fn inspector.Cursor) (inspector.Cursor, bool) {
	for a := cur; a.Index() != fn.Index(); a = a.Parent() {
		if _, ok := a.Node().(ast.Stmt); !ok {
			continue // an expression: of the statement above
		}
		switch a.ParentEdgeKind() {
		case edge.BlockStmt_List, edge.CaseClause_Body, edge.CommClause_Body:
			switch a.Node().(type) {
			case *ast.AssignStmt, *ast.ExprStmt, *ast.DeclStmt, *ast.ReturnStmt, *ast.IfStmt, *ast.SwitchStmt:
				return a, true
			}
			return inspector.Cursor{}, false
		case edge.IfStmt_Init, edge.SwitchStmt_Init:
			continue // the if or switch is next
		}
		return inspector.Cursor{}, false
	}
	return inspector.Cursor{}, false
}

// startsLine reports whether only blanks precede pos on its line: a
// statement inserted before it then takes its indentation.
func (f *fixer) startsLine(pos token.Pos) bool {
	src := f.Source(pos)
	tf := f.pass.Fset.File(pos)
	start, end := tf.Offset(f.LineStart(pos)), tf.Offset(pos)
	return src != nil && end <= len(src) && strings.TrimLeft(string(src[start:end]), " \t") == ""
}

// jumps reports whether the function has a goto, which may not jump over
// a variable the fix declares.
func jumps(fn inspector.Cursor) bool {
	for cur := range fn.Preorder((*ast.BranchStmt)(nil)) {
		if cur.Node().(*ast.BranchStmt).Tok == token.GOTO {
			return true
		}
	}
	return false
}

// statementOf returns the statement containing cur, when that statement
// sits directly in a block (so statements can go before and after it).
func statementOf(cur, fn inspector.Cursor) (inspector.Cursor, bool) {
	for a := cur; a.Index() != fn.Index(); a = a.Parent() {
		if _, ok := a.Node().(ast.Stmt); !ok {
			continue
		}
		switch a.Parent().Node().(type) {
		case *ast.BlockStmt, *ast.CaseClause, *ast.CommClause:
			switch a.Node().(type) {
			case *ast.AssignStmt, *ast.ExprStmt, *ast.DeclStmt:
				return a, true
			case *ast.ReturnStmt:
				return a, true
			}
		}
		return inspector.Cursor{}, false
	}
	return inspector.Cursor{}, false
}

// inLoop reports whether cur is inside a loop of its function: a
// deferred cancel there would pile up until the function returns.
func (f *fixer) inLoop(cur, fn inspector.Cursor) bool {
	for a := cur.Parent(); a.Index() != fn.Index(); a = a.Parent() {
		switch a.Node().(type) {
		case *ast.ForStmt, *ast.RangeStmt:
			return true
		}
	}
	return false
}

// declares reports whether the function mentions name anywhere: a new
// variable of that name could clash or shadow.
func (f *fixer) declares(fn inspector.Cursor, name string) bool {
	for cur := range fn.Preorder((*ast.Ident)(nil)) {
		if cur.Node().(*ast.Ident).Name == name {
			return true
		}
	}
	return false
}

func enclosingFunc(cur inspector.Cursor) (inspector.Cursor, bool) {
	for e := range cur.Enclosing((*ast.FuncDecl)(nil), (*ast.FuncLit)(nil)) {
		return e, true
	}
	return inspector.Cursor{}, false
}

// durationText writes d as Go source: "10 * time.Second" (sep " ") or
// "10*time.Second" (sep "", as gofmt writes it inside an argument list).
func durationText(timeName string, d time.Duration, sep string) string {
	units := []struct {
		unit time.Duration
		name string
	}{{time.Hour, "Hour"}, {time.Minute, "Minute"}, {time.Second, "Second"}, {time.Millisecond, "Millisecond"}}
	for _, u := range units {
		if d%u.unit == 0 {
			n := int64(d / u.unit)
			if n == 1 {
				return timeName + "." + u.name
			}
			return fmt.Sprintf("%d%s*%s%s.%s", n, sep, sep, timeName, u.name)
		}
	}
	return fmt.Sprintf("%d", int64(d))
}

func isHTTPClient(t types.Type) bool {
	n, ok := types.Unalias(t).(*types.Named)
	return ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == "net/http" && n.Obj().Name() == "Client"
}

// alignment returns the spaces after "Key:" that put a new key of length
// n in the column gofmt aligns the literal's values at, when every field
// is a key on a line of its own aligned at one column no shorter than n.
func (f *fixer) alignment(lit *ast.CompositeLit, n int) (string, bool) {
	col := -1
	prevLine := f.Line(lit.Lbrace)
	for _, e := range lit.Elts {
		kv, ok := e.(*ast.KeyValueExpr)
		if !ok || f.Line(kv.Pos()) != prevLine+1 || f.Line(kv.End()) != f.Line(kv.Pos()) {
			return "", false
		}
		prevLine = f.Line(kv.Pos())
		c := f.pass.Fset.Position(kv.Value.Pos()).Column - f.pass.Fset.Position(kv.Key.Pos()).Column
		if col >= 0 && c != col {
			return "", false
		}
		col = c
	}
	// col is the key's length plus ": " and any padding.
	if col-2 < n || col-2 > 2*n {
		return "", false
	}
	return strings.Repeat(" ", col-1-n), true
}
