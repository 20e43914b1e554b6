package ctxdrop_test

import (
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/passes/inspect"

	"github.com/resilvet/resilvet/analyzers/ctxdrop"
	"github.com/resilvet/resilvet/analyzers/notimeout"
	"github.com/resilvet/resilvet/internal/ctxverdict"
	"github.com/resilvet/resilvet/internal/resilvettest"
	"github.com/resilvet/resilvet/internal/summary"
)

// FuzzCtxdrop feeds arbitrary Go source to the summary and ctxdrop
// analyzers, including code that does not type-check, and requires that
// they never panic: an analyzer that meets something it does not
// understand stays silent. Seeds are the analyzer's own fixtures that
// import only the standard library.
func FuzzCtxdrop(f *testing.F) {
	for _, dir := range []string{"basic", "closures", "onlyimport"} {
		matches, _ := filepath.Glob(filepath.Join(resilvettest.TestData(), "src", "ctxdrop", dir, "*.go"))
		for _, m := range matches {
			src, err := os.ReadFile(m)
			if err != nil {
				f.Fatal(err)
			}
			f.Add(string(src))
		}
	}
	f.Add("package p\nimport \"context\"\nfunc f(ctx context.Context) { var x = context.Background; g(x()) }\nfunc g(context.Context) {}")
	f.Add("package p\nimport \"context\"\nfunc f(ctx context.Context) { for range ctx.Done() { h(context.TODO()) } }\nfunc h(...context.Context) {}")
	// The effects and hedges modules: a retried POST keyed late, a
	// closure launched and started again by a timer.
	f.Add("package p\nimport (\"net/http\"; \"time\")\nfunc f(u string) { r, _ := http.NewRequest(\"POST\", u, nil); for i := 0; i < 3; i++ { if _, err := http.DefaultClient.Do(r); err == nil { break }; time.Sleep(1) }; r.Header.Set(\"Idempotency-Key\", \"k\") }")
	f.Add("package p\nimport (\"net/http\"; \"time\")\nfunc f(u string) { s := func() { http.Post(u, \"a\", nil) }; go s(); time.AfterFunc(time.Second, s) }")
	imp := importer.ForCompiler(token.NewFileSet(), "source", nil)
	f.Fuzz(func(t *testing.T, src string) {
		fset := token.NewFileSet()
		file, err := parser.ParseFile(fset, "p.go", src, parser.ParseComments|parser.SkipObjectResolution)
		if err != nil {
			return
		}
		for _, is := range file.Imports {
			// Keep imports cheap to type-check from source.
			switch is.Path.Value {
			case `"context"`, `"net/http"`, `"database/sql"`, `"log/slog"`, `"time"`, `"sync"`:
			default:
				return
			}
		}
		info := &types.Info{
			Types:      map[ast.Expr]types.TypeAndValue{},
			Defs:       map[*ast.Ident]types.Object{},
			Uses:       map[*ast.Ident]types.Object{},
			Implicits:  map[ast.Node]types.Object{},
			Selections: map[*ast.SelectorExpr]*types.Selection{},
			Scopes:     map[ast.Node]*types.Scope{},
			Instances:  map[*ast.Ident]types.Instance{},
		}
		var typeErrors []types.Error
		conf := types.Config{Importer: imp, Error: func(err error) {
			if te, ok := err.(types.Error); ok {
				typeErrors = append(typeErrors, te)
			}
		}}
		pkg, _ := conf.Check("p", fset, []*ast.File{file}, info)
		// Drivers give the analyzers the type errors; the summary builds
		// no SSA from ill-typed code.
		runAnalyzers(t, fset, file, pkg, info, typeErrors)
	})
}

// runAnalyzers runs inspect, summary, the verdicts, ctxdrop and
// notimeout on one type-checked file the way a driver would, without
// facts from other packages.
func runAnalyzers(t *testing.T, fset *token.FileSet, file *ast.File, pkg *types.Package, info *types.Info, typeErrors []types.Error) {
	results := map[*analysis.Analyzer]any{}
	order := []*analysis.Analyzer{inspect.Analyzer, summary.Analyzer, ctxverdict.Analyzer, ctxdrop.Analyzer, notimeout.Analyzer}
	for _, a := range order {
		pass := &analysis.Pass{
			Analyzer:          a,
			Fset:              fset,
			Files:             []*ast.File{file},
			Pkg:               pkg,
			TypesInfo:         info,
			TypeErrors:        typeErrors,
			TypesSizes:        types.SizesFor("gc", "amd64"),
			ResultOf:          results,
			Report:            func(analysis.Diagnostic) {},
			ReadFile:          func(string) ([]byte, error) { return nil, os.ErrNotExist },
			ImportObjectFact:  func(types.Object, analysis.Fact) bool { return false },
			ExportObjectFact:  func(types.Object, analysis.Fact) {},
			ImportPackageFact: func(*types.Package, analysis.Fact) bool { return false },
			ExportPackageFact: func(analysis.Fact) {},
			AllObjectFacts:    func() []analysis.ObjectFact { return nil },
			AllPackageFacts:   func() []analysis.PackageFact { return nil },
		}
		res, err := a.Run(pass)
		if err != nil {
			t.Fatalf("%s: %v", a.Name, err)
		}
		if a.ResultType != nil && reflect.TypeOf(res) != a.ResultType {
			t.Fatalf("%s: result type %T", a.Name, res)
		}
		results[a] = res
	}
}
