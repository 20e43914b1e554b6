package resilmap

import (
	"context"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestMapInBrowser opens rendered maps in headless Chromium and checks
// what a reader gets: the page renders with no script error and no
// request, the graph and the table show each path once, and typing in
// the search box narrows both to the paths that mention the term, then
// clearing it shows everything again.
func TestMapInBrowser(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a browser")
	}
	browser := findChromium()
	if browser == "" {
		// CI's second step installs a browser and sets the variable, so
		// that a lost browser fails there instead of skipping.
		if os.Getenv("RESILVET_REQUIRE_BROWSER") != "" {
			t.Fatal("no Chromium found, and RESILVET_REQUIRE_BROWSER is set")
		}
		t.Skip("no Chromium found; install it with scripts/install-chromium.sh")
	}
	// One deadline for the whole test, so that a browser that hangs fails
	// the test instead of hanging it.
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(browser),
		chromedp.NoSandbox, // the sandbox cannot start as root, as in CI containers
		chromedp.DisableGPU,
	)
	ctx, cancelAlloc := chromedp.NewExecAllocator(ctx, opts...)
	defer cancelAlloc()
	ctx, cancelBrowser := chromedp.NewContext(ctx)
	defer cancelBrowser()
	if err := chromedp.Do(ctx); err != nil {
		t.Fatalf("starting %s: %v", browser, err)
	}

	t.Run("checkout", func(t *testing.T) {
		m := readSample(t, "checkout.json")
		tab := openMap(t, ctx, m)

		title, err := chromedp.Run(tab, chromedp.Title())
		require.NoError(t, err)
		assert.Equal(t, "Resilience map of example.com/checkout", title)
		heading, err := chromedp.Run(tab, chromedp.Text(chromedp.CSS("h1")))
		require.NoError(t, err)
		assert.Equal(t, "Resilience map of example.com/checkout", heading)

		assertShows(t, tab, m, "")
		for _, term := range []string{
			m.Calls[0].Target,      // one call, reached from two entries
			"payments.EXAMPLE.com", // two calls, whatever the case
			"NoTimeout",            // a finding's analyzer
			"(*Client).Charge",     // a function on the way
			"nothing has this",
		} {
			typeIn(t, tab, term)
			assertShows(t, tab, m, term)
			typeIn(t, tab, strings.Repeat(kb.Backspace, utf8.RuneCountInString(term)))
			assertShows(t, tab, m, "")
		}

		// Collapsing an entry hides its rows, and only them.
		toggle := chromedp.CSS(`tbody[data-entry="e1"] .toggle`)
		require.NoError(t, chromedp.Do(tab, chromedp.Click(toggle)))
		got := shownNow(t, tab)
		for _, r := range got.Rows {
			assert.NotEqual(t, "e1", r.Entry, "a row of a collapsed entry is visible")
		}
		assert.Len(t, got.Rows, len(m.Paths)-countPaths(m, "e1"))
		assert.Len(t, got.Edges, len(m.Paths), "collapsing the table hid edges")
		require.NoError(t, chromedp.Do(tab, chromedp.Click(toggle)))
		assertShows(t, tab, m, "")
	})

	// The hostile map's strings stay text in a real browser: no dialog
	// opens, no script runs but the page's own, and search still works
	// on them.
	t.Run("hostile", func(t *testing.T) {
		m := readSample(t, "hostile.json")
		tab := openMap(t, ctx, m)
		assertShows(t, tab, m, "")
		term := "<script>alert("
		typeIn(t, tab, term)
		assertShows(t, tab, m, term)
	})

	// The example service's map as the binary writes it (committed by
	// scripts/example-map.sh): the page shows its paths, and a search
	// for a finding's analyzer narrows to the paths carrying one.
	t.Run("example", func(t *testing.T) {
		m := readSample(t, filepath.Join("..", "..", "..", "docs", "examples", "checkout-map.json"))
		tab := openMap(t, ctx, m)
		assertShows(t, tab, m, "")
		typeIn(t, tab, "retrystack")
		assertShows(t, tab, m, "retrystack")
	})

	// A service with hundreds of entries and calls: search stays exact.
	t.Run("large", func(t *testing.T) {
		m := largeMap(300, 400, 1500)
		tab := openMap(t, ctx, m)
		assertShows(t, tab, m, "")
		term := "resource12" // resource12 and resource120 to resource129
		typeIn(t, tab, term)
		assertShows(t, tab, m, term)
	})
}

// openMap writes the page of m to a file and opens it in a new tab of the
// browser of ctx. The tab's problems fail the test when it ends.
func openMap(t *testing.T, ctx context.Context, m *Map) context.Context {
	t.Helper()
	file := filepath.Join(t.TempDir(), "map.html")
	require.NoError(t, os.WriteFile(file, []byte(render(t, m)), 0o644))
	tab, cancel := chromedp.NewContext(ctx)
	problems := &pageProblems{}
	require.NoError(t, chromedp.Listen(tab, problems.record))
	t.Cleanup(func() {
		cancel()
		for _, p := range problems.all() {
			t.Errorf("the page: %s", p)
		}
	})
	u := url.URL{Scheme: "file", Path: filepath.ToSlash(file)}
	require.NoError(t, chromedp.Do(tab, chromedp.Navigate(u.String())))
	return tab
}

// pageProblems collects what the page must not do: throw, log an error,
// open a dialog, or request anything but its own file.
type pageProblems struct {
	mu   sync.Mutex
	list []string
}

// record is a chromedp listener: it runs on the browser connection's
// goroutine and must be quick.
func (p *pageProblems) record(ev any) {
	var problem string
	switch ev := ev.(type) {
	case *runtime.EventExceptionThrown:
		problem = "uncaught exception: " + exceptionText(ev.ExceptionDetails)
	case *runtime.EventConsoleAPICalled:
		if ev.Type == runtime.ConsoleAPICalledTypeError || ev.Type == runtime.ConsoleAPICalledTypeAssert {
			problem = fmt.Sprintf("console.%s: %s", ev.Type, argsText(ev.Args))
		}
	case *log.EventEntryAdded:
		if ev.Entry.Level == log.EntryLevelError {
			problem = fmt.Sprintf("browser log (%s): %s", ev.Entry.Source, ev.Entry.Text)
		}
	case *network.EventRequestWillBeSent:
		if u := ev.Request.URL; !strings.HasPrefix(u, "file:") {
			problem = "request to " + u
		}
	case *page.EventJavascriptDialogOpening:
		problem = fmt.Sprintf("%s dialog: %s", ev.Type, ev.Message)
	}
	if problem != "" {
		p.mu.Lock()
		p.list = append(p.list, problem)
		p.mu.Unlock()
	}
}

func (p *pageProblems) all() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return slices.Clone(p.list)
}

func exceptionText(d *runtime.ExceptionDetails) string {
	if d == nil {
		return "no details"
	}
	s := d.Text
	if d.Exception != nil && d.Exception.Description != "" {
		s += " " + d.Exception.Description
	}
	return fmt.Sprintf("%s (%s:%d:%d)", s, d.URL, d.LineNumber+1, d.ColumnNumber+1)
}

func argsText(args []*runtime.RemoteObject) string {
	var s []string
	for _, a := range args {
		if len(a.Value) > 0 {
			s = append(s, string(a.Value))
		} else {
			s = append(s, a.Description)
		}
	}
	return strings.Join(s, " ")
}

// typeIn types keys into the search box as a reader would, key by key.
func typeIn(t *testing.T, tab context.Context, keys string) {
	t.Helper()
	require.NoError(t, chromedp.Do(tab, chromedp.SendKeys(chromedp.ID("search"), keys)))
}

// shown is what the page shows at a moment: the visible rows, edges,
// nodes and entry groups, and the count next to the search box.
type shown struct {
	Rows    []shownPath `json:"rows"`
	Edges   []shownPath `json:"edges"`
	Entries []string    `json:"entries"` // graph nodes
	Calls   []string    `json:"calls"`   // graph nodes
	Groups  []string    `json:"groups"`  // table groups
	Count   string      `json:"count"`
	Search  string      `json:"search"`
}

// shownPath is a visible row or edge, by the attributes it carries.
type shownPath struct {
	Index int    `json:"index"`
	Entry string `json:"entry"`
	Call  string `json:"call"`
}

// shownScript reads what the page shows. An element is visible when it has
// a box on the page and is not hidden: Chromium's checkVisibility alone
// says an SVG group with display: none is visible.
const shownScript = `(() => {
	const visible = sel => Array.from(document.querySelectorAll(sel))
		.filter(e => e.getClientRects().length > 0 && e.checkVisibility({visibilityProperty: true}));
	const path = e => ({index: Number(e.dataset.index), entry: e.dataset.entry, call: e.dataset.call});
	return {
		rows: visible("tr.path").map(path),
		edges: visible("svg .edge").map(path),
		entries: visible("svg .node[data-entry]").map(e => e.dataset.entry),
		calls: visible("svg .node[data-call]").map(e => e.dataset.call),
		groups: visible("tbody.entry").map(e => e.dataset.entry),
		count: document.getElementById("shown").textContent,
		search: document.getElementById("search").value,
	};
})()`

func shownNow(t *testing.T, tab context.Context) shown {
	t.Helper()
	s, err := chromedp.Run(tab, chromedp.Evaluate[shown](shownScript))
	require.NoError(t, err)
	return s
}

// assertShows checks that the page shows exactly the paths of m that
// mention term (all of them for ""), each as the entry and call the map
// gives it, with the nodes and groups of those paths; and, when term is
// "", every node and group.
func assertShows(t *testing.T, tab context.Context, m *Map, term string) {
	t.Helper()
	got := shownNow(t, tab)
	require.Equal(t, term, got.Search, "the search box")

	var want []int
	entries, calls := map[string]bool{}, map[string]bool{}
	for i := range m.Paths {
		if term == "" || mentions(m, &m.Paths[i], term) {
			want = append(want, i)
			entries[m.Paths[i].Entry] = true
			calls[m.Paths[i].Call] = true
		}
	}
	if term == "" {
		require.Len(t, want, len(m.Paths))
		for _, e := range m.Entries {
			entries[e.ID] = true
		}
		for _, c := range m.Calls {
			calls[c.ID] = true
		}
	}

	for what, items := range map[string][]shownPath{"rows": got.Rows, "edges": got.Edges} {
		var indexes []int
		for _, it := range items {
			indexes = append(indexes, it.Index)
			if it.Index >= 0 && it.Index < len(m.Paths) {
				p := m.Paths[it.Index]
				assert.Equal(t, [2]string{p.Entry, p.Call}, [2]string{it.Entry, it.Call}, "%s: path %d", what, it.Index)
			}
		}
		slices.Sort(indexes)
		assert.Equal(t, want, indexes, "visible %s for %q", what, term)
	}
	assert.ElementsMatch(t, keys(entries), got.Entries, "visible entry nodes for %q", term)
	assert.ElementsMatch(t, keys(calls), got.Calls, "visible call nodes for %q", term)
	assert.ElementsMatch(t, keys(entries), got.Groups, "visible entry groups for %q", term)
	wantCount := fmt.Sprintf("%d of %d paths", len(want), len(m.Paths))
	if term == "" {
		wantCount = plural(len(m.Paths), "path", "paths")
	}
	assert.Equal(t, wantCount, got.Count, "the count by the search box")
}

func keys(set map[string]bool) []string {
	var out []string
	for k := range set {
		out = append(out, k)
	}
	return out
}

func countPaths(m *Map, entry string) int {
	n := 0
	for _, p := range m.Paths {
		if p.Entry == entry {
			n++
		}
	}
	return n
}

// findChromium returns the browser to drive: the first that chromedp's
// own lookup would start (its list is not exported; this is a copy), or
// "" if there is none.
func findChromium() string {
	for _, name := range []string{
		"headless_shell", "headless-shell",
		"chromium", "chromium-browser",
		"google-chrome", "google-chrome-stable", "google-chrome-beta", "google-chrome-unstable",
		"/usr/bin/google-chrome", "/usr/local/bin/chrome", "/snap/bin/chromium", "chrome",
		"/Applications/Chromium.app/Contents/MacOS/Chromium",
		"/Applications/Google Chrome.app/Contents/MacOS/Google Chrome",
	} {
		if path, err := exec.LookPath(name); err == nil {
			return path
		}
	}
	return ""
}
