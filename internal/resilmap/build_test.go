package resilmap_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"

	"github.com/resilvet/resilvet/internal/resilmap"
	"github.com/resilvet/resilvet/internal/resilvettest"
	"github.com/resilvet/resilvet/internal/summary"
)

// buildFixture runs the summary engine in map mode over a package of the
// shared testdata tree and builds its map.
func buildFixture(t *testing.T, pkg string, more ...string) *resilmap.Map {
	t.Helper()
	return buildFixtureIn(t, "", pkg, more...)
}

// buildFixtureIn is buildFixture for the map of module mod, whose
// packages' calls are followed with or without a summary.
func buildFixtureIn(t *testing.T, mod, pkg string, more ...string) *resilmap.Map {
	t.Helper()
	return resilmap.Build(fixtureSource(t, mod, pkg, more...))
}

// fixtureSource is what buildFixtureIn builds the map from.
func fixtureSource(t *testing.T, mod, pkg string, more ...string) resilmap.Source {
	t.Helper()
	testdata := resilvettest.TestData()
	cfg := &packages.Config{
		Mode: packages.LoadAllSyntax,
		Dir:  filepath.Join(testdata, "src", pkg),
		Env:  append(os.Environ(), "GOPATH="+testdata, "GO111MODULE=off", "GOPROXY=off", "GOFLAGS="),
	}
	pkgs, err := packages.Load(cfg, append([]string{pkg}, more...)...)
	require.NoError(t, err)
	require.Zero(t, packages.PrintErrors(pkgs))
	sum := summary.New(func() summary.Config { return summary.Config{Map: true, MapModule: mod} })
	g, err := checker.Analyze([]*analysis.Analyzer{sum}, pkgs, nil)
	require.NoError(t, err)
	var src resilmap.Source
	src.Module, src.Root = pkg, filepath.Join(testdata, "src")
	for act := range g.All() {
		if act.IsRoot && act.Analyzer == sum {
			res := act.Result.(*summary.Result)
			src.Funcs = append(src.Funcs, res.MapFuncs()...)
			src.Entries = append(src.Entries, res.MapEntries()...)
			src.Impls = append(src.Impls, res.MapImpls()...)
		}
	}
	return src
}

// pathsByEntry returns, per entry name, the deadline of each call reached,
// by the call's callee and position.
func pathsByEntry(m *resilmap.Map) map[string]map[string]resilmap.Deadline {
	entries, calls := map[string]string{}, map[string]string{}
	for _, e := range m.Entries {
		entries[e.ID] = e.Name
	}
	for _, c := range m.Calls {
		calls[c.ID] = c.Callee + " " + c.Pos
	}
	out := map[string]map[string]resilmap.Deadline{}
	for _, p := range m.Paths {
		if out[entries[p.Entry]] == nil {
			out[entries[p.Entry]] = map[string]resilmap.Deadline{}
		}
		out[entries[p.Entry]][calls[p.Call]] = p.Deadline
	}
	return out
}

// TestBuildResolvesBoundsFromEachEntry: a helper whose caller decides is
// bounded by what each entry passes: the request's context from a
// handler, a deadline set on the way, a client's Timeout either way; a
// closure run by a retry helper gets the context the helper is given; a
// periodic job's call has no bound; main reaches nothing of the entries
// it registers or starts.
func TestBuildResolvesBoundsFromEachEntry(t *testing.T) {
	m := buildFixture(t, "resilmap/svc")
	require.NoError(t, m.Check())
	var kinds []string
	for _, e := range m.Entries {
		kinds = append(kinds, e.Kind+" "+e.Name)
	}
	assert.ElementsMatch(t, []string{
		"main main", "http GET /orders", "http /charge", "http /health",
		"grpc Orders/Get", "periodic main.poll", "goroutine main.drain",
	}, kinds)

	fetchDo := "http.Client.Do resilmap/svc/svc.go:48:16"
	chargeDo := "http.Client.Do resilmap/svc/svc.go:41:34"
	poll := "http.Get resilmap/svc/svc.go:68:18"
	got := pathsByEntry(m)
	assert.Equal(t, map[string]resilmap.Deadline{
		fetchDo: {Source: resilmap.DeadlineClient, What: "http.Client{Timeout}", Pos: "resilmap/svc/svc.go:19:43"},
	}, got["GET /orders"], "the client's Timeout bounds the call whatever the request's context")
	assert.Equal(t, map[string]resilmap.Deadline{
		chargeDo: {Source: resilmap.DeadlineTimeout, What: "context.WithTimeout(3s)", Pos: "resilmap/svc/svc.go:37:17"},
	}, got["/charge"], "the closure gets the context handed to the retry helper")
	assert.Equal(t, resilmap.DeadlineClient, got["Orders/Get"][fetchDo].Source)
	assert.Equal(t, map[string]resilmap.Deadline{
		poll: {Source: resilmap.DeadlineNone, What: "http.DefaultClient, which has no timeout", Pos: "resilmap/svc/svc.go:68:10"},
	}, got["main.poll"])
	assert.Empty(t, got["main"], "main registers the handlers and starts the jobs: they are entries of their own")
	assert.Empty(t, got["/health"])
}

// TestBuildLayersAndIdempotence: the closure handed to a retry helper
// runs in the helper's loop, so the POST it sends is retried 3 times and
// is not idempotent; the map names the request's URL.
func TestBuildLayersAndIdempotence(t *testing.T) {
	m := buildFixture(t, "resilmap/svc")
	calls := map[string]resilmap.Call{}
	for _, c := range m.Calls {
		calls[c.ID] = c
	}
	var charge *resilmap.Path
	for i, p := range m.Paths {
		if calls[p.Call].Pos == "resilmap/svc/svc.go:41:34" {
			charge = &m.Paths[i]
		}
	}
	require.NotNil(t, charge)
	assert.Equal(t, "http://payments/charge", calls[charge.Call].Target)
	require.NotNil(t, charge.Retry)
	assert.Equal(t, "3", charge.Retry.Product)
	require.NotNil(t, charge.Idempotent)
	assert.False(t, *charge.Idempotent, "a POST without an idempotency key")
	for _, p := range m.Paths {
		if calls[p.Call].Callee == "http.Get" {
			require.NotNil(t, p.Idempotent)
			assert.True(t, *p.Idempotent)
			assert.Nil(t, p.Retry)
		}
	}
}

// TestBuildHedge: a POST sent through a hedging client is hedged on its
// path, and not idempotent.
func TestBuildHedge(t *testing.T) {
	m := buildFixture(t, "resilmap/hedged")
	require.Len(t, m.Paths, 1)
	p := m.Paths[0]
	require.NotNil(t, p.Hedge)
	assert.Contains(t, p.Hedge.What, "hedgedhttp.NewClient")
	require.NotNil(t, p.Idempotent)
	assert.False(t, *p.Idempotent)
	assert.Equal(t, resilmap.DeadlineTimeout, p.Deadline.Source)
	assert.Equal(t, "http://payments/pay", m.Calls[0].Target)
}

// TestBuildCommandInAnotherPackage: a main that only calls into another
// package of the module is an entry point, and reaches that package's
// calls.
func TestBuildCommandInAnotherPackage(t *testing.T) {
	m := buildFixture(t, "resilmap/cmdonly", "resilmap/runlib")
	require.Len(t, m.Entries, 1)
	assert.Equal(t, "main", m.Entries[0].Kind)
	require.Len(t, m.Paths, 1)
	assert.Equal(t, []string{"main.main", "runlib.Run"}, m.Paths[0].Via)
	assert.Equal(t, resilmap.DeadlineNone, m.Paths[0].Deadline.Source)
}

// TestBuildQuietCommand: a main whose package mentions nothing the
// engine follows is still an entry point, with no path.
func TestBuildQuietCommand(t *testing.T) {
	m := buildFixture(t, "resilmap/cmdquiet")
	require.Len(t, m.Entries, 1)
	assert.Equal(t, "main", m.Entries[0].Kind)
	assert.Empty(t, m.Paths)
}

// TestBuildFollowsTheModule: a call into another package of the module
// mapped is followed even when the callee has no summary (its work goes
// through a closure it registers); outside the module mapped it is not.
func TestBuildFollowsTheModule(t *testing.T) {
	m := buildFixtureIn(t, "resilmap", "resilmap/cmdindirect", "resilmap/runlib")
	require.Len(t, m.Paths, 1)
	assert.Equal(t, []string{"main.main", "runlib.Serve", "runlib.Serve (closure)"}, m.Paths[0].Via)
	assert.Equal(t, resilmap.DeadlineNone, m.Paths[0].Deadline.Source)

	m = buildFixture(t, "resilmap/cmdindirect", "resilmap/runlib")
	assert.Empty(t, m.Paths)
}

// TestBuildTargets: a call's target is its URL or its SQL statement, read
// from the argument that holds it: a content type or a query's parameter
// is no target, and a URL from configuration leaves the target empty. A
// client given its Timeout after a constructor made it bounds its calls,
// and a caller's deadline bounds a DNS lookup.
func TestBuildTargets(t *testing.T) {
	m := buildFixture(t, "resilmap/targets")
	targets := map[string]string{}
	idempotent := map[string]*bool{}
	for _, c := range m.Calls {
		targets[c.Pos] = c.Target
	}
	calls := map[string]string{}
	for _, c := range m.Calls {
		calls[c.ID] = c.Pos
	}
	for _, p := range m.Paths {
		idempotent[calls[p.Call]] = p.Idempotent
	}
	assert.Equal(t, map[string]string{
		"resilmap/targets/targets.go:49:22": "",
		"resilmap/targets/targets.go:50:22": "http://hooks/events",
		"resilmap/targets/targets.go:51:18": "http://audit/log",
		"resilmap/targets/targets.go:52:23": "INSERT INTO events (kind) VALUES (?)",
		"resilmap/targets/targets.go:55:24": "SELECT id FROM events WHERE kind = ?",
		// Built at run time: "…" marks each part the code does not say,
		// and a URL of no constant word has no target.
		"resilmap/targets/targets.go:65:20": "…/v1/items",
		"resilmap/targets/targets.go:67:20": "",
		"resilmap/targets/targets.go:69:20": "https://…/api/…/status",
		"resilmap/targets/targets.go:71:20": "https://…/v2/things",
		"resilmap/targets/targets.go:73:20": "…/v3/feeds",
		// Lookups reach a name, not a URL: no target.
		"resilmap/targets/targets.go:80:41": "",
		"resilmap/targets/targets.go:86:39": "",
	}, targets)
	read := idempotent["resilmap/targets/targets.go:55:24"]
	require.NotNil(t, read, "a SELECT is a read whatever its parameters spell")
	assert.True(t, *read)
	insert := idempotent["resilmap/targets/targets.go:52:23"]
	require.NotNil(t, insert)
	assert.False(t, *insert)
	for _, p := range m.Paths {
		if strings.HasSuffix(calls[p.Call], ":22") || strings.HasSuffix(calls[p.Call], ":20") {
			// Both hooks' clients have a Timeout: one set in the
			// literal, one set after another function made the client.
			// (The request's context bounds it too, but the client's
			// Timeout is what the map names first.)
			assert.Equal(t, resilmap.DeadlineClient, p.Deadline.Source, calls[p.Call])
		}
	}
	// DNS lookups: bounded by the caller's deadline where there is one;
	// without one the resolver's own timeouts may bound them.
	lookups := map[string]resilmap.Deadline{}
	byID := map[string]resilmap.Call{}
	for _, c := range m.Calls {
		byID[c.ID] = c
	}
	for _, p := range m.Paths {
		if c := byID[p.Call]; strings.HasPrefix(c.Callee, "net.Resolver.") {
			lookups[c.Callee] = p.Deadline
		}
	}
	assert.Equal(t, map[string]resilmap.Deadline{
		"net.Resolver.LookupIPAddr": {Source: resilmap.DeadlineTimeout, What: "context.WithTimeout(1m0s)", Pos: "resilmap/targets/targets.go:24:17"},
		"net.Resolver.LookupHost":   {Source: resilmap.DeadlineUnknown},
	}, lookups)
}

// TestBuildFollowsInterfaces: a dispatcher calls notifiers through an
// interface that registrations fill at run time; the map follows the call
// to each implementation in the module, under the caller's deadline, and
// says on the path which interface it went through. Outside the module
// mapped the interface is not followed.
func TestBuildFollowsInterfaces(t *testing.T) {
	pkgs := []string{"resilmap/notifylib", "resilmap/notifyhooks"}
	m := buildFixtureIn(t, "resilmap", "resilmap/notifycmd", pkgs...)
	calls := map[string]resilmap.Call{}
	for _, c := range m.Calls {
		calls[c.ID] = c
	}
	got := map[string]resilmap.Path{}
	for _, p := range m.Paths {
		got[calls[p.Call].Callee] = p
	}
	require.Len(t, got, 2, "the webhook's POST and the syslog notifier's dial")
	hook := got["http.Client.Do"]
	assert.Equal(t, []string{"main.main", "notifylib.Dispatch", "notifyhooks.Webhook.Notify (as notifylib.Notifier.Notify)"}, hook.Via)
	assert.Equal(t, resilmap.DeadlineTimeout, hook.Deadline.Source, "the caller's context reaches the implementation")
	assert.Equal(t, "context.WithTimeout(10s)", hook.Deadline.What)
	dial := got["net.Dial"]
	assert.Equal(t, []string{"main.main", "notifylib.Dispatch", "notifyhooks.syslog.Notify (as notifylib.Notifier.Notify)"}, dial.Via)
	assert.Equal(t, resilmap.DeadlineNone, dial.Deadline.Source)

	m = buildFixture(t, "resilmap/notifycmd", pkgs...)
	assert.Empty(t, m.Paths)
}

// TestBuildRuntimeHedge: a function declared idempotent for the runtime's
// hedge.Do runs in copies (the path's hedge) under the context hedge.Do
// is given, the request's, though hedge.Idempotent, which it is handed
// to, takes none.
func TestBuildRuntimeHedge(t *testing.T) {
	m := buildFixture(t, "resilmap/runtimehedge")
	require.Len(t, m.Paths, 1)
	p := m.Paths[0]
	require.NotNil(t, p.Hedge)
	assert.Equal(t, "hedge.Idempotent", p.Hedge.What)
	assert.Equal(t, resilmap.DeadlineRequest, p.Deadline.Source)
}

// TestBuildFollowsAdapters: handlers registered through adapters
// (mux.Handle(path, withLogging(h.list)), with the adapter in the
// routes' package or another of the module's, or a middleware struct
// holding the handler) are followed through the adapter's closure into
// the handler it was given, under the request the closure passes: a
// timeout middleware's deadline bounds the handler's calls. A call the handler reaches inside a dependency is at the
// module's call into it. Registrations whose handler the map cannot name
// are entries that say why, and reach nothing.
func TestBuildFollowsAdapters(t *testing.T) {
	pkgs := []string{"resilmap/adaptermw", "resilmap/adapterstore"}
	m := buildFixtureIn(t, "resilmap", "resilmap/adapter", pkgs...)
	require.NoError(t, m.Check())
	type entry struct{ name, fn, notFollowed string }
	var entries []entry
	for _, e := range m.Entries {
		entries = append(entries, entry{e.Name, e.Func, e.NotFollowed})
	}
	assert.Equal(t, []entry{
		{"main", "main.main", ""},
		{"GET /items", "main.handlers.list", ""},
		{"POST /sync", "main.main (closure)", ""},
		{"GET /slow", "main.handlers.list", ""},
		{"GET /wrapped", "main.handlers.list", ""},
		{"GET /either", "main.withLogging (closure)", "main.withLogging (closure) calls a handler that is made by main.pick, whose result is chosen at run time among several"},
		{"GET /table", "", "the handler is a func value read from a variable, a field or a table"},
		{"GET /std", "", "the handler is made by http.TimeoutHandler, outside the module, which the map does not follow"},
		{"GET /logged", "main.handlers.list", ""},
		{"GET /twice", "main.handlers.sync", ""},
		{"Ping/Ping", "", "the handler is a service implementation the engine cannot name"},
		{"main.handlers.sweep", "main.handlers.sweep", ""},
		{"job scheduled by cron.Cron.AddFunc", "", "the handler is a func value read from a variable, a field or a table"},
		{"(pattern not a constant)", "main.withLogging (closure)", "main.withLogging (closure) calls a handler that is a parameter of the registering function: the map does not follow the registration back to its callers"},
	}, entries)

	calls := map[string]resilmap.Call{}
	for _, c := range m.Calls {
		calls[c.ID] = c
	}
	names := map[string]string{}
	for _, e := range m.Entries {
		names[e.ID] = e.Name
	}
	type path struct {
		call     string
		via      []string
		deadline resilmap.Deadline
	}
	got := map[string][]path{}
	for _, p := range m.Paths {
		got[names[p.Entry]] = append(got[names[p.Entry]], path{calls[p.Call].Callee + " " + calls[p.Call].Pos, p.Via, p.Deadline})
	}
	request := resilmap.Deadline{Source: resilmap.DeadlineRequest, What: "the incoming request's context"}
	timeout := resilmap.Deadline{Source: resilmap.DeadlineTimeout, What: "context.WithTimeout(2s)", Pos: "resilmap/adaptermw/mw.go:14:18"}
	do := "http.Client.Do " + fixturePos(t, "resilmap/adapter/adapter.go", "h.client.Do(req); err == nil {\n\t\tresp.Body.Close()\n\t}\n\t_ =", len("h.client.Do")) // the call's parenthesis
	query := "sql.DB.QueryRowContext resilmap/adapterstore/store.go:14:24"
	assert.ElementsMatch(t, []path{
		{do, []string{"main.withLogging (closure)", "main.handlers.list"}, request},
		{query, []string{"main.withLogging (closure)", "main.handlers.list", "adapterstore.Store.Items"}, request},
	}, got["GET /items"])
	assert.ElementsMatch(t, []path{
		{do, []string{"main.withLogging (closure)", "adaptermw.Timeout (closure)", "main.handlers.list"}, timeout},
		{query, []string{"main.withLogging (closure)", "adaptermw.Timeout (closure)", "main.handlers.list", "adapterstore.Store.Items"}, timeout},
	}, got["GET /slow"], "the middleware's deadline bounds the handler's calls")
	assert.Len(t, got["GET /wrapped"], 2, "an http.Handler the adapter serves")
	require.Len(t, got["GET /logged"], 2, "a middleware struct's handler")
	assert.Equal(t, []string{"adaptermw.Logger.ServeHTTP", "main.handlers.list"}, got["GET /logged"][0].via)
	require.Len(t, got["main.handlers.sweep"], 1, "a job behind an adapter")
	assert.Equal(t, []string{"main.withRecover (closure)", "main.handlers.sweep"}, got["main.handlers.sweep"][0].via)
	require.Len(t, got["GET /twice"], 1, "an adapter around its own closure")
	assert.Equal(t, []string{"main.withLogging (closure)", "main.withLogging (closure)", "main.handlers.sync"}, got["GET /twice"][0].via)
	require.Len(t, got["POST /sync"], 1)
	assert.Equal(t, resilmap.DeadlineNone, got["POST /sync"][0].deadline.Source)
	for _, name := range []string{"GET /either", "GET /table", "GET /std", "(pattern not a constant)", "Ping/Ping", "job scheduled by cron.Cron.AddFunc"} {
		assert.Empty(t, got[name], name)
	}
	for _, p := range got["main"] {
		assert.NotContains(t, p.via, "main.handlers.list", "main reaches the handlers it registers only as entries of their own")
	}

	for _, c := range m.Calls {
		if c.Callee == "sql.DB.QueryRowContext" {
			assert.Equal(t, "sqlx.DB.GetContext", c.Through, "the call is made inside the dependency")
			assert.Equal(t, "adapterstore.Store.Items", c.Func, "at the module's own call into it")
		}
	}

	// Outside the module mapped, the other package's adapter is not
	// followed: the entry says so.
	m = buildFixture(t, "resilmap/adapter", pkgs...)
	for _, e := range m.Entries {
		if e.Name == "GET /slow" {
			assert.Equal(t, "main.withLogging (closure) calls a handler that is made by adaptermw.Timeout, outside the module, which the map does not follow", e.NotFollowed)
		}
	}
}

// TestBuildUnmappedFindings: a finding on a path is the path's; one in
// code no entry reaches, or at no call site on the way, is listed apart,
// once, so that every finding is on the map somewhere.
func TestBuildUnmappedFindings(t *testing.T) {
	src := fixtureSource(t, "resilmap", "resilmap/adapter", "resilmap/adaptermw", "resilmap/adapterstore")
	background := fixturePos(t, "resilmap/adapter/adapter.go", "context.Background(), http.MethodPost", 0)
	pick := fixturePos(t, "resilmap/adapter/adapter.go", "time.Now().Unix()%2", 0)
	onPath := resilmap.Finding{Analyzer: "ctxdrop", Message: "on the sync handler's call", Pos: filepath.Join(src.Root, background)}
	offPath := resilmap.Finding{Analyzer: "notimeout", Message: "in a handler no entry reaches", Pos: filepath.Join(src.Root, pick)}
	src.Findings = []resilmap.Finding{onPath, offPath, offPath}
	m := resilmap.Build(src)
	shown := 0
	for _, p := range m.Paths {
		for _, f := range p.Findings {
			assert.Equal(t, onPath.Message, f.Message)
			shown++
		}
	}
	assert.Positive(t, shown)
	assert.Equal(t, []resilmap.Finding{{Analyzer: "notimeout", Message: "in a handler no entry reaches", Pos: pick}}, m.Unmapped)
}

// fixturePos returns the position, as the map writes it, of the column
// off bytes into the first occurrence of text in a file of the shared
// testdata tree.
func fixturePos(t *testing.T, file, text string, off int) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(resilvettest.TestData(), "src", file))
	require.NoError(t, err)
	i := strings.Index(string(b), text)
	require.GreaterOrEqual(t, i, 0, "%q not in %s", text, file)
	i += off
	line := strings.Count(string(b[:i]), "\n") + 1
	col := i - strings.LastIndexByte(string(b[:i]), '\n')
	return fmt.Sprintf("%s:%d:%d", file, line, col)
}
