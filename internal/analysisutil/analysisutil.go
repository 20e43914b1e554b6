// Package analysisutil holds the small helpers every resilvet analyzer
// needs: recognising context and request types, naming functions the way
// source code does, telling standard-library packages apart, and the
// documentation conventions shared by the analyzers.
package analysisutil

import (
	"go/ast"
	"go/build"
	"go/token"
	"go/types"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"

	"golang.org/x/tools/go/analysis"
)

// DocsURL is the base of the per-analyzer documentation pages.
const DocsURL = "https://github.com/resilvet/resilvet/blob/main/docs/analyzers/"

// IsContext reports whether t is context.Context.
func IsContext(t types.Type) bool {
	return isNamed(t, "context", "Context")
}

// ImplementsContext reports whether values of t are contexts without t
// being context.Context itself: a framework's request context
// (*gin.Context), a struct embedding context.Context. It checks the
// method set for context.Context's four methods with their arities, so it
// needs no context.Context object at hand.
func ImplementsContext(t types.Type) bool {
	if IsContext(t) {
		return false
	}
	ms := types.NewMethodSet(t)
	for _, m := range []struct {
		name            string
		params, results int
	}{{"Deadline", 0, 2}, {"Done", 0, 1}, {"Err", 0, 1}, {"Value", 1, 1}} {
		sel := ms.Lookup(nil, m.name)
		if sel == nil {
			return false
		}
		sig, ok := sel.Type().(*types.Signature)
		if !ok || sig.Params().Len() != m.params || sig.Results().Len() != m.results {
			return false
		}
	}
	return true
}

// IsDeferredWork reports whether a value of type t (or the first of a
// tuple) is work to be run later: an *http.Request, an *exec.Cmd, or any
// named type whose name says it is a request or a command. Whoever gets
// it may still give it a context.
func IsDeferredWork(t types.Type) bool {
	if tup, ok := t.(*types.Tuple); ok {
		if tup.Len() == 0 {
			return false
		}
		t = tup.At(0).Type()
	}
	if p, ok := types.Unalias(t).(*types.Pointer); ok {
		t = p.Elem()
	}
	n, ok := types.Unalias(t).(*types.Named)
	if !ok {
		return false
	}
	name := n.Obj().Name()
	return strings.HasSuffix(name, "Request") || strings.HasSuffix(name, "Cmd") || strings.HasSuffix(name, "Command")
}

// IsSQLTxOrStmt reports whether t is *database/sql.Tx or *database/sql.Stmt
// (or the struct itself), or pgx's Tx.
func IsSQLTxOrStmt(t types.Type) bool {
	if p, ok := types.Unalias(t).(*types.Pointer); ok {
		t = p.Elem()
	}
	return isNamed(t, "database/sql", "Tx") || isNamed(t, "database/sql", "Stmt") ||
		isNamed(t, "github.com/jackc/pgx/v5", "Tx") || isNamed(t, "github.com/jackc/pgx/v4", "Tx")
}

// IsSQLHandle reports whether t is a database/sql handle: *DB, *Conn,
// *Tx or *Stmt.
func IsSQLHandle(t types.Type) bool {
	p, ok := types.Unalias(t).(*types.Pointer)
	if !ok {
		return false
	}
	for _, name := range []string{"DB", "Conn", "Tx", "Stmt"} {
		if isNamed(p.Elem(), "database/sql", name) {
			return true
		}
	}
	return false
}

// IsHTTPRequestPtr reports whether t is *net/http.Request.
func IsHTTPRequestPtr(t types.Type) bool {
	p, ok := types.Unalias(t).(*types.Pointer)
	return ok && isNamed(p.Elem(), "net/http", "Request")
}

// IsHTTPClientPtr reports whether t is *net/http.Client.
func IsHTTPClientPtr(t types.Type) bool {
	p, ok := types.Unalias(t).(*types.Pointer)
	return ok && isNamed(p.Elem(), "net/http", "Client")
}

// IsDuration reports whether t is time.Duration.
func IsDuration(t types.Type) bool { return isNamed(t, "time", "Duration") }

// IsCancelFunc reports whether t is context.CancelFunc.
func IsCancelFunc(t types.Type) bool { return isNamed(t, "context", "CancelFunc") }

func isNamed(t types.Type, pkg, name string) bool {
	n, ok := types.Unalias(t).(*types.Named)
	if !ok {
		return false
	}
	obj := n.Obj()
	return obj.Name() == name && obj.Pkg() != nil && obj.Pkg().Path() == pkg
}

// ContextParam returns the index of the first context.Context parameter
// of sig, or -1.
func ContextParam(sig *types.Signature) int {
	for i := range sig.Params().Len() {
		if IsContext(sig.Params().At(i).Type()) {
			return i
		}
	}
	return -1
}

// RequestParam returns the index of the first *http.Request parameter of
// sig, or -1.
func RequestParam(sig *types.Signature) int {
	for i := range sig.Params().Len() {
		if IsHTTPRequestPtr(sig.Params().At(i).Type()) {
			return i
		}
	}
	return -1
}

// TakesContext reports whether sig has a context.Context or *http.Request
// parameter, the two ways a caller's deadline reaches a function.
func TakesContext(sig *types.Signature) bool {
	return ContextParam(sig) >= 0 || RequestParam(sig) >= 0
}

// HasContextValueParam reports whether sig has a parameter whose type is
// a context, implements context.Context (*gin.Context, a struct embedding
// one) or is an *http.Request: a function given one has a context in
// scope, and ctxdrop judges a root it makes there, not at its callers.
func HasContextValueParam(sig *types.Signature) bool {
	for i := range sig.Params().Len() {
		t := sig.Params().At(i).Type()
		if IsContext(t) || ImplementsContext(t) || IsHTTPRequestPtr(t) {
			return true
		}
	}
	return false
}

// ReturnsContext reports whether the first result of sig is a context.
func ReturnsContext(sig *types.Signature) bool {
	return sig.Results().Len() > 0 && IsContext(sig.Results().At(0).Type())
}

// FuncName names fn as a Go programmer writes it: "http.Get",
// "sql.DB.Query", "lib.Client.Fetch". Function literals are never
// passed here; callers name them after their enclosing function.
func FuncName(fn *types.Func) string {
	fn = fn.Origin()
	pkg := ""
	if fn.Pkg() != nil {
		pkg = fn.Pkg().Name() + "."
	}
	sig, _ := fn.Type().(*types.Signature)
	if sig == nil || sig.Recv() == nil {
		return pkg + fn.Name()
	}
	recv := sig.Recv().Type()
	if p, ok := recv.(*types.Pointer); ok {
		recv = p.Elem()
	}
	switch r := types.Unalias(recv).(type) {
	case *types.Named:
		return pkg + r.Obj().Name() + "." + fn.Name()
	case *types.Interface:
		return pkg + fn.Name()
	}
	return pkg + fn.Name()
}

// IsStd reports whether the package being analysed belongs to the
// standard library: its path has no dot in the first element and its
// files live under GOROOT. Checking both keeps dot-less module paths
// (module "app") out.
func IsStd(pass *analysis.Pass) bool {
	path := pass.Pkg.Path()
	first, _, _ := strings.Cut(path, "/")
	if strings.Contains(first, ".") || len(pass.Files) == 0 {
		return false
	}
	goroot := GOROOT()
	if goroot == "" {
		return false
	}
	name := pass.Fset.File(pass.Files[0].Pos()).Name()
	rel, err := filepath.Rel(filepath.Join(goroot, "src"), name)
	return err == nil && !strings.HasPrefix(rel, "..")
}

// IsStdPath reports whether an import path is the standard library's: no
// dot in its first element and a directory of that name in GOROOT/src. The
// shape alone is not enough: modules named without a dot ("myservice")
// are common in services, and GOPATH-mode code has such paths too.
func IsStdPath(path string) bool {
	first, _, _ := strings.Cut(path, "/")
	if strings.Contains(first, ".") || path == "main" || GOROOT() == "" {
		return false
	}
	stdDirs.Lock()
	defer stdDirs.Unlock()
	if v, ok := stdDirs.m[path]; ok {
		return v
	}
	fi, err := os.Stat(filepath.Join(GOROOT(), "src", filepath.FromSlash(path)))
	v := err == nil && fi.IsDir()
	stdDirs.m[path] = v
	return v
}

// GOROOT returns the Go root the analysed code's standard library comes
// from: the build's own, or, in a binary built with -trimpath (a gopls or
// golangci-lint build carries none), the go command's. Empty when neither
// is known.
func GOROOT() string {
	gorootOnce.Do(func() {
		goroot = build.Default.GOROOT
		if goroot != "" {
			return
		}
		if out, err := exec.Command("go", "env", "GOROOT").Output(); err == nil {
			goroot = strings.TrimSpace(string(out))
		}
	})
	return goroot
}

var (
	gorootOnce sync.Once
	goroot     string
)

var stdDirs = struct {
	sync.Mutex
	m map[string]bool
}{m: map[string]bool{}}

// ShortPos renders pos as "file.go:line:col" with the base name only, for
// evidence stored in facts: stable across machines and small.
func ShortPos(fset *token.FileSet, pos token.Pos) string {
	p := fset.Position(pos)
	if !p.IsValid() {
		return "?"
	}
	p.Filename = filepath.Base(p.Filename)
	return p.String()
}

// LineOf trims the column from a "file.go:line:col" position, as messages
// name a place in another file.
func LineOf(at string) string {
	if strings.Count(at, ":") >= 2 {
		return at[:strings.LastIndexByte(at, ':')]
	}
	return at
}

// CalleeFunc returns the statically known function or method called, with
// generic instantiations mapped to their origin, or nil for dynamic calls,
// builtins and conversions.
func CalleeFunc(info *types.Info, call *ast.CallExpr) *types.Func {
	fn, _ := calleeObject(info, call).(*types.Func)
	if fn == nil {
		return nil
	}
	return fn.Origin()
}

// Beside returns the function or method named name beside fn, as code in
// package from sees it: a method of recv, fn's receiver type (nil for a
// function), or a function of fn's package, exported or declared in
// from; nil if there is none. The rules for context-taking alternatives
// (ctxdrop's twins by name, the engine's ContextAlternative) look their
// candidates up with it.
func Beside(fn *types.Func, recv types.Type, from *types.Package, name string) *types.Func {
	var obj types.Object
	if recv != nil {
		obj, _, _ = types.LookupFieldOrMethod(recv, true, from, name)
	} else if fn.Pkg() != nil {
		obj = fn.Pkg().Scope().Lookup(name)
		if obj != nil && !obj.Exported() && fn.Pkg() != from {
			obj = nil
		}
	}
	f, _ := obj.(*types.Func)
	return f
}

// calleeObject resolves the called object, including interface methods
// (which typeutil.StaticCallee omits): knowledge about an interface
// method such as slog.Handler.Handle holds for every implementation.
func calleeObject(info *types.Info, call *ast.CallExpr) types.Object {
	fun := ast.Unparen(call.Fun)
	switch f := fun.(type) {
	case *ast.IndexExpr:
		fun = ast.Unparen(f.X)
	case *ast.IndexListExpr:
		fun = ast.Unparen(f.X)
	}
	switch f := fun.(type) {
	case *ast.Ident:
		return info.Uses[f]
	case *ast.SelectorExpr:
		if sel, ok := info.Selections[f]; ok {
			return sel.Obj()
		}
		return info.Uses[f.Sel]
	}
	return nil
}

// FindImport returns the first package in pkg's import closure (pkg
// included) whose path satisfies match, or nil. The analyzers use it as an
// import-graph fast path and to find the types a package can reach.
func FindImport(pkg *types.Package, match func(path string) bool) *types.Package {
	seen := map[*types.Package]bool{}
	var visit func(p *types.Package) *types.Package
	visit = func(p *types.Package) *types.Package {
		if seen[p] {
			return nil
		}
		seen[p] = true
		if match(p.Path()) {
			return p
		}
		for _, q := range p.Imports() {
			if found := visit(q); found != nil {
				return found
			}
		}
		return nil
	}
	return visit(pkg)
}

// ReadFile returns the contents of a file of the package under analysis:
// through pass.ReadFile where the driver provides it (it may serve
// overlays, as gopls does), else from disk, for drivers that predate it
// (staticcheck's runner leaves it nil).
func ReadFile(pass *analysis.Pass, name string) ([]byte, error) {
	if pass.ReadFile != nil {
		return pass.ReadFile(name)
	}
	return os.ReadFile(name)
}

// FuncType returns the signature of a function declaration or literal,
// or nil for any other node.
func FuncType(n ast.Node) *ast.FuncType {
	switch n := n.(type) {
	case *ast.FuncDecl:
		return n.Type
	case *ast.FuncLit:
		return n.Type
	}
	return nil
}

// FuncBody returns the body of a function declaration or literal, or nil
// for any other node (and for a declaration without one).
func FuncBody(n ast.Node) *ast.BlockStmt {
	switch n := n.(type) {
	case *ast.FuncDecl:
		return n.Body
	case *ast.FuncLit:
		return n.Body
	}
	return nil
}

// CallsByLparen maps the package's calls by their opening parenthesis:
// the engine knows a call by it (ssa's CallCommon.Pos), and reports are
// made on the whole call, as editors underline it.
func CallsByLparen(pass *analysis.Pass) map[token.Pos]*ast.CallExpr {
	out := map[token.Pos]*ast.CallExpr{}
	for _, f := range pass.Files {
		ast.Inspect(f, func(n ast.Node) bool {
			if c, ok := n.(*ast.CallExpr); ok {
				out[c.Lparen] = c
			}
			return true
		})
	}
	return out
}
