package resilmap

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestWriteHTMLMatchesMap checks that the graph and the table show each
// path of the map once, as the same entry and call, and each entry and
// call once.
func TestWriteHTMLMatchesMap(t *testing.T) {
	for _, name := range samples(t) {
		t.Run(name, func(t *testing.T) {
			m := readSample(t, name)
			all := tags(render(t, m))
			assertOnePerPath(t, m, "graph edges", selectTags(all, "path", "edge"))
			assertOnePerPath(t, m, "table rows", selectTags(all, "tr", "path"))

			var entryNodes, callNodes, groups []string
			for _, tg := range selectTags(all, "g", "node") {
				if id, ok := tg.attrs["data-entry"]; ok {
					entryNodes = append(entryNodes, id)
				} else {
					callNodes = append(callNodes, tg.attrs["data-call"])
				}
			}
			for _, tg := range selectTags(all, "tbody", "entry") {
				groups = append(groups, tg.attrs["data-entry"])
			}
			var entries, calls []string
			for _, e := range m.Entries {
				entries = append(entries, e.ID)
			}
			for _, c := range m.Calls {
				calls = append(calls, c.ID)
			}
			assert.Equal(t, entries, entryNodes, "entry nodes, in the map's order")
			assert.Equal(t, entries, groups, "table groups, in the map's order")
			assert.ElementsMatch(t, calls, callNodes, "call nodes")
		})
	}
}

// assertOnePerPath checks that got, the edges or the rows of a page, are
// one per path of m and name the path's entry and call.
func assertOnePerPath(t *testing.T, m *Map, what string, got []tag) {
	t.Helper()
	require.Len(t, got, len(m.Paths), what)
	var want, have []string
	seen := make([]bool, len(m.Paths))
	for _, p := range m.Paths {
		want = append(want, p.Entry+" → "+p.Call)
	}
	for _, g := range got {
		have = append(have, g.attrs["data-entry"]+" → "+g.attrs["data-call"])
		i, err := strconv.Atoi(g.attrs["data-index"])
		require.NoError(t, err, what)
		require.True(t, i >= 0 && i < len(m.Paths), "%s: data-index %d out of range", what, i)
		require.False(t, seen[i], "%s: path %d shown twice", what, i)
		seen[i] = true
		p := &m.Paths[i]
		assert.Equal(t, p.Entry, g.attrs["data-entry"], "%s: path %d", what, i)
		assert.Equal(t, p.Call, g.attrs["data-call"], "%s: path %d", what, i)
		assert.Equal(t, p.Entry+" "+p.Call, g.attrs["data-path"], "%s: path %d", what, i)
		assert.True(t, g.hasClass(pathLevel(p).String()), "%s: path %d has class %q", what, i, g.attrs["class"])
	}
	assert.ElementsMatch(t, want, have, what)
}

func TestWriteHTMLColoursCheckout(t *testing.T) {
	m := readSample(t, "checkout.json")
	want := map[string]string{
		"e1 c1": "red",   // retried 9 times, findings
		"e1 c5": "amber", // hedged, not idempotent
		"e2 c3": "green",
		"e2 c6": "green",
		"e3 c4": "red", // no deadline
		"e4 c2": "green",
		"e4 c7": "amber", // deadline unknown
		"e5 c1": "red",
		"e5 c5": "amber",
		"e5 c6": "green",
	}
	got := map[string]string{}
	for _, e := range selectTags(tags(render(t, m)), "path", "edge") {
		for _, c := range []string{"red", "amber", "green"} {
			if e.hasClass(c) {
				got[e.attrs["data-path"]] = c
			}
		}
	}
	assert.Equal(t, want, got)
}

func TestPathLevel(t *testing.T) {
	yes, no := true, false
	retry := func(product string, layers int) *Retry {
		return &Retry{Product: product, Layers: make([]Layer, layers)}
	}
	hedge := &Layer{What: "hedgedhttp client"}
	for _, tc := range []struct {
		name string
		p    Path
		want level
	}{
		{"request deadline", Path{Deadline: Deadline{Source: DeadlineRequest}}, levelGreen},
		{"no deadline", Path{Deadline: Deadline{Source: DeadlineNone}}, levelRed},
		{"finding", Path{Deadline: Deadline{Source: DeadlineTimeout}, Findings: []Finding{{Analyzer: "ctxdrop"}}}, levelRed},
		{"unknown deadline", Path{Deadline: Deadline{Source: DeadlineUnknown}}, levelAmber},
		{"retried, not idempotent", Path{Deadline: Deadline{Source: DeadlineClient}, Retry: retry("9", 2), Idempotent: &no}, levelAmber},
		{"retried unboundedly, not idempotent", Path{Deadline: Deadline{Source: DeadlineClient}, Retry: retry("unbounded", 1), Idempotent: &no}, levelAmber},
		{"retried an unknown number of times, not idempotent", Path{Deadline: Deadline{Source: DeadlineClient}, Retry: retry("unknown", 1), Idempotent: &no}, levelAmber},
		{"one attempt, not idempotent", Path{Deadline: Deadline{Source: DeadlineClient}, Retry: retry("1", 1), Idempotent: &no}, levelGreen},
		{"retried, idempotent", Path{Deadline: Deadline{Source: DeadlineClient}, Retry: retry("9", 2), Idempotent: &yes}, levelGreen},
		{"retried, idempotence unknown", Path{Deadline: Deadline{Source: DeadlineClient}, Retry: retry("9", 2)}, levelGreen},
		{"hedged, not idempotent", Path{Deadline: Deadline{Source: DeadlineRequest}, Hedge: hedge, Idempotent: &no}, levelAmber},
		{"hedged, idempotent", Path{Deadline: Deadline{Source: DeadlineRequest}, Hedge: hedge, Idempotent: &yes}, levelGreen},
		{"hedged, not idempotent, no deadline", Path{Deadline: Deadline{Source: DeadlineNone}, Hedge: hedge, Idempotent: &no}, levelRed},
	} {
		assert.Equal(t, tc.want, pathLevel(&tc.p), tc.name)
	}
}

func TestWriteHTMLCounts(t *testing.T) {
	page := render(t, readSample(t, "checkout.json"))
	got := map[string]string{}
	for _, m := range regexp.MustCompile(`<dd data-count="(\w+)">(\d+)</dd>`).FindAllStringSubmatch(page, -1) {
		got[m[1]] = m[2]
	}
	assert.Equal(t, map[string]string{"entries": "5", "calls": "7", "paths": "10", "findings": "3", "unbounded": "1"}, got)
	assertHas(t, page, "<title>Resilience map of example.com/checkout</title>")
}

// pageTags are the elements the page is made of. A name in the map that
// got past the escaping would add another (an img, a second script).
var pageTags = []string{
	"html", "head", "meta", "title", "style", "body", "header", "h1", "h2", "code", "dl", "div", "dt", "dd",
	"main", "label", "input", "span", "button", "section", "ul", "ol", "li", "svg", "text", "g", "path",
	"rect", "tspan", "table", "colgroup", "col", "thead", "tbody", "tr", "th", "td", "details", "summary",
	"b", "i", "p", "footer", "script",
}

func TestWriteHTMLEscapes(t *testing.T) {
	m := readSample(t, "hostile.json")
	page := render(t, m)
	for _, raw := range []string{
		"<script>alert", "<img", "<marquee", "<b>evil", "<b>9</b>", "<!--", "<i>kind", "</title><script>",
		"</style><script>", "</svg><script>", "<svg onload", `" onclick="`, `' onmouseover='`, `" onfocus="`,
	} {
		assertHasNot(t, page, raw)
	}
	for _, escaped := range []string{
		"POST /x&#34;&gt;&lt;script&gt;alert(1)&lt;/script&gt;",
		"&lt;img src=x onerror=alert(3)&gt;",
		"&lt;/title&gt;&lt;script&gt;alert(4)&lt;/script&gt;",
		"&lt;/textarea&gt;&lt;svg onload=alert(13)&gt; &amp;amp; &#34;quoted&#34; &#39;single&#39;",
		"{{.}} {{template &#34;x&#34;}}", // data is not a template
		"the handler is &lt;script&gt;alert(14)&lt;/script&gt;",
		"&lt;script&gt;alert(16)&lt;/script&gt;",
		"&lt;marquee&gt;pkg&lt;/marquee&gt;",
	} {
		assertHas(t, page, escaped)
	}

	all := tags(page)
	var scripts, styles int
	for _, tg := range all {
		assert.Contains(t, pageTags, tg.name, "an element the page does not make")
		for a := range tg.attrs {
			assert.False(t, strings.HasPrefix(a, "on"), "<%s> has an event handler attribute %s", tg.name, a)
		}
		switch tg.name {
		case "script":
			scripts++
		case "style":
			styles++
		}
	}
	assert.Equal(t, 1, scripts, "script elements")
	assert.Equal(t, 1, styles, "style elements")

	// The hostile entry ID comes back whole from every attribute that
	// holds it: the tbody, the node, the row and the edge.
	hostileID := m.Entries[0].ID
	require.Contains(t, hostileID, `"`)
	var holders []string
	for _, tg := range all {
		if tg.attrs["data-entry"] == hostileID {
			holders = append(holders, tg.name)
		}
	}
	assert.ElementsMatch(t, []string{"tbody", "g", "tr", "path"}, holders)
}

// TestWriteHTMLLoadsNothing checks that the page names no resource to
// load: no src, no href but to its own rows, no external style or script,
// and a Content-Security-Policy that forbids loads and any script or
// style sheet but the page's own.
func TestWriteHTMLLoadsNothing(t *testing.T) {
	for _, name := range samples(t) {
		page := render(t, readSample(t, name))
		policies := 0
		for _, tg := range tags(page) {
			for _, a := range []string{"src", "srcset", "href", "xlink:href", "action", "formaction", "poster", "data", "background"} {
				v, ok := tg.attrs[a]
				if ok && !strings.HasPrefix(v, "#") {
					t.Errorf("%s: <%s %s=%q> names a resource", name, tg.name, a, v)
				}
			}
			if tg.name == "meta" && tg.attrs["http-equiv"] == "Content-Security-Policy" {
				policies++
				csp := tg.attrs["content"]
				assert.True(t, strings.HasPrefix(csp, "default-src 'none'; "), csp)
				assert.Contains(t, csp, "script-src "+cspHash(inner(t, page, "script")))
				assert.Contains(t, csp, "style-src "+cspHash(inner(t, page, "style")))
			}
		}
		assert.Equal(t, 1, policies, "%s: Content-Security-Policy meta elements", name)
	}
	for _, asset := range []string{pageCSS, pageJS} {
		for _, s := range []string{"://", "url(", "@import", "fetch(", "XMLHttpRequest", "WebSocket", "EventSource", "sendBeacon", "import("} {
			assert.NotContains(t, asset, s)
		}
	}
}

// inner returns the content of the page's only element named name.
func inner(t *testing.T, page, name string) string {
	t.Helper()
	m := regexp.MustCompile(`(?s)<`+name+`>(.*?)</`+name+`>`).FindAllStringSubmatch(page, -1)
	require.Len(t, m, 1, name)
	return m[0][1]
}

func cspHash(s string) string {
	sum := sha256.Sum256([]byte(s))
	return "'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "'"
}

func TestWriteHTMLDeterministic(t *testing.T) {
	for _, name := range samples(t) {
		m := readSample(t, name)
		first := render(t, m)
		assert.Equal(t, first, render(t, m), name)

		var buf bytes.Buffer
		require.NoError(t, WriteJSON(&buf, m))
		again, err := ReadJSON(&buf)
		require.NoError(t, err)
		assert.Equal(t, first, render(t, again), "%s after a JSON round trip", name)
	}
}

func TestWriteHTMLNoEntries(t *testing.T) {
	for _, m := range []*Map{
		readSample(t, "empty.json"),
		{Version: Version},
	} {
		page := render(t, m)
		assertHas(t, page, "No entry points found")
		for _, absent := range []string{"<svg", "<table", `id="search"`} {
			assertHasNot(t, page, absent)
		}
	}
}

func TestWriteHTMLEntriesWithoutPaths(t *testing.T) {
	m := &Map{
		Version: Version,
		Entries: []Entry{{ID: "e1", Kind: EntryMain, Name: "main"}},
		Calls:   []Call{{ID: "c1", Kind: CallSQL, Target: "SELECT t"}},
	}
	page := render(t, m)
	all := tags(page)
	assert.Len(t, selectTags(all, "g", "node"), 2)
	assert.Empty(t, selectTags(all, "path", "edge"))
	assertHas(t, page, "reaches no outbound call")
}

func TestWriteHTMLChecksMap(t *testing.T) {
	var buf bytes.Buffer
	assert.EqualError(t, WriteHTML(&buf, nil), "resilience map: no map to render")

	bad := &Map{
		Version: Version,
		Entries: []Entry{{ID: "e1"}},
		Calls:   []Call{{ID: "c1"}},
		Paths:   []Path{{Entry: "e1", Call: "c2"}},
	}
	err := WriteHTML(&buf, bad)
	require.Error(t, err)
	assert.Equal(t, bad.Check(), err)
	assert.Zero(t, buf.Len(), "wrote a page for a map that fails Check")
}

// TestSearchTextCoversEveryString checks that a row is searched by every
// string of its path, entry and call but the IDs, and by nothing else.
func TestSearchTextCoversEveryString(t *testing.T) {
	for _, name := range samples(t) {
		m := readSample(t, name)
		entries, calls := byID(m)
		for i := range m.Paths {
			p := &m.Paths[i]
			got := strings.Split(searchText(entries[p.Entry], calls[p.Call], p), "\n")
			assert.ElementsMatch(t, pathStrings(m, p), got, "%s: path %d", name, i)
		}
	}
}

// TestWriteHTMLLargeMap renders a map the size of a large service and
// checks the page still has one edge and one row per path, boxes that do
// not overlap, and edges that start and end at their boxes.
func TestWriteHTMLLargeMap(t *testing.T) {
	m := largeMap(300, 400, 1500)
	require.NoError(t, m.Check())
	page := render(t, m)
	all := tags(page)
	assertOnePerPath(t, m, "graph edges", selectTags(all, "path", "edge"))
	assertOnePerPath(t, m, "table rows", selectTags(all, "tr", "path"))

	var svg tag
	for _, tg := range all {
		if tg.name == "svg" {
			svg = tg
		}
	}
	height, err := strconv.Atoi(svg.attrs["height"])
	require.NoError(t, err)
	boxY := map[string]int{} // by entry or call ID
	columnY := map[string][]int{}
	for _, tg := range all {
		if tg.name != "rect" {
			continue
		}
		y, err := strconv.Atoi(tg.attrs["y"])
		require.NoError(t, err)
		assert.True(t, y >= headHeight && y+boxHeight <= height, "box at y=%d outside the drawing", y)
		columnY[tg.attrs["x"]] = append(columnY[tg.attrs["x"]], y)
	}
	require.Len(t, columnY, 2, "two columns")
	for x, ys := range columnY {
		slices.Sort(ys)
		for i := 1; i < len(ys); i++ {
			assert.GreaterOrEqual(t, ys[i]-ys[i-1], boxHeight, "boxes overlap in the column at x=%s", x)
		}
	}
	g := layout(m, make([]level, len(m.Paths)))
	for _, n := range g.Entries {
		boxY[n.ID] = n.Y
	}
	for _, n := range g.Calls {
		boxY[n.ID] = n.Y
	}
	var x1, y1, x2, y2 int
	for _, e := range g.Edges {
		var cx1, cy1, cx2, cy2 int
		_, err := fmt.Sscanf(e.D, "M%d %dC%d %d %d %d %d %d", &x1, &y1, &cx1, &cy1, &cx2, &cy2, &x2, &y2)
		require.NoError(t, err, e.D)
		assert.Equal(t, []int{boxWidth, boxY[e.Entry] + boxHeight/2}, []int{x1, y1}, "edge %d starts off its entry", e.Index)
		assert.Equal(t, []int{g.CallsX, boxY[e.Call] + boxHeight/2}, []int{x2, y2}, "edge %d ends off its call", e.Index)
	}
	assert.Less(t, len(page), 4<<20, "page size")
}

// largeMap makes a map with the given numbers of entries, calls and
// paths, the same each time.
func largeMap(entries, calls, paths int) *Map {
	r := rand.New(rand.NewPCG(1, 2))
	m := &Map{Version: Version, Module: "example.com/big"}
	for i := range entries {
		m.Entries = append(m.Entries, Entry{
			ID: fmt.Sprintf("e%d", i+1), Kind: EntryHTTP, Name: fmt.Sprintf("GET /api/v1/resource%d/{id}", i),
			Func: fmt.Sprintf("example.com/big/api.(*Server).Handle%d", i), Pos: fmt.Sprintf("api/routes.go:%d:2", i+10),
		})
	}
	for i := range calls {
		m.Calls = append(m.Calls, Call{
			ID: fmt.Sprintf("c%d", i+1), Kind: CallHTTP, Target: fmt.Sprintf("GET https://backend%d.internal.example.com/v2/things", i),
			Callee: "(*net/http.Client).Do", Func: fmt.Sprintf("example.com/big/clients.Get%d", i), Pos: fmt.Sprintf("clients/c.go:%d:9", i+1),
		})
	}
	sources := []string{DeadlineRequest, DeadlineTimeout, DeadlineClient, DeadlineNone, DeadlineUnknown}
	for range paths {
		e, c := &m.Entries[r.IntN(entries)], &m.Calls[r.IntN(calls)]
		p := Path{Entry: e.ID, Call: c.ID, Via: []string{e.Func, c.Func}, Deadline: Deadline{Source: sources[r.IntN(len(sources))]}}
		if r.IntN(4) == 0 {
			p.Retry = &Retry{Product: "3", Layers: []Layer{{What: "retry.Do", Attempts: "3", Pos: "clients/c.go:1:1"}}}
		}
		m.Paths = append(m.Paths, p)
	}
	return m
}

// TestOrderCalls checks that the call column follows the entries that
// reach its calls, so that edges run level where they can.
func TestOrderCalls(t *testing.T) {
	m := &Map{
		Entries: []Entry{{ID: "e1"}, {ID: "e2"}, {ID: "e3"}},
		Calls:   []Call{{ID: "unreached"}, {ID: "from e3"}, {ID: "from e1"}, {ID: "from e1 and e3"}, {ID: "from e2"}},
		Paths: []Path{
			{Entry: "e3", Call: "from e3"},
			{Entry: "e1", Call: "from e1"},
			{Entry: "e1", Call: "from e1 and e3"},
			{Entry: "e3", Call: "from e1 and e3"},
			{Entry: "e2", Call: "from e2"},
		},
	}
	var got []string
	for _, i := range orderCalls(m) {
		got = append(got, m.Calls[i].ID)
	}
	// "from e2" and "from e1 and e3" tie at row 1: the map's order.
	assert.Equal(t, []string{"from e1", "from e1 and e3", "from e2", "from e3", "unreached"}, got)
}

func TestBowOffset(t *testing.T) {
	var got []int
	for k := range 11 {
		got = append(got, bowOffset(k))
	}
	assert.Equal(t, []int{0, 8, -8, 16, -16, 24, -24, 32, -32, 0, 8}, got)
}

func TestCut(t *testing.T) {
	assert.Equal(t, "abc", cut("abc", 3))
	assert.Equal(t, "ab…", cut("abcd", 3))
	assert.Equal(t, "ca…", cut("café", 3))
	assert.Equal(t, "🍰🍰…", cut("🍰🍰🍰🍰", 3))
	assert.Equal(t, "", cut("abc", 0))
}

// TestExampleMapPicture: the README's picture of the example service's
// map is what WriteSVG draws from the committed map-json (both written by
// scripts/example-map.sh; the binary's end-to-end test checks the
// map-json against the example service).
func TestExampleMapPicture(t *testing.T) {
	m := readMapFile(t, filepath.Join("..", "..", "docs", "examples", "checkout-map.json"))
	var buf bytes.Buffer
	require.NoError(t, WriteSVG(&buf, m))
	want, err := os.ReadFile(filepath.Join("..", "..", "docs", "examples", "checkout-map.svg"))
	require.NoError(t, err)
	assert.Equal(t, string(want), buf.String(), "docs/examples/checkout-map.svg is stale: run scripts/example-map.sh")
}

// TestWriteSVGEscapes: names from the code cannot add markup to the
// picture, and a map with nothing to draw is an error, not an empty image.
func TestWriteSVGEscapes(t *testing.T) {
	m := readSample(t, "hostile.json")
	var buf bytes.Buffer
	require.NoError(t, WriteSVG(&buf, m))
	assert.NotContains(t, buf.String(), "<script")
	assert.Equal(t, 1, strings.Count(buf.String(), "<svg "))
	assert.Equal(t, len(m.Paths), strings.Count(buf.String(), `<path class="edge `))
	assert.Error(t, WriteSVG(&buf, &Map{Version: Version}))
}
