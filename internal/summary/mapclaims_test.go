package summary_test

import (
	"fmt"
	"go/token"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/resilvet/resilvet/internal/resilvettest"
	"github.com/resilvet/resilvet/internal/summary"
)

// TestMapClaims checks the resilience map's claims: entry points of every
// kind (route registrations, a gRPC service, main, a goroutine and a
// periodic job main starts), outbound calls bounded by a client's
// Timeout, not bounded, or decided by the caller, and edges whose
// arguments carry a request's context, a deadline set on the way, or a
// closure's context from the layer it is handed to. An analyzer that
// reports each claim where it is made lets the fixture's want comments
// say what the engine must claim. Handlers that functions of the package
// make are entries by the function each constructor returns.
func TestMapClaims(t *testing.T) {
	analysistest.Run(t, resilvettest.TestData(), mapReporter(), "resilmap/svc", "resilmap/handlers")
}

func mapReporter() *analysis.Analyzer {
	sum := summary.New(func() summary.Config { return summary.Config{Map: true} })
	return &analysis.Analyzer{
		Name:     "mapclaims",
		Doc:      "reports the summary's map claims, for tests",
		Requires: []*analysis.Analyzer{sum},
		Run: func(pass *analysis.Pass) (any, error) {
			res := pass.ResultOf[sum].(*summary.Result)
			for _, en := range res.MapEntries() {
				handler := ""
				if en.Handler != nil {
					handler = " handler=" + funcValueText(*en.Handler)
				}
				pass.Reportf(posOf(pass, en.At), "entry %s %q %s%s", en.Kind, en.Name, en.Func, handler)
			}
			for _, f := range res.MapFuncs() {
				for _, c := range f.Calls {
					pass.Reportf(posOf(pass, c.At), "call %s %s %s", c.Kind, c.Call, boundText(c.Bound))
				}
				for _, e := range f.Edges {
					var args []string
					for _, a := range e.Args {
						args = append(args, a.Bound.Of+"="+boundText(a.Bound))
					}
					callee := e.Callee
					if callee == "" {
						callee = fmt.Sprintf("captured#%d", e.Captured)
					}
					for _, w := range e.With {
						args = append(args, fmt.Sprintf("fv%d=%s", w.Index, funcValueText(w.Value)))
					}
					pass.Reportf(posOf(pass, e.At), "edge %s %s", callee, strings.Join(args, " "))
				}
			}
			return nil, nil
		},
	}
}

// funcValueText writes a func value claim: func(key)[fv0=…],
// call(key)[p0=…], param#i, captured#i, unknown(why).
func funcValueText(v summary.MapFuncValue) string {
	var with []string
	for _, w := range v.With {
		with = append(with, fmt.Sprintf("%d=%s", w.Index, funcValueText(w.Value)))
	}
	switch v.Kind {
	case summary.FuncValueFunc, summary.FuncValueCall:
		if len(with) == 0 {
			return v.Kind + "(" + v.Key + ")"
		}
		return v.Kind + "(" + v.Key + ")[" + strings.Join(with, ",") + "]"
	case summary.FuncValueParam, summary.FuncValueCaptured:
		return fmt.Sprintf("%s#%d", v.Kind, v.Index)
	}
	return "unknown(" + v.Why + ")"
}

func boundText(b summary.MapBound) string {
	switch b.State {
	case summary.MapParam:
		return fmt.Sprintf("param(%s#%d)", b.Owner, b.Param)
	case summary.MapBounded, summary.MapUnbounded:
		if b.What != "" {
			return b.State + ":" + b.What
		}
	}
	return b.State
}

// posOf finds a file:line:col position of the package.
func posOf(pass *analysis.Pass, at string) token.Pos {
	i := strings.LastIndexByte(at, ':')
	if i < 0 {
		return token.NoPos
	}
	j := strings.LastIndexByte(at[:i], ':')
	line, _ := strconv.Atoi(at[j+1 : i])
	col, _ := strconv.Atoi(at[i+1:])
	for _, f := range pass.Files {
		tf := pass.Fset.File(f.Pos())
		if tf.Name() == at[:j] {
			return tf.LineStart(line) + token.Pos(col-1)
		}
	}
	return token.NoPos
}
