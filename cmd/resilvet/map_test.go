//go:build e2e

package main_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/resilvet/resilvet/internal/resilmap"
)

// TestMap runs -f map-json and -f html on the example service: the map
// names its entry points, the calls each reaches with what bounds them,
// and the findings on the way; the page shows the same paths; both match
// what docs/examples holds (scripts/example-map.sh writes them).
func TestMap(t *testing.T) {
	r := run(t, "../..", bin, "-f", "map-json", "./examples/checkout/...")
	require.Equal(t, 0, r.code, r.stderr)
	m, err := resilmap.ReadJSON(strings.NewReader(r.stdout))
	require.NoError(t, err)
	assert.Equal(t, "github.com/resilvet/resilvet", m.Module)

	entries := map[string]string{}
	for _, e := range m.Entries {
		entries[e.ID] = e.Kind + " " + e.Name
	}
	assert.ElementsMatch(t, []string{"http POST /checkout", "http GET /recent", "main main", "periodic main.refreshPopular"}, values(entries))
	calls := map[string]resilmap.Call{}
	for _, c := range m.Calls {
		calls[c.ID] = c
	}
	type row struct{ entry, callee, source, what string }
	var rows []row
	findings := 0
	for _, p := range m.Paths {
		rows = append(rows, row{entries[p.Entry], calls[p.Call].Callee, p.Deadline.Source, p.Deadline.What})
		findings += len(p.Findings)
	}
	assert.ElementsMatch(t, []row{
		{"http POST /checkout", "sql.DB.QueryRow", "none", "context.Background() inside sql.DB.QueryRow"},
		{"http POST /checkout", "sql.DB.ExecContext", "request", "the incoming request's context"},
		{"http POST /checkout", "sql.DB.ExecContext", "none", "context.WithoutCancel(…), which drops the deadline"},
		{"http POST /checkout", "http.Client.Do", "client", "http.Client{Timeout}"},
		{"http POST /checkout", "http.Client.Do", "timeout", "context.WithTimeout(2s)"},
		{"http GET /recent", "http.Client.Do", "request", "the incoming request's context"},
		{"periodic main.refreshPopular", "http.Get", "none", "http.DefaultClient, which has no timeout"},
	}, rows)
	assert.Equal(t, 7, findings, "each path carries the findings on its way")
	// Refund and its helper's retry are reached from no entry: their
	// findings are listed apart, so the map shows all 9 of a plain run.
	require.Len(t, m.Unmapped, 2)
	assert.Equal(t, "examples/checkout/payments/payments.go:48:14", m.Unmapped[0].Pos)
	assert.Equal(t, "examples/checkout/payments/payments.go:52:12", m.Unmapped[1].Pos)
	plain := run(t, "../..", bin, "./examples/checkout/...")
	assert.Equal(t, findings+len(m.Unmapped), strings.Count(plain.stdout, "\n")-strings.Count(plain.stdout, "\n\t"), plain.stdout)
	for _, p := range m.Paths {
		c := calls[p.Call]
		switch {
		case entries[p.Entry] == "http GET /recent":
			require.NotNil(t, p.Retry)
			assert.Equal(t, "9", p.Retry.Product, "the handler's loop around recommend.Recent's loop")
		case c.Callee == "http.Client.Do" && c.Func == "payments.Client.send":
			require.NotNil(t, p.Retry)
			assert.Equal(t, "3", p.Retry.Product)
			require.NotNil(t, p.Idempotent)
			assert.False(t, *p.Idempotent, "a POST without an idempotency key")
			assert.Equal(t, "…/charges?…", c.Target, "the URL as Charge builds it, from the request it makes and a helper sends")
		case c.Callee == "sql.DB.QueryRow":
			assert.Equal(t, "SELECT sum(price) FROM cart WHERE user_id = $1", c.Target)
			require.NotNil(t, p.Idempotent)
			assert.True(t, *p.Idempotent)
		}
	}

	want, err := os.ReadFile(filepath.Join("..", "..", "docs", "examples", "checkout-map.json"))
	require.NoError(t, err)
	assert.Equal(t, string(want), r.stdout, "docs/examples/checkout-map.json is stale: run scripts/example-map.sh")

	page := run(t, "../..", bin, "-f", "html", "./examples/checkout/...")
	require.Equal(t, 0, page.code, page.stderr)
	assert.Contains(t, page.stdout, "<title>Resilience map of github.com/resilvet/resilvet</title>")
	assert.Equal(t, len(m.Paths), strings.Count(page.stdout, `<tr class="path `), "one row per path")
	assert.Contains(t, page.stdout, "Findings on no mapped path")
	assert.Contains(t, page.stdout, "payments.go:52:12")
}

// TestMapFlags: -checks narrows the findings on the map, not the map;
// the map takes no baseline; code that does not load gets a clear error.
func TestMapFlags(t *testing.T) {
	all := run(t, "../..", bin, "-f", "map-json", "./examples/checkout/...")
	only := run(t, "../..", bin, "-f", "map-json", "-checks=notimeout", "./examples/checkout/...")
	require.Equal(t, 0, only.code, only.stderr)
	ma, err := resilmap.ReadJSON(strings.NewReader(all.stdout))
	require.NoError(t, err)
	mo, err := resilmap.ReadJSON(strings.NewReader(only.stdout))
	require.NoError(t, err)
	assert.Equal(t, len(ma.Paths), len(mo.Paths))
	var analyzers []string
	for _, p := range mo.Paths {
		for _, f := range p.Findings {
			analyzers = append(analyzers, f.Analyzer)
		}
	}
	assert.Equal(t, []string{"notimeout", "notimeout"}, analyzers)

	r := run(t, "../..", bin, "-f", "html", "-baseline", "x.json", "./examples/checkout/...")
	assert.Equal(t, 2, r.code)
	assert.Contains(t, r.stderr, "takes no baseline")

	dir := t.TempDir()
	require.NoError(t, os.CopyFS(dir, os.DirFS("testdata/broken")))
	require.NoError(t, os.Mkdir(filepath.Join(dir, "good"), 0o755))
	// The package that loads has an entry point: its map is written.
	good := "package main\n\nimport \"net/http\"\n\nfunc main() { _ = http.ListenAndServe(\":8080\", nil) }\n"
	require.NoError(t, os.WriteFile(filepath.Join(dir, "good", "good.go"), []byte(good), 0o644))
	r = run(t, dir, bin, "-f", "map-json", "./syntax", "./typeerr", "./good")
	assert.Equal(t, 0, r.code, r.stderr)
	assert.Contains(t, r.stderr, "syntax.go:6:24")
	assert.Contains(t, r.stderr, "the map leaves out what did not load")
	assert.NotContains(t, r.stdout+r.stderr, "panic")
	_, err = resilmap.ReadJSON(strings.NewReader(r.stdout))
	assert.NoError(t, err, "the map of what loaded (./good) is still written")

	for _, pattern := range []string{"./syntax", "./nonexistent/..."} {
		r = run(t, dir, bin, "-f", "html", pattern)
		assert.Equal(t, 1, r.code, pattern)
		assert.Contains(t, r.stderr, "no package was loaded and checked: no map written", pattern)
		assert.Empty(t, r.stdout, "an empty map would read as a service with no entry points")
	}
}

func values(m map[string]string) []string {
	var out []string
	for _, v := range m {
		out = append(out, v)
	}
	return out
}

// TestMapRuntimeLayers maps a module that composes the runtime as its
// docs recommend (deadline.Ensure, retry.Do with a budget, a breaker, a
// per-attempt timeout): the call is retried by retry.Do's 3 attempts,
// once (the runtime's own loop is that layer, not a second one), inside
// the breaker, bounded by the attempt's timeout.
func TestMapRuntimeLayers(t *testing.T) {
	runtime, err := filepath.Abs("../../runtime")
	require.NoError(t, err)
	dir := t.TempDir()
	goMod := "module example.com/outside\n\ngo 1.26.0\n\nrequire github.com/resilvet/resilvet/runtime v0.0.0\n\nreplace github.com/resilvet/resilvet/runtime => " + runtime + "\n"
	require.NoError(t, os.WriteFile(filepath.Join(dir, "go.mod"), []byte(goMod), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "main.go"), []byte(`package main

import (
	"context"
	"net/http"
	"time"

	"github.com/resilvet/resilvet/runtime/breaker"
	"github.com/resilvet/resilvet/runtime/budget"
	"github.com/resilvet/resilvet/runtime/deadline"
	"github.com/resilvet/resilvet/runtime/retry"
)

var (
	br     = breaker.New(breaker.Settings{})
	policy = &retry.Policy{Budget: &budget.Ratio{}}
)

func stock(w http.ResponseWriter, r *http.Request) {
	ctx, cancel := deadline.Ensure(r.Context(), 2*time.Second)
	defer cancel()
	_ = retry.Do(ctx, policy, func(ctx context.Context) error {
		return br.Do(ctx, func(ctx context.Context) error {
			ctx, cancel := context.WithTimeout(ctx, 500*time.Millisecond)
			defer cancel()
			req, err := http.NewRequestWithContext(ctx, http.MethodGet, "http://stock/items", nil)
			if err != nil {
				return err
			}
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				return err
			}
			resp.Body.Close()
			return retry.ResponseError(resp)
		})
	})
}

func main() {
	http.HandleFunc("GET /stock", stock)
	_ = http.ListenAndServe(":8080", nil)
}
`), 0o644))
	r := run(t, dir, bin, "-f", "map-json", "./...")
	require.Equal(t, 0, r.code, r.stderr)
	m, err := resilmap.ReadJSON(strings.NewReader(r.stdout))
	require.NoError(t, err)
	require.Len(t, m.Paths, 1)
	p := m.Paths[0]
	require.NotNil(t, p.Retry)
	assert.Equal(t, "3", p.Retry.Product)
	require.Len(t, p.Retry.Layers, 1, "retry.Do is one layer")
	assert.Equal(t, "retry.Do", p.Retry.Layers[0].What)
	require.NotNil(t, p.Breaker)
	assert.Equal(t, resilmap.DeadlineTimeout, p.Deadline.Source)
	assert.Equal(t, "context.WithTimeout(500ms)", p.Deadline.What)
}

// TestMapAdapters maps a module whose handlers are all registered through
// adapters (withLogging(h.List), withTiming(http.HandlerFunc(h.Stock))):
// each entry is followed into its handler, a query made inside a
// dependency is shown at the module's call into it, the entries the map
// cannot follow say why, and every finding of a plain run is on a path
// or listed apart, on the map and on the page.
func TestMapAdapters(t *testing.T) {
	r := run(t, "testdata/adapter", bin, "-f", "map-json", "./...")
	require.Equal(t, 0, r.code, r.stderr)
	m, err := resilmap.ReadJSON(strings.NewReader(r.stdout))
	require.NoError(t, err)
	entries := map[string]resilmap.Entry{}
	for _, e := range m.Entries {
		entries[e.ID] = e
	}
	calls := map[string]resilmap.Call{}
	for _, c := range m.Calls {
		calls[c.ID] = c
	}
	type row struct{ entry, callee, pos, through, source string }
	var rows []row
	findings := 0
	for _, p := range m.Paths {
		c := calls[p.Call]
		rows = append(rows, row{entries[p.Entry].Name, c.Callee, c.Pos, c.Through, p.Deadline.Source})
		findings += len(p.Findings)
		assert.NotEqual(t, "main", entries[p.Entry].Name, "main reaches the handlers only as entries of their own")
	}
	assert.ElementsMatch(t, []row{
		{"GET /items", "http.Client.Do", "api/api.go:72:29", "", "unknown"},
		{"GET /items", "sql.DB.QueryRowContext", "store/store.go:14:24", "sqlx.DB.GetContext", "request"},
		{"POST /sync", "http.Client.Do", "api/api.go:93:29", "", "unknown"},
		{"GET /stock", "http.Get", "api/api.go:85:23", "", "none"},
	}, rows)
	var followed, notFollowed []string
	for _, e := range m.Entries {
		if e.Kind != resilmap.EntryHTTP {
			continue
		}
		if e.NotFollowed == "" {
			followed = append(followed, e.Name+" "+e.Func)
		} else {
			notFollowed = append(notFollowed, e.Name+": "+e.NotFollowed)
		}
	}
	assert.ElementsMatch(t, []string{
		"GET /items api.Handlers.List", "GET /orders api.Handlers.Orders",
		"POST /sync api.Handlers.Routes (closure)", "GET /stock api.Handlers.Stock",
	}, followed)
	assert.ElementsMatch(t, []string{
		"GET /dyn: api.withLogging (closure) calls a handler that is made by api.pick, whose result is chosen at run time among several",
		"GET /legacy: the handler is a func value read from a variable, a field or a table",
	}, notFollowed)

	plain := run(t, "testdata/adapter", bin, "./...")
	require.Equal(t, 1, plain.code, plain.stderr)
	assert.Equal(t, 2, strings.Count(plain.stdout, "(ctxdrop)\n"), plain.stdout)
	assert.Equal(t, 1, findings, "GET /stock's http.Get")
	require.Len(t, m.Unmapped, 1, "the legacy handler's, which no followed entry reaches")
	assert.Equal(t, "api/api.go:35:15", m.Unmapped[0].Pos)

	page := run(t, "testdata/adapter", bin, "-f", "html", "./...")
	require.Equal(t, 0, page.code, page.stderr)
	for _, s := range []string{
		"Entries not followed into their handler", "GET /legacy", "made by api.pick",
		"Findings on no mapped path", "api/api.go:35:15", "inside <code>sqlx.DB.GetContext</code>",
	} {
		assert.Contains(t, page.stdout, s)
	}
}

// TestMapPartialLoad: a package that does not load is named on stderr and
// on the page, and the map of the rest is written (exit 0); when what
// did not load is all that had entries, the map would be empty: no map
// is written and the run exits 1, saying why.
func TestMapPartialLoad(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.CopyFS(dir, os.DirFS("testdata/adapter")))
	require.NoError(t, os.Mkdir(filepath.Join(dir, "broken"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "broken", "broken.go"), []byte("package broken\n\nfunc F() { undefined() }\n"), 0o644))
	r := run(t, dir, bin, "-f", "html", "./...")
	require.Equal(t, 0, r.code, r.stderr)
	assert.Contains(t, r.stderr, "package example.com/adapter/broken did not load: broken/broken.go:3:12: undefined: undefined")
	assert.Contains(t, r.stdout, "Packages that did not load")
	assert.Contains(t, r.stdout, "<code>example.com/adapter/broken</code>")
	assert.Contains(t, r.stdout, "GET /items", "the map of what loaded")
	r = run(t, dir, bin, "-f", "map-json", "./...")
	require.Equal(t, 0, r.code, r.stderr)
	m, err := resilmap.ReadJSON(strings.NewReader(r.stdout))
	require.NoError(t, err)
	assert.Equal(t, []resilmap.LoadError{{Package: "example.com/adapter/broken", Message: "broken/broken.go:3:12: undefined: undefined"}}, m.NotLoaded)

	// The handlers' package imports a package that does not load: only a
	// package with no entry point is checked.
	require.NoError(t, os.Mkdir(filepath.Join(dir, "util"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "util", "util.go"), []byte("package util\n\nfunc Add(a, b int) int { return a + b }\n"), 0o644))
	store := filepath.Join(dir, "store", "store.go")
	src, err := os.ReadFile(store)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(store, []byte(strings.Replace(string(src), "s.DB.Select(", "s.DB.Selectx(", 1)), 0o644))
	for _, format := range []string{"html", "map-json"} {
		r = run(t, dir, bin, "-f", format, "./...")
		assert.Equal(t, 1, r.code, format)
		assert.Contains(t, r.stderr, "package example.com/adapter/store did not load", format)
		assert.Contains(t, r.stderr, "the packages that loaded have no entry point, and 2 packages did not load: no map written", format)
		assert.Empty(t, r.stdout, "an empty map would read as a service with no entry points")
	}
}
