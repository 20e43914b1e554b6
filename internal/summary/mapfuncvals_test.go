package summary_test

import (
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/resilvet/resilvet/internal/resilvettest"
	"github.com/resilvet/resilvet/internal/summary"
)

// TestMapFuncValueClaims checks the claims by which the map follows a
// handler registered through an adapter: what each registration passes
// (the adapter's call with the handler given, or why the value cannot be
// named), what each adapter returns (its closure, made with the handler
// it was given), and the closure's call of that captured handler, with
// the request it passes (a timeout middleware's is bounded).
func TestMapFuncValueClaims(t *testing.T) {
	analysistest.Run(t, resilvettest.TestData(), funcValueReporter(), "resilmap/adapter", "resilmap/adaptermw")
}

// funcValueReporter reports the func value claims of a map of the module
// resilmap: its packages' adapters are followed, others' are not.
func funcValueReporter() *analysis.Analyzer {
	sum := summary.New(func() summary.Config { return summary.Config{Map: true, MapModule: "resilmap"} })
	return &analysis.Analyzer{
		Name:     "mapfuncvals",
		Doc:      "reports the summary's func value claims, for tests",
		Requires: []*analysis.Analyzer{sum},
		Run: func(pass *analysis.Pass) (any, error) {
			res := pass.ResultOf[sum].(*summary.Result)
			for _, en := range res.MapEntries() {
				if en.Handler != nil {
					pass.Reportf(posOf(pass, en.At), "entry %q handler=%s", en.Name, funcValueText(*en.Handler))
				}
			}
			for _, f := range res.MapFuncs() {
				if f.Returns != nil {
					pass.Reportf(posOf(pass, f.Pos), "returns %s", funcValueText(*f.Returns))
				}
				for _, e := range f.Edges {
					if e.Callee != "" {
						continue
					}
					var args []string
					for _, a := range e.Args {
						args = append(args, a.Bound.Of+"="+boundText(a.Bound))
					}
					pass.Reportf(posOf(pass, e.At), "runs captured#%d %s", e.Captured, strings.Join(args, " "))
				}
			}
			return nil, nil
		},
	}
}
