package notimeout

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"sort"
	"strconv"
	"strings"
	"time"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ast/inspector"

	"github.com/resilvet/resilvet/internal/analysisutil"
)

// fixer builds suggested fixes. Every edit leaves the file gofmt-clean as
// is (gopls applies edits verbatim) and the package compiling.
type fixer struct {
	pass    *analysis.Pass
	timeout time.Duration
}

func newFixer(pass *analysis.Pass, timeout time.Duration) *fixer {
	return &fixer{pass: pass, timeout: timeout}
}

const (
	runtimeModule = "github.com/resilvet/resilvet/runtime"
	deadlinePath  = runtimeModule + "/deadline"
)

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
	file := f.file(lit.Pos())
	if file == nil {
		return
	}
	timeName, need, ok := f.importName(file, "time", lit.Pos())
	if !ok {
		return
	}
	value := durationText(timeName, f.timeout, " ")
	var edit analysis.TextEdit
	switch {
	case len(lit.Elts) == 0:
		edit = analysis.TextEdit{Pos: lit.Lbrace + 1, End: lit.Lbrace + 1, NewText: []byte("Timeout: " + value)}
	case f.line(lit.Elts[0].Pos()) == f.line(lit.Lbrace):
		edit = analysis.TextEdit{Pos: lit.Elts[0].Pos(), End: lit.Elts[0].Pos(), NewText: []byte("Timeout: " + value + ", ")}
	default:
		// One field per line: a line of its own at the end, padded to the
		// column gofmt aligns the values of the block at.
		last := lit.Elts[len(lit.Elts)-1]
		if f.line(lit.Rbrace) == f.line(last.End()) || hasComments(file, lit) {
			return
		}
		pad, ok := f.alignment(lit, len("Timeout"))
		if !ok {
			return
		}
		indent := f.indent(lit.Elts[0].Pos())
		edit = analysis.TextEdit{Pos: f.lineStart(lit.Rbrace), End: f.lineStart(lit.Rbrace), NewText: []byte(indent + "Timeout:" + pad + value + ",\n")}
	}
	edits := []analysis.TextEdit{edit}
	imps, ok := f.importEdits(file, need)
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
	file := f.file(call.Pos())
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
func (f *fixer) ensure(d *analysis.Diagnostic, root inspector.Cursor) {
	fn, ok := enclosingFunc(root)
	if !ok || f.inLoop(root, fn) || f.declares(fn, "cancel") {
		return
	}
	file := f.file(root.Node().Pos())
	if file == nil {
		return
	}
	timeName, needTime, ok := f.importName(file, "time", root.Node().Pos())
	if !ok {
		return
	}
	// The runtime's deadline.Ensure when the package can already import
	// the runtime (its module requires it); context.WithTimeout otherwise,
	// so the fix compiles as emitted. On a root context, which has no
	// deadline to keep, the two are the same.
	var bounded, fixName string
	var needDeadline []string
	rootText := f.text(root.Node())
	if f.runtimeReachable() {
		dlName, need, ok := f.importName(file, deadlinePath, root.Node().Pos())
		if !ok {
			return
		}
		needDeadline = need
		bounded = fmt.Sprintf("%s.Ensure(%s, %s)", dlName, rootText, durationText(timeName, f.timeout, ""))
		fixName = "deadline.Ensure"
	} else {
		ctxName, need, ok := f.importName(file, "context", root.Node().Pos())
		if !ok || len(need) > 0 {
			return
		}
		bounded = fmt.Sprintf("%s.WithTimeout(%s, %s)", ctxName, rootText, durationText(timeName, f.timeout, ""))
		fixName = "context.WithTimeout"
	}
	var edits []analysis.TextEdit
	stmt, ok := statementOf(root, fn)
	if !ok {
		return
	}
	indent := f.indent(stmt.Node().Pos())
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
		if f.declares(fn, "ctx") || f.hasComment(stmt.Node()) {
			return
		}
		edits = []analysis.TextEdit{
			{Pos: stmt.Node().Pos(), End: stmt.Node().Pos(), NewText: []byte("ctx, cancel := " + bounded + "\n" + indent + "defer cancel()\n" + indent)},
			{Pos: root.Node().Pos(), End: root.Node().End(), NewText: []byte("ctx")},
		}
	}
	imps, ok := f.importEdits(file, append(needTime, needDeadline...))
	if !ok {
		return
	}
	edits = append(edits, imps...)
	d.SuggestedFixes = []analysis.SuggestedFix{{
		Message:   "Bound the context with " + fixName + "(…, " + durationText("time", f.timeout, "") + ")",
		TextEdits: edits,
	}}
}

// runtimeReachable reports whether the package imports, directly or not,
// a package of the resilvet runtime: its module then requires the runtime,
// and an import of runtime/deadline compiles.
func (f *fixer) runtimeReachable() bool {
	return analysisutil.FindImport(f.pass.Pkg, func(path string) bool { return strings.HasPrefix(path, runtimeModule) }) != nil
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

// importName returns the name under which file imports path, and the
// path again when the file does not import it yet. It fails when the name
// would clash with another identifier visible at pos.
func (f *fixer) importName(file *ast.File, path string, pos token.Pos) (string, []string, bool) {
	name := path[strings.LastIndex(path, "/")+1:]
	for _, is := range file.Imports {
		p, _ := strconv.Unquote(is.Path.Value)
		if p != path {
			continue
		}
		if is.Name != nil {
			if is.Name.Name == "_" || is.Name.Name == "." {
				return "", nil, false
			}
			return is.Name.Name, nil, true
		}
		return name, nil, true
	}
	if scope := f.pass.TypesInfo.Scopes[file]; scope != nil {
		if scope.Lookup(name) != nil {
			return "", nil, false
		}
		if inner := scope.Innermost(pos); inner != nil {
			if _, obj := inner.LookupParent(name, pos); obj != nil {
				return "", nil, false
			}
		}
	}
	if f.pass.Pkg.Scope().Lookup(name) != nil {
		return "", nil, false
	}
	return name, []string{path}, true
}

// importEdits returns the edits adding paths to the file's imports, each
// in the run gofmt keeps it sorted in: with the standard library or with
// the module paths.
func (f *fixer) importEdits(file *ast.File, paths []string) ([]analysis.TextEdit, bool) {
	if len(paths) == 0 {
		return nil, true
	}
	var group *ast.GenDecl
	for _, decl := range file.Decls {
		if gd, ok := decl.(*ast.GenDecl); ok && gd.Tok == token.IMPORT {
			if gd.Lparen.IsValid() {
				group = gd
				break
			}
			if group == nil {
				group = gd
			}
		}
	}
	if group == nil || !group.Lparen.IsValid() {
		// No import group: write one with every spec.
		var specs []string
		pos, end := file.Name.End(), file.Name.End()
		prefix := "\n\n"
		if group != nil {
			if len(group.Specs) != 1 || group.Doc != nil {
				return nil, false
			}
			is := group.Specs[0].(*ast.ImportSpec)
			if is.Comment != nil {
				return nil, false
			}
			specs = append(specs, f.text(is))
			pos, end, prefix = group.Pos(), group.End(), ""
		}
		for _, p := range paths {
			specs = append(specs, strconv.Quote(p))
		}
		return []analysis.TextEdit{{Pos: pos, End: end, NewText: []byte(prefix + importBlock(specs))}}, true
	}
	// Runs of specs separated by blank lines; gofmt sorts within a run.
	var runs [][]*ast.ImportSpec
	prevLine := -1
	for _, s := range group.Specs {
		is := s.(*ast.ImportSpec)
		if is.Doc != nil || is.Comment != nil {
			return nil, false
		}
		line := f.line(is.Pos())
		if prevLine < 0 || line > prevLine+1 {
			runs = append(runs, nil)
		}
		runs[len(runs)-1] = append(runs[len(runs)-1], is)
		prevLine = line
	}
	var edits []analysis.TextEdit
	// One edit per import, in order: two fixes that both add "time"
	// make the same edit, which drivers apply once.
	insert := func(at token.Pos, text string) {
		edits = append(edits, analysis.TextEdit{Pos: at, End: at, NewText: []byte(text)})
	}
	for _, path := range paths {
		quoted := strconv.Quote(path)
		std := isStdPath(path)
		if len(runs) == 0 {
			insert(group.Lparen+1, "\n\t"+quoted)
			continue
		}
		var run []*ast.ImportSpec
		for _, r := range runs {
			allStd := true
			for _, is := range r {
				allStd = allStd && isStdSpec(is)
			}
			if allStd == std && (run == nil || !std) {
				run = r
			}
		}
		switch {
		case run == nil && std:
			insert(f.lineStart(runs[0][0].Pos()), "\t"+quoted+"\n\n")
		case run == nil:
			insert(group.Specs[len(group.Specs)-1].End(), "\n\n\t"+quoted)
		default:
			placed := false
			for _, is := range run {
				if importPath(is.Path.Value) > path {
					insert(f.lineStart(is.Pos()), "\t"+quoted+"\n")
					placed = true
					break
				}
			}
			if !placed {
				insert(run[len(run)-1].End(), "\n\t"+quoted)
			}
		}
	}
	return edits, true
}

// importBlock formats an import declaration of the specs: the standard
// library first, then a blank line and the module paths, each run sorted.
func importBlock(specs []string) string {
	var std, mod []string
	for _, s := range specs {
		if isStdPath(importPath(s)) {
			std = append(std, s)
		} else {
			mod = append(mod, s)
		}
	}
	byPath := func(ss []string) {
		sort.Slice(ss, func(i, j int) bool { return importPath(ss[i]) < importPath(ss[j]) })
	}
	byPath(std)
	byPath(mod)
	if len(specs) == 1 {
		return "import " + specs[0]
	}
	var b strings.Builder
	b.WriteString("import (\n")
	for _, s := range std {
		b.WriteString("\t" + s + "\n")
	}
	if len(std) > 0 && len(mod) > 0 {
		b.WriteString("\n")
	}
	for _, s := range mod {
		b.WriteString("\t" + s + "\n")
	}
	b.WriteString(")")
	return b.String()
}

func isStdPath(p string) bool { return !strings.Contains(strings.Split(p, "/")[0], ".") }

func importPath(spec string) string {
	i := strings.Index(spec, `"`)
	if i < 0 {
		return spec
	}
	p, _ := strconv.Unquote(spec[i:])
	return p
}

func isStdSpec(is *ast.ImportSpec) bool {
	p, _ := strconv.Unquote(is.Path.Value)
	return isStdPath(p)
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
	prevLine := f.line(lit.Lbrace)
	for _, e := range lit.Elts {
		kv, ok := e.(*ast.KeyValueExpr)
		if !ok || f.line(kv.Pos()) != prevLine+1 || f.line(kv.End()) != f.line(kv.Pos()) {
			return "", false
		}
		prevLine = f.line(kv.Pos())
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

func hasComments(file *ast.File, n ast.Node) bool {
	for _, cg := range file.Comments {
		if cg.Pos() >= n.Pos() && cg.End() <= n.End() {
			return true
		}
	}
	return false
}

func (f *fixer) hasComment(n ast.Node) bool {
	file := f.file(n.Pos())
	return file != nil && hasComments(file, n)
}

func (f *fixer) file(pos token.Pos) *ast.File {
	for _, file := range f.pass.Files {
		if file.FileStart <= pos && pos <= file.FileEnd {
			return file
		}
	}
	return nil
}

func (f *fixer) line(pos token.Pos) int { return f.pass.Fset.Position(pos).Line }

func (f *fixer) lineStart(pos token.Pos) token.Pos {
	tf := f.pass.Fset.File(pos)
	return tf.LineStart(tf.Line(pos))
}

// indent returns the whitespace before pos on its line.
func (f *fixer) indent(pos token.Pos) string {
	src := f.source(pos)
	tf := f.pass.Fset.File(pos)
	start := tf.Offset(f.lineStart(pos))
	end := tf.Offset(pos)
	if src == nil || end > len(src) {
		return "\t"
	}
	s := string(src[start:end])
	if strings.TrimLeft(s, " \t") != "" {
		return "\t"
	}
	return s
}

func (f *fixer) text(n ast.Node) string {
	src := f.source(n.Pos())
	tf := f.pass.Fset.File(n.Pos())
	if src == nil {
		return ""
	}
	return string(src[tf.Offset(n.Pos()):tf.Offset(n.End())])
}

func (f *fixer) source(pos token.Pos) []byte {
	tf := f.pass.Fset.File(pos)
	if tf == nil {
		return nil
	}
	b, err := analysisutil.ReadFile(f.pass, tf.Name())
	if err != nil {
		return nil
	}
	return b
}
