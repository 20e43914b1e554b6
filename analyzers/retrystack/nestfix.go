package retrystack

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ast/astutil"

	"github.com/resilvet/resilvet/internal/fixedit"
	"github.com/resilvet/resilvet/internal/summary"
)

// Fixes for nested layers. Two rewrites keep retries at one layer, both
// on hand-written loops of this package whose body is one attempt, a
// test for its success and what happens between attempts:
//
//	for i := 0; i < 3; i++ {
//		err = c.get(ctx)        // the attempt
//		if err == nil {         // its success test: break or return
//			break
//		}
//		time.Sleep(time.Second) // between attempts: dropped
//	}
//
//   - Where the runtime is within reach and every layer inside the loop is
//     a runtime layer (which yields when nested), the loop becomes
//     retry.Do with the same count; the inner layers then make one
//     attempt each: err = retry.Do(ctx, &retry.Policy{MaxAttempts: 3},
//     func(ctx context.Context) error { return c.get(ctx) }).
//   - Otherwise an inner loop becomes its single attempt (the statements
//     of one round up to the success test), and the outer layer keeps
//     retrying.
//
// Statements between attempts (waits, logs, a look at the context) are
// dropped with the loop. A fix that would leave a variable or an import
// unused, move a declaration into a scope that already has the name, or
// reindent a multi-line raw string is not offered.

const retryPath = fixedit.RuntimeModule + "/retry"

// nestFix returns the fix for a nest, and the range of source it
// replaces.
func nestFix(ed *fixedit.Editor, n *summary.RetryNest) (*analysis.SuggestedFix, ast.Node) {
	if fix, loop := runtimeFix(ed, n); fix != nil {
		return fix, loop
	}
	for i, l := range n.Inner {
		if l.What != "retry loop" || !n.InnerPos[i].IsValid() || (l.Attempts < 2 && l.Attempts != -1) {
			continue
		}
		if fix, loop := singleAttempt(ed, n.InnerPos[i], l.Func); fix != nil {
			return fix, loop
		}
	}
	return nil, nil
}

// runtimeFix rewrites the outer loop to retry.Do when it is the nest's
// only outer layer, every inner layer yields when nested, and the
// package already reaches the runtime.
func runtimeFix(ed *fixedit.Editor, n *summary.RetryNest) (*analysis.SuggestedFix, ast.Node) {
	if len(n.Outer) != 1 || n.Outer[0].What != "retry loop" || !n.OuterPos[0].IsValid() || !ed.RuntimeReachable() {
		return nil, nil
	}
	for _, l := range n.Inner {
		if !l.Runtime || l.Nested {
			return nil, nil
		}
	}
	s := shapeAt(ed, n.OuterPos[0])
	if s == nil || s.count == nil || s.call == nil || s.successReturns {
		return nil, nil
	}
	file := ed.File(s.loop.Pos())
	ctx := contextNamed(ed.Pass, file, s.loop.Pos())
	if ctx == "" {
		return nil, nil
	}
	retryName, needRetry, ok := ed.ImportName(file, retryPath, s.loop.Pos())
	if !ok {
		return nil, nil
	}
	ctxPkg, needCtx, ok := ed.ImportName(file, "context", s.loop.Pos())
	if !ok || len(needCtx) > 0 {
		return nil, nil
	}
	kept := []ast.Node{s.call, s.count}
	if !s.removable(ed, kept) {
		return nil, nil
	}
	indent := ed.Indent(s.loop.Pos())
	call := ed.Text(s.call)
	if strings.Contains(call, "\n") {
		return nil, nil // a call written over lines moves one level in
	}
	text := fmt.Sprintf("%s = %s.Do(%s, &%s.Policy{MaxAttempts: %s}, func(%s %s.Context) error {\n%s\treturn %s\n%s})",
		s.errID.Name, retryName, ctx, retryName, ed.Text(s.count), ctx, ctxPkg, indent, call, indent)
	edits := []analysis.TextEdit{{Pos: s.loop.Pos(), End: s.loop.End(), NewText: []byte(text)}}
	edits, ok = withImports(ed, file, edits, needRetry)
	if !ok {
		return nil, nil
	}
	return &analysis.SuggestedFix{
		Message:   fmt.Sprintf("Retry with retry.Do (%s attempts, backoff that ends with the context); the layers inside then make one attempt each", ed.Text(s.count)),
		TextEdits: edits,
	}, s.loop
}

// singleAttempt rewrites the loop whose retried call is at pos to one
// attempt.
func singleAttempt(ed *fixedit.Editor, pos token.Pos, fn string) (*analysis.SuggestedFix, ast.Node) {
	s := shapeAt(ed, pos)
	if s == nil {
		return nil, nil
	}
	file := ed.File(s.loop.Pos())
	var kept []ast.Node
	for _, st := range s.attempt {
		kept = append(kept, st)
	}
	if s.successBreaks && s.successInit != nil {
		if as, ok := s.successInit.(*ast.AssignStmt); !ok || as.Tok == token.DEFINE {
			return nil, nil // its variables would be declared and not used
		}
		kept = append(kept, s.successInit)
	}
	if len(kept) == 0 || !s.removable(ed, kept) || s.redeclares(ed) {
		return nil, nil
	}
	indent := ed.Indent(s.loop.Pos())
	var parts []string
	if len(s.attempt) > 0 {
		first, last := s.attempt[0], s.attempt[len(s.attempt)-1]
		body, ok := dedent(ed, first.Pos(), last.End(), indent)
		if !ok {
			return nil, nil
		}
		parts = append(parts, body)
	}
	if s.successBreaks && s.successInit != nil {
		init, ok := dedent(ed, s.successInit.Pos(), s.successInit.End(), indent)
		if !ok {
			return nil, nil
		}
		parts = append(parts, init)
	}
	edits := []analysis.TextEdit{{Pos: s.loop.Pos(), End: s.loop.End(), NewText: []byte(strings.Join(parts, "\n"+indent))}}
	edits, ok := withImports(ed, file, edits, nil)
	if !ok {
		return nil, nil
	}
	return &analysis.SuggestedFix{
		Message:   fmt.Sprintf("Make the retry loop in %s a single attempt; the outer layer retries", fn),
		TextEdits: edits,
	}, s.loop
}

// loopShape is a retry loop the fixes can rewrite.
type loopShape struct {
	loop ast.Stmt // *ast.ForStmt or *ast.RangeStmt
	// attempt is the round's statements up to its success test, the test
	// included when it returns, left out when it breaks.
	attempt []ast.Stmt
	// success is the test: if err == nil { break } or { return … }.
	success        *ast.IfStmt
	successBreaks  bool
	successReturns bool
	// successInit is the test's init statement (if err = call(); …).
	successInit ast.Stmt
	// errID is the error variable the test reads; call the single call
	// assigned to it, when the attempt is just that (nil otherwise).
	errID *ast.Ident
	call  *ast.CallExpr
	// count is the loop's count as written, when its header is
	// for i := 0; i < N; i++, for i := 1; i <= N; i++ or for range N
	// with i used nowhere else.
	count ast.Expr
	// loopVar is the header's variable, if any.
	loopVar types.Object
}

// shapeAt finds the loop around the retried call at pos and reads its
// shape, or returns nil.
func shapeAt(ed *fixedit.Editor, pos token.Pos) *loopShape {
	file := ed.File(pos)
	if file == nil {
		return nil
	}
	path, _ := astutil.PathEnclosingInterval(file, pos, pos)
	var s loopShape
	var body *ast.BlockStmt
	for i, n := range path {
		switch n := n.(type) {
		case *ast.FuncLit, *ast.FuncDecl:
			return nil
		case *ast.ForStmt:
			s.loop, body = n, n.Body
		case *ast.RangeStmt:
			s.loop, body = n, n.Body
		default:
			continue
		}
		if i+1 < len(path) {
			if _, labelled := path[i+1].(*ast.LabeledStmt); labelled {
				return nil
			}
		}
		break
	}
	if s.loop == nil {
		return nil
	}
	info := ed.Pass.TypesInfo
	// The success test: the first top-level if err == nil { break/return }.
	k := -1
	for i, st := range body.List {
		ifs, ok := st.(*ast.IfStmt)
		if !ok || ifs.Else != nil || len(ifs.Body.List) != 1 {
			continue
		}
		id := nilTest(ifs.Cond)
		if id == nil || !isError(info.TypeOf(id)) {
			continue
		}
		switch b := ifs.Body.List[0].(type) {
		case *ast.BranchStmt:
			if b.Tok != token.BREAK || b.Label != nil {
				continue
			}
			s.successBreaks = true
		case *ast.ReturnStmt:
			s.successReturns = true
		default:
			continue
		}
		s.success, s.errID, s.successInit, k = ifs, id, ifs.Init, i
		break
	}
	if k < 0 || !(pos >= body.List[0].Pos() && pos < s.success.End()) {
		return nil // the retried call is not in the attempt
	}
	s.attempt = body.List[:k]
	if s.successReturns {
		s.attempt = body.List[:k+1]
	}
	errObj := info.Uses[s.errID]
	if errObj == nil {
		errObj = info.Defs[s.errID]
	}
	// The one call assigned to err: err = call() before the test, or in
	// its init.
	assign := s.successInit
	if assign == nil && k == 1 {
		assign = body.List[0]
	}
	if as, ok := assign.(*ast.AssignStmt); ok && (assign == s.successInit || k == 1) && as.Tok == token.ASSIGN && len(as.Lhs) == 1 && len(as.Rhs) == 1 {
		if id, ok := as.Lhs[0].(*ast.Ident); ok && info.Uses[id] == errObj && errObj != nil && errObj.Parent() != nil && !inside(s.loop, errObj.Pos()) {
			if c, ok := as.Rhs[0].(*ast.CallExpr); ok && isError(info.TypeOf(c)) {
				s.call = c
			}
		}
	}
	s.count, s.loopVar = countOf(info, s.loop)
	// The attempt must not leave or restart the loop, nor read its
	// variable.
	for _, st := range s.attempt {
		if leavesLoop(st) || (s.loopVar != nil && mentions(info, st, s.loopVar)) {
			return nil
		}
	}
	if s.successInit != nil && s.loopVar != nil && mentions(info, s.successInit, s.loopVar) {
		return nil
	}
	return &s
}

// countOf returns a loop header's count as written and its variable.
func countOf(info *types.Info, loop ast.Stmt) (ast.Expr, types.Object) {
	switch l := loop.(type) {
	case *ast.RangeStmt:
		if l.Value != nil || !isInt(info.TypeOf(l.X)) {
			return nil, nil
		}
		var v types.Object
		if id, ok := l.Key.(*ast.Ident); ok {
			v = info.Defs[id]
		}
		return l.X, v
	case *ast.ForStmt:
		init, ok := l.Init.(*ast.AssignStmt)
		if !ok || init.Tok != token.DEFINE || len(init.Lhs) != 1 || l.Cond == nil {
			return nil, nil
		}
		id, _ := init.Lhs[0].(*ast.Ident)
		lit, _ := init.Rhs[0].(*ast.BasicLit)
		cond, _ := l.Cond.(*ast.BinaryExpr)
		post, _ := l.Post.(*ast.IncDecStmt)
		if id == nil || lit == nil || cond == nil || post == nil || post.Tok != token.INC {
			return nil, nil
		}
		v := info.Defs[id]
		x, _ := cond.X.(*ast.Ident)
		p, _ := post.X.(*ast.Ident)
		if v == nil || x == nil || p == nil || info.Uses[x] != v || info.Uses[p] != v {
			return nil, v
		}
		if lit.Value == "0" && cond.Op == token.LSS || lit.Value == "1" && cond.Op == token.LEQ {
			return cond.Y, v
		}
		return nil, v
	}
	return nil, nil
}

// removable reports whether dropping the loop except the kept nodes
// leaves the code compiling: every variable and import the dropped
// statements read is still read elsewhere, and every variable declared
// in a kept statement is still read in one.
func (s *loopShape) removable(ed *fixedit.Editor, kept []ast.Node) bool {
	info := ed.Pass.TypesInfo
	inKept := func(p token.Pos) bool {
		for _, n := range kept {
			if n.Pos() <= p && p < n.End() {
				return true
			}
		}
		return false
	}
	file := ed.File(s.loop.Pos())
	writes := plainWrites(file)
	// need maps each object to whether a read of it must survive outside
	// the loop (false) or inside the kept statements (true).
	need := map[types.Object]bool{}
	ast.Inspect(s.loop, func(n ast.Node) bool {
		id, ok := n.(*ast.Ident)
		if !ok {
			return true
		}
		if obj, ok := info.Defs[id].(*types.Var); ok && inKept(id.Pos()) {
			need[obj] = true
			return true
		}
		if inKept(id.Pos()) {
			return true
		}
		switch obj := info.Uses[id].(type) {
		case *types.Var:
			if !inside(s.loop, obj.Pos()) && obj.Pkg() == ed.Pass.Pkg && obj.Parent() != ed.Pass.Pkg.Scope() && obj.Parent() != nil {
				need[obj] = false
			}
		case *types.PkgName:
			need[obj] = false
		}
		return true
	})
	for id, obj := range info.Uses {
		inKeptOnly, ok := need[obj]
		if !ok || writes[id] || id.Pos() < file.FileStart || id.Pos() >= file.FileEnd {
			continue
		}
		if inKept(id.Pos()) || !inKeptOnly && !inside(s.loop, id.Pos()) {
			delete(need, obj)
		}
	}
	return len(need) == 0
}

// plainWrites returns the identifiers a file assigns with = (a write that
// does not count as a use of the variable).
func plainWrites(file *ast.File) map[*ast.Ident]bool {
	out := map[*ast.Ident]bool{}
	ast.Inspect(file, func(n ast.Node) bool {
		if as, ok := n.(*ast.AssignStmt); ok && as.Tok == token.ASSIGN {
			for _, l := range as.Lhs {
				if id, ok := ast.Unparen(l).(*ast.Ident); ok {
					out[id] = true
				}
			}
		}
		return true
	})
	return out
}

// redeclares reports whether moving the attempt's top-level declarations
// out of the loop's body would break or change the code around it: a name
// the enclosing scopes already have may be taken over only if nothing
// reads it after the loop, and a := must still declare something new.
func (s *loopShape) redeclares(ed *fixedit.Editor) bool {
	info := ed.Pass.TypesInfo
	scope := ed.Pass.Pkg.Scope().Innermost(s.loop.Pos())
	if scope == nil {
		return true
	}
	file := ed.File(s.loop.Pos())
	writes := plainWrites(file)
	readAfter := func(obj types.Object) bool {
		for id, o := range info.Uses {
			if o == obj && id.Pos() >= s.loop.End() && id.Pos() < file.FileEnd && !writes[id] {
				return true
			}
		}
		return false
	}
	for _, st := range s.attempt {
		var ids []*ast.Ident
		define := false
		switch st := st.(type) {
		case *ast.AssignStmt:
			if st.Tok != token.DEFINE {
				continue
			}
			define = true
			for _, l := range st.Lhs {
				if id, ok := l.(*ast.Ident); ok && id.Name != "_" {
					ids = append(ids, id)
				}
			}
		case *ast.DeclStmt:
			gd, _ := st.Decl.(*ast.GenDecl)
			if gd == nil {
				return true
			}
			for _, spec := range gd.Specs {
				switch sp := spec.(type) {
				case *ast.ValueSpec:
					ids = append(ids, sp.Names...)
				case *ast.TypeSpec:
					ids = append(ids, sp.Name)
				}
			}
		}
		fresh := false
		for _, id := range ids {
			where, obj := scope.LookupParent(id.Name, s.loop.Pos())
			switch {
			case obj == nil:
				fresh = true
			case where == scope && !define, readAfter(obj):
				return true
			case where != scope:
				fresh = true // shadows it, and nothing after reads it
			}
		}
		if define && !fresh {
			return true // no new variables on the left of :=
		}
	}
	return false
}

// withImports adds the imports the new text needs.
func withImports(ed *fixedit.Editor, file *ast.File, edits []analysis.TextEdit, need []string) ([]analysis.TextEdit, bool) {
	imps, ok := ed.ImportEdits(file, need)
	if !ok {
		return nil, false
	}
	return append(edits, imps...), true
}

// dedent returns the source from pos to end moved one level out: each
// line after the first loses the tab after indent.
func dedent(ed *fixedit.Editor, pos, end token.Pos, indent string) (string, bool) {
	src := ed.Source(pos)
	tf := ed.Pass.Fset.File(pos)
	if src == nil || tf.Offset(end) > len(src) {
		return "", false
	}
	text := string(src[tf.Offset(pos):tf.Offset(end)])
	lines := strings.Split(text, "\n")
	if len(lines) > 1 && hasRawString(ed, pos, end) {
		return "", false
	}
	for i := 1; i < len(lines); i++ {
		switch {
		case lines[i] == "":
		case strings.HasPrefix(lines[i], indent+"\t"):
			lines[i] = indent + lines[i][len(indent)+1:]
		default:
			return "", false
		}
	}
	return strings.Join(lines, "\n"), true
}

// hasRawString reports whether a raw string literal spans lines between
// pos and end: reindenting would change its value.
func hasRawString(ed *fixedit.Editor, pos, end token.Pos) bool {
	file := ed.File(pos)
	found := false
	ast.Inspect(file, func(n ast.Node) bool {
		if found || n == nil || n.End() < pos || n.Pos() > end {
			return false
		}
		if lit, ok := n.(*ast.BasicLit); ok && lit.Kind == token.STRING && strings.HasPrefix(lit.Value, "`") && strings.Contains(lit.Value, "\n") {
			found = true
		}
		return true
	})
	return found
}

// nilTest returns err of err == nil (or nil == err).
func nilTest(cond ast.Expr) *ast.Ident {
	b, ok := ast.Unparen(cond).(*ast.BinaryExpr)
	if !ok || b.Op != token.EQL {
		return nil
	}
	x, y := ast.Unparen(b.X), ast.Unparen(b.Y)
	if isNilIdent(x) {
		x, y = y, x
	}
	id, ok := x.(*ast.Ident)
	if !ok || !isNilIdent(y) {
		return nil
	}
	return id
}

func isNilIdent(e ast.Expr) bool {
	id, ok := e.(*ast.Ident)
	return ok && id.Name == "nil"
}

// leavesLoop reports whether st has a break or continue of the loop
// around it, a goto, or a labelled branch.
func leavesLoop(st ast.Stmt) bool {
	found := false
	var walk func(n ast.Node, inLoop, inSwitch bool)
	walk = func(n ast.Node, inLoop, inSwitch bool) {
		ast.Inspect(n, func(c ast.Node) bool {
			if found || c == nil {
				return false
			}
			switch c := c.(type) {
			case *ast.FuncLit:
				return false
			case *ast.ForStmt, *ast.RangeStmt:
				if c != n {
					walk(c, true, inSwitch)
					return false
				}
			case *ast.SwitchStmt, *ast.TypeSwitchStmt, *ast.SelectStmt:
				if c != n {
					walk(c, inLoop, true)
					return false
				}
			case *ast.BranchStmt:
				switch {
				case c.Label != nil || c.Tok == token.GOTO:
					found = true
				case c.Tok == token.CONTINUE && !inLoop:
					found = true
				case c.Tok == token.BREAK && !inLoop && !inSwitch:
					found = true
				}
			}
			return true
		})
	}
	walk(st, false, false)
	return found
}

// mentions reports whether n refers to obj.
func mentions(info *types.Info, n ast.Node, obj types.Object) bool {
	found := false
	ast.Inspect(n, func(c ast.Node) bool {
		if id, ok := c.(*ast.Ident); ok && info.Uses[id] == obj {
			found = true
		}
		return !found
	})
	return found
}

func inside(n ast.Node, p token.Pos) bool { return n.Pos() <= p && p < n.End() }

func isError(t types.Type) bool {
	return t != nil && types.Identical(t, types.Universe.Lookup("error").Type())
}

func isInt(t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Info()&types.IsInteger != 0
}
