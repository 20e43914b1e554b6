package knowledge_test

import (
	"go/types"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/tools/go/packages"

	"github.com/resilvet/resilvet/internal/knowledge"
)

// TestKeysResolve checks that every standard-library name in the tables
// names a real function or method, so a typo fails here and not silently
// in the field. Third-party names cannot be loaded; their shape is checked.
func TestKeysResolve(t *testing.T) {
	names := knowledge.Names()
	require.NotEmpty(t, names)
	pkgs := map[string]bool{}
	for _, n := range names {
		require.NoError(t, knowledge.ValidFullName(n), n)
		if p := pkgOf(n); isStd(p) {
			pkgs[p] = true
		}
	}
	var paths []string
	for p := range pkgs {
		paths = append(paths, p)
	}
	loaded, err := packages.Load(&packages.Config{Mode: packages.NeedTypes | packages.NeedName}, paths...)
	require.NoError(t, err)
	funcs := map[string]bool{}
	for _, p := range loaded {
		require.Empty(t, p.Errors, p.PkgPath)
		collect(p.Types, funcs)
	}
	for _, n := range names {
		if isStd(pkgOf(n)) {
			assert.True(t, funcs[n], "%s does not name a function or method of the standard library", n)
		}
	}
}

// TestTwinsTakeContext checks that each standard-library twin in the table
// really takes a context first.
func TestTwinsTakeContext(t *testing.T) {
	loaded, err := packages.Load(&packages.Config{Mode: packages.NeedTypes | packages.NeedName}, "database/sql", "net", "net/http", "net/http/httptest", "os/exec", "crypto/tls")
	require.NoError(t, err)
	sigs := map[string]*types.Signature{}
	for _, p := range loaded {
		all := map[string]bool{}
		collect(p.Types, all)
		for n := range all {
			sigs[n] = lookup(p.Types, n)
		}
	}
	for _, n := range knowledge.Names() {
		tw, ok := knowledge.TwinOf(n)
		if !ok || !isStd(pkgOf(tw.Name)) {
			continue // third-party twins cannot be loaded; their shape is checked
		}
		sig := sigs[tw.Name]
		if !assert.NotNil(t, sig, "twin %s of %s not found", tw.Name, n) {
			continue
		}
		first := sig.Params().At(0).Type().String()
		assert.Equal(t, "context.Context", first, "twin %s of %s", tw.Name, n)
	}
}

func TestValidFullName(t *testing.T) {
	for _, ok := range []string{"net/http.Get", "(*database/sql.DB).Query", "(log/slog.Handler).Handle", "(*example.com/x/v2.C).Do"} {
		assert.NoError(t, knowledge.ValidFullName(ok), ok)
	}
	for _, bad := range []string{"", "Get", "http.", "(*sql.DB.Query", "(*database/sql.DB).", "(DB).Query", "net/http.Get()", "a b.C"} {
		assert.Error(t, knowledge.ValidFullName(bad), bad)
	}
}

func TestExtensions(t *testing.T) {
	names, err := knowledge.SplitNames(" (*example.com/kv.Client).Get , example.com/kv.Dial,")
	require.NoError(t, err)
	assert.Equal(t, []string{"(*example.com/kv.Client).Get", "example.com/kv.Dial"}, names)
	_, err = knowledge.SplitNames("kv.Client.Get(")
	assert.ErrorContains(t, err, "invalid function name")

	x, err := knowledge.NewExtensions(names, []string{"example.com/rpc.Timeout"})
	require.NoError(t, err)
	for _, name := range names {
		_, ok := x.OutboundOf(name)
		assert.True(t, ok, name)
		_, ok = knowledge.OutboundOf(name)
		assert.False(t, ok, "%s: extensions must not change the tables", name)
	}
	_, ok := x.OutboundOf("(*net/http.Client).Do")
	assert.True(t, ok, "the tables still answer through extensions")
	assert.True(t, x.TimeoutInterceptorOf("example.com/rpc.Timeout"))
	assert.False(t, knowledge.TimeoutInterceptorOf("example.com/rpc.Timeout"))

	var none *knowledge.Extensions
	_, ok = none.OutboundOf("example.com/kv.Dial")
	assert.False(t, ok)
	_, ok = none.OutboundOf("(*net/http.Client).Do")
	assert.True(t, ok)

	_, err = knowledge.NewExtensions([]string{"not a name"}, nil)
	assert.ErrorContains(t, err, "outbound: invalid function name")
	_, err = knowledge.NewExtensions(nil, []string{"rpc.Timeout("})
	assert.ErrorContains(t, err, "timeout-interceptors: invalid function name")
}

func TestLookupsAreTotal(t *testing.T) {
	_, ok := knowledge.TwinOf("example.com/none.F")
	assert.False(t, ok)
	assert.True(t, knowledge.IsRootContext("context.Background"))
	assert.False(t, knowledge.IsRootContext("context.WithCancel"))
	assert.True(t, knowledge.IsValueOnlyContextSink("log/slog.InfoContext"))
	assert.True(t, knowledge.IsCleanupSink("(*net/http.Server).Shutdown"))
	assert.True(t, knowledge.IsLocalRead("sigs.k8s.io/controller-runtime/pkg/cache.Cache", "List"))
	assert.False(t, knowledge.IsLocalRead("sigs.k8s.io/controller-runtime/pkg/client.Client", "List"), "a client's List goes to the server")
	assert.False(t, knowledge.IsLocalRead("sigs.k8s.io/controller-runtime/pkg/cache.Cache", "GetInformer"), "starting an informer waits for it to sync")
	assert.Equal(t, "sql", knowledge.SQL.String())
	cr, ok := knowledge.CallOptionRetriesOf("cloud.google.com/go/pubsub/apiv1")
	assert.True(t, ok)
	assert.Equal(t, "github.com/googleapis/gax-go/v2.WithRetry", cr.Retry)
	_, ok = knowledge.CallOptionRetriesOf("cloud.google.com.evil/go/x")
	assert.False(t, ok, "the prefix ends at a path separator")
	_, ok = knowledge.CallOptionRetriesOf("github.com/googleapis/gax-go/v2")
	assert.False(t, ok)
}

func pkgOf(fullName string) string {
	s := strings.TrimPrefix(strings.TrimPrefix(fullName, "("), "*")
	if i := strings.Index(s, ")"); i >= 0 {
		s = s[:i]
	}
	return s[:strings.LastIndex(s, ".")]
}

func isStd(path string) bool {
	first, _, _ := strings.Cut(path, "/")
	return !strings.Contains(first, ".")
}

// collect records the full names of the package's functions and methods.
func collect(pkg *types.Package, into map[string]bool) {
	scope := pkg.Scope()
	for _, name := range scope.Names() {
		switch obj := scope.Lookup(name).(type) {
		case *types.Func:
			into[obj.FullName()] = true
		case *types.TypeName:
			for _, t := range []types.Type{obj.Type(), types.NewPointer(obj.Type())} {
				ms := types.NewMethodSet(t)
				for i := range ms.Len() {
					if fn, ok := ms.At(i).Obj().(*types.Func); ok {
						into[fn.FullName()] = true
					}
				}
			}
		}
	}
}

func lookup(pkg *types.Package, fullName string) *types.Signature {
	var found *types.Signature
	scope := pkg.Scope()
	for _, name := range scope.Names() {
		switch obj := scope.Lookup(name).(type) {
		case *types.Func:
			if obj.FullName() == fullName {
				found = obj.Type().(*types.Signature)
			}
		case *types.TypeName:
			ms := types.NewMethodSet(types.NewPointer(obj.Type()))
			for i := range ms.Len() {
				if fn, ok := ms.At(i).Obj().(*types.Func); ok && fn.FullName() == fullName {
					found = fn.Type().(*types.Signature)
				}
			}
		}
	}
	return found
}

func TestIsLoggingOrMetricsName(t *testing.T) {
	for _, yes := range []string{"Printf", "Print", "Println", "Infof", "Debug", "ErrorContext", "LogAttrs", "Warnw", "Tracef", "recordConnectionMetrics", "MetricsHook"} {
		assert.True(t, knowledge.IsLoggingOrMetricsName(yes), yes)
	}
	for _, no := range []string{"Query", "Do", "Information", "Errors", "Logout", "Printer", "Debugger", "Panicked", "Record"} {
		assert.False(t, knowledge.IsLoggingOrMetricsName(no), no)
	}
}

func TestIsCleanupFuncName(t *testing.T) {
	for _, yes := range []string{"Close", "Shutdown", "Stop", "GracefulStop"} {
		assert.True(t, knowledge.IsCleanupFuncName(yes), yes)
	}
	for _, no := range []string{"Closer", "close", "Load", "StopAll"} {
		assert.False(t, knowledge.IsCleanupFuncName(no), no)
	}
}

func TestIsCleanupSink(t *testing.T) {
	for name, want := range map[string]bool{
		"(*net/http.Server).Shutdown":                      true,
		"(example.com/svc.Service).StopAndAwaitTerminated": true,
		"example.com/app.exitProcess":                      true,
		"(*database/sql.Tx).Rollback":                      true,
		"example.com/app.Stopwatch":                        false, // a word, not the verb
		"example.com/app.closest":                          false,
		"example.com/app.Run":                              false,
	} {
		assert.Equal(t, want, knowledge.IsCleanupSink(name), name)
	}
}

// TestValueDerivationsAreDerivations checks that what adds only values is
// a derivation too, and that a derivation with a lifetime of its own is
// not taken for one that adds values.
func TestValueDerivationsAreDerivations(t *testing.T) {
	for _, n := range knowledge.Names() {
		if knowledge.AddsOnlyValues(n) {
			assert.True(t, knowledge.IsContextDerivation(n), n)
		}
	}
	assert.True(t, knowledge.AddsOnlyValues("context.WithValue"))
	for _, n := range []string{"context.WithCancel", "context.WithTimeout", "context.WithoutCancel", "(go.opentelemetry.io/otel/trace.Tracer).Start"} {
		assert.False(t, knowledge.AddsOnlyValues(n), n)
	}
}
