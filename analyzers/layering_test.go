package analyzers_test

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"

	"github.com/resilvet/resilvet/analyzers"
	"github.com/resilvet/resilvet/internal/ctxverdict"
	"github.com/resilvet/resilvet/internal/resilvettest"
)

const module = "github.com/resilvet/resilvet"

// TestNoAnalyzerImportsAnother: no package under analyzers/ imports,
// directly or through others, another package under analyzers/ or the
// registry; what two analyzers share lives under internal/, and the
// shared packages import no analyzer.
func TestNoAnalyzerImportsAnother(t *testing.T) {
	pkgs, err := packages.Load(&packages.Config{Mode: packages.NeedName | packages.NeedImports | packages.NeedDeps},
		module+"/analyzers/...", module+"/internal/ctxverdict", module+"/internal/oneshot", module+"/internal/summary")
	require.NoError(t, err)
	require.Zero(t, packages.PrintErrors(pkgs))
	checked := 0
	for _, p := range pkgs {
		if p.PkgPath == module+"/analyzers" {
			continue // the registry imports every analyzer
		}
		checked++
		packages.Visit([]*packages.Package{p}, nil, func(dep *packages.Package) {
			if dep != p && isAnalyzerPath(dep.PkgPath) {
				t.Errorf("%s imports %s", p.PkgPath, dep.PkgPath)
			}
		})
	}
	assert.GreaterOrEqual(t, checked, 7, "the four analyzers and the shared packages")
}

func isAnalyzerPath(path string) bool {
	return path == module+"/analyzers" || strings.HasPrefix(path, module+"/analyzers/")
}

// TestVerdictsOncePerPackage: ctxdrop and notimeout require one verdict
// analyzer, the one of the summary analyzer they share, so a run of both
// decides each package's verdicts once: one action of it per package,
// and the two reporting actions read that one.
func TestVerdictsOncePerPackage(t *testing.T) {
	var opts analyzers.Options
	var ctxdrop, notimeout *analysis.Analyzer
	for _, a := range analyzers.Suite(&opts) {
		switch a.Name {
		case "ctxdrop":
			ctxdrop = a
		case "notimeout":
			notimeout = a
		}
	}
	verdicts := verdictsOf(t, ctxdrop)
	assert.Same(t, verdicts, verdictsOf(t, notimeout))
	assert.Same(t, verdicts, ctxverdict.For(ctxdrop.Requires[len(ctxdrop.Requires)-1]), "one verdict analyzer per summary analyzer")
	assert.NotSame(t, ctxverdict.Analyzer, verdicts, "a suite's summary has its own")

	// The seam fixture, loaded as analysistest loads it.
	dir := filepath.Join(resilvettest.TestData(), "src")
	pkgs, err := packages.Load(&packages.Config{Mode: packages.LoadAllSyntax, Dir: dir,
		Env: append(os.Environ(), "GOPATH="+resilvettest.TestData(), "GO111MODULE=off", "GOPROXY=off", "GOWORK=off", "GOFLAGS=")}, "seam/handoff")
	require.NoError(t, err)
	require.Zero(t, packages.PrintErrors(pkgs))
	graph, err := checker.Analyze([]*analysis.Analyzer{ctxdrop, notimeout}, pkgs, nil)
	require.NoError(t, err)
	runs := map[string]int{}
	for act := range graph.All() {
		require.NoError(t, act.Err, act.String())
		if act.Analyzer == verdicts {
			runs[act.Package.PkgPath]++
		}
	}
	assert.Equal(t, map[string]int{"seam/handoff": 1}, runs, "verdict actions per package")
	read := map[*checker.Action]bool{}
	for _, root := range graph.Roots {
		for _, dep := range root.Deps {
			if dep.Analyzer == verdicts {
				read[dep] = true
			}
		}
	}
	assert.Len(t, read, 1, "ctxdrop and notimeout read one verdict action")
}

// verdictsOf returns the verdict analyzer a requires.
func verdictsOf(t *testing.T, a *analysis.Analyzer) *analysis.Analyzer {
	t.Helper()
	require.NotNil(t, a)
	for _, r := range a.Requires {
		if r.ResultType == reflect.TypeFor[*ctxverdict.Result]() {
			return r
		}
	}
	t.Fatalf("%s requires no verdict analyzer", a.Name)
	return nil
}
