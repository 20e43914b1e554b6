// Package oneshot judges whether a package is a one-shot tool's or a
// service's, in one place for the analyzers that need to know: a hang in
// a tool the user started, and can interrupt, is not an outage, so
// notimeout reports in a tool's package only with -notimeout.main.
//
// A package is a tool's when it is package main, or defines the commands
// of a CLI framework (cobra, urfave/cli, kong) none of which serves, and
// it starts no server (a serve call that only exposes the profiler does
// not count).
package oneshot

import (
	"go/ast"
	"go/types"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ast/inspector"

	"github.com/resilvet/resilvet/internal/analysisutil"
	"github.com/resilvet/resilvet/internal/knowledge"
)

// Tool reports whether the package is a one-shot tool's: package main,
// or the commands of a CLI framework wherever they live, when it starts
// no server.
func Tool(pass *analysis.Pass, ins *inspector.Inspector) bool {
	return (pass.Pkg.Name() == "main" || definesCommands(pass)) && !startsServer(pass, ins)
}

// startsServer reports whether the package starts a server: its main is
// then a service, not a one-shot tool.
func startsServer(pass *analysis.Pass, ins *inspector.Inspector) bool {
	for cur := range ins.Root().Preorder((*ast.CallExpr)(nil)) {
		call := cur.Node().(*ast.CallExpr)
		fn := analysisutil.CalleeFunc(pass.TypesInfo, call)
		if fn == nil || !knowledge.IsServe(fn.FullName()) {
			continue
		}
		if debugServer(pass, call, fn) {
			continue
		}
		return true
	}
	return false
}

// debugServer reports whether a serve call only exposes net/http/pprof:
// http.ListenAndServe(addr, nil) serves DefaultServeMux, and a package
// that imports net/http/pprof and registers nothing on it serves the
// profiler, a debug aid of a tool (gobgp's --pprof-port), not a service.
func debugServer(pass *analysis.Pass, call *ast.CallExpr, fn *types.Func) bool {
	if fn.FullName() != "net/http.ListenAndServe" || len(call.Args) != 2 || !isNil(pass, call.Args[1]) {
		return false
	}
	pprof := false
	for _, f := range pass.Files {
		for _, spec := range f.Imports {
			pprof = pprof || spec.Path.Value == `"net/http/pprof"`
		}
	}
	if !pprof {
		return false
	}
	for _, obj := range pass.TypesInfo.Uses {
		if f, ok := obj.(*types.Func); ok && (f.FullName() == "net/http.Handle" || f.FullName() == "net/http.HandleFunc") {
			return false
		}
	}
	return true
}

func isNil(pass *analysis.Pass, e ast.Expr) bool {
	tv, ok := pass.TypesInfo.Types[e]
	return ok && tv.IsNil()
}
