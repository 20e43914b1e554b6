package hedgeidem

import (
	"go/ast"
	"go/token"
	"go/version"
	"strconv"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ast/astutil"

	"github.com/resilvet/resilvet/internal/fixedit"
)

// defaultKeyHeader is the header the fix sets unless configured.
const defaultKeyHeader = "Idempotency-Key"

// keyFix returns the fix setting an idempotency key header on the
// request built by the call whose opening parenthesis is at lparen:
// req, err := http.NewRequest…(…) followed by its error check gets
// req.Header.Set(key, value) after the check, once per operation, so
// every copy and attempt sends the same key. The key comes from the
// runtime's hedge.NewIdempotencyKey where the package already reaches
// the runtime (its module requires it), else from crypto/rand.Text where
// the file's Go version has it (1.24); no fix otherwise.
func keyFix(ed *fixedit.Editor, lparen token.Pos, header string) *analysis.SuggestedFix {
	file := ed.File(lparen)
	if file == nil {
		return nil
	}
	path, _ := astutil.PathEnclosingInterval(file, lparen, lparen)
	var assign *ast.AssignStmt
	var block *ast.BlockStmt
	for i, n := range path {
		if a, ok := n.(*ast.AssignStmt); ok && assign == nil {
			assign = a
			if i+1 < len(path) {
				block, _ = path[i+1].(*ast.BlockStmt)
			}
			break
		}
	}
	if assign == nil || block == nil || len(assign.Rhs) != 1 || len(assign.Lhs) == 0 {
		return nil
	}
	if call, ok := assign.Rhs[0].(*ast.CallExpr); !ok || call.Lparen != lparen {
		return nil
	}
	req, ok := assign.Lhs[0].(*ast.Ident)
	if !ok || req.Name == "_" {
		return nil
	}
	// After the error check that follows, when there is one: the request
	// is nil when building it failed.
	var after ast.Stmt = assign
	for i, s := range block.List {
		if s != assign {
			continue
		}
		if i+1 < len(block.List) {
			if ifs, ok := block.List[i+1].(*ast.IfStmt); ok && checksErr(ifs, assign) {
				after = ifs
			}
		}
	}
	if header == "" {
		header = defaultKeyHeader
	}
	var key, name string
	var imports []string
	switch {
	case ed.RuntimeReachable():
		n, add, ok := ed.ImportName(file, fixedit.RuntimeModule+"/hedge", after.End())
		if !ok {
			return nil
		}
		name, imports = n, add
		key = name + ".NewIdempotencyKey()"
		if header == defaultKeyHeader {
			header = name + ".IdempotencyKeyHeader"
		} else {
			header = strconv.Quote(header)
		}
	case goVersionAtLeast(ed, file, "go1.24"):
		n, add, ok := ed.ImportName(file, "crypto/rand", after.End())
		if !ok {
			return nil
		}
		name, imports = n, add
		key = name + ".Text()"
		header = strconv.Quote(header)
	default:
		return nil
	}
	edits, ok := ed.ImportEdits(file, imports)
	if !ok {
		return nil
	}
	indent := ed.Indent(assign.Pos())
	line := "\n" + indent + req.Name + ".Header.Set(" + header + ", " + key + ")"
	edits = append(edits, analysis.TextEdit{Pos: after.End(), End: after.End(), NewText: []byte(line)})
	return &analysis.SuggestedFix{
		Message:   "set an idempotency key header on the request, once for every copy and attempt",
		TextEdits: edits,
	}
}

// checksErr reports whether an if statement tests the error the
// assignment sets (if err != nil { … }).
func checksErr(ifs *ast.IfStmt, assign *ast.AssignStmt) bool {
	if len(assign.Lhs) < 2 {
		return false
	}
	errID, ok := assign.Lhs[len(assign.Lhs)-1].(*ast.Ident)
	if !ok {
		return false
	}
	be, ok := ifs.Cond.(*ast.BinaryExpr)
	if !ok || be.Op != token.NEQ {
		return false
	}
	x, ok := be.X.(*ast.Ident)
	return ok && x.Name == errID.Name
}

// goVersionAtLeast reports whether the file is compiled at Go version v
// or later.
func goVersionAtLeast(ed *fixedit.Editor, file *ast.File, v string) bool {
	fv := ed.Pass.TypesInfo.FileVersions[file]
	if fv == "" && ed.Pass.Module != nil && ed.Pass.Module.GoVersion != "" {
		fv = "go" + ed.Pass.Module.GoVersion
	}
	return fv != "" && version.Compare(fv, v) >= 0
}
