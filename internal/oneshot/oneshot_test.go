package oneshot_test

import (
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/analysistest"
	"golang.org/x/tools/go/analysis/passes/inspect"
	"golang.org/x/tools/go/ast/inspector"

	"github.com/resilvet/resilvet/internal/oneshot"
	"github.com/resilvet/resilvet/internal/resilvettest"
)

// TestTool judges notimeout's fixtures of tools and services: package
// main or CLI commands that start no server (or only the profiler) are
// tools; a server started, or a serving command declared, makes a
// service; a library is neither.
func TestTool(t *testing.T) {
	var mu sync.Mutex
	tool := map[string]bool{}
	probe := &analysis.Analyzer{
		Name:     "probe",
		Doc:      "judges each package",
		Requires: []*analysis.Analyzer{inspect.Analyzer},
		Run: func(pass *analysis.Pass) (any, error) {
			mu.Lock()
			defer mu.Unlock()
			tool[pass.Pkg.Path()] = oneshot.Tool(pass, pass.ResultOf[inspect.Analyzer].(*inspector.Inspector))
			return nil, nil
		},
	}
	// The fixtures' expectations are notimeout's, not the probe's.
	analysistest.Run(ignoreWant{t}, resilvettest.TestData(), probe,
		"notimeout/tool", "notimeout/pproftool", "notimeout/cobracmd", "notimeout/kongcmd",
		"notimeout/service", "notimeout/tcpserve", "notimeout/cobraserve", "notimeout/cobrarun", "notimeout/kongserve", "notimeout/basic")
	assert.Equal(t, map[string]bool{
		"notimeout/tool": true, "notimeout/pproftool": true, "notimeout/cobracmd": true, "notimeout/kongcmd": true,
		"notimeout/service": false, "notimeout/tcpserve": false, "notimeout/cobraserve": false, "notimeout/cobrarun": false, "notimeout/kongserve": false,
		"notimeout/basic": false,
	}, tool)
}

// ignoreWant runs analysistest without failing on the // want lines the
// fixtures hold for notimeout.
type ignoreWant struct{ *testing.T }

func (ignoreWant) Errorf(string, ...any) {}
