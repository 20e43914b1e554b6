package summary

import (
	"go/ast"
	"go/types"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"

	"github.com/resilvet/resilvet/internal/knowledge"
)

// The summary builds SSA itself instead of requiring buildssa: buildssa
// runs on every package the summary runs on, dependencies included, and
// requires ctrlflow, whose facts make every run also analyse every
// function of every dependency for whether it returns. The summary needs
// SSA only for the packages it summarises, and for a standard-library
// package only when a reporting analyzer asks for its findings (std is
// never summarised for facts; see run), so building it here, on demand,
// is what keeps go vet's facts-only runs over std cheap.

// buildSSA builds the package's SSA and returns it with its source
// functions (closures after the function that makes them, in source
// order), the package initialiser and its closures last.
func buildSSA(pass *analysis.Pass) (*ssa.Package, []*ssa.Function) {
	prog := ssa.NewProgram(pass.Fset, 0)
	prog.SetNoReturn(noReturn)
	// Only direct imports need SSA packages: members of indirect ones
	// are created on demand by the builder from their types.
	for _, p := range pass.Pkg.Imports() {
		prog.CreatePackage(p, nil, nil, true)
	}
	pkg := prog.CreatePackage(pass.Pkg, pass.Files, pass.TypesInfo, false)
	pkg.Build()

	var funcs []*ssa.Function
	var add func(fn *ssa.Function)
	add = func(fn *ssa.Function) {
		funcs = append(funcs, fn)
		for _, anon := range fn.AnonFuncs {
			add(anon)
		}
	}
	for _, f := range pass.Files {
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok {
				continue
			}
			obj, ok := pass.TypesInfo.Defs[fd.Name].(*types.Func)
			if !ok {
				continue
			}
			if fn := prog.FuncValue(obj); fn != nil {
				add(fn)
			}
		}
	}
	return pkg, funcs
}

// noReturn tells the SSA builder which calls never return, so that code
// after log.Fatal is not a path: the knowledge table's functions, by
// full name. (ctrlflow would compute this for every function of every
// package; the table covers the calls that shape the engine's claims.)
func noReturn(fn *types.Func) bool {
	return knowledge.NeverReturns(fn.FullName())
}
