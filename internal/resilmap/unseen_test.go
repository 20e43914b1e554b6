package resilmap

import (
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The page's account of what the map could not see: the entries not
// followed into their handler, the findings on no path, the packages
// that did not load. adapter.json is the map of a service whose handlers
// are registered through adapters (cmd/resilvet/testdata/adapter), with a
// package that did not load.

// section returns the content of the page's section of the id, or "".
func section(page, id string) string {
	m := regexp.MustCompile(`(?s)<section[^>]* id="` + id + `">(.*?)</section>`).FindStringSubmatch(page)
	if m == nil {
		return ""
	}
	return m[1]
}

// headerCounts returns the header's figures by name.
func headerCounts(page string) map[string]string {
	got := map[string]string{}
	for _, m := range regexp.MustCompile(`<dd data-count="(\w+)">(\d+)</dd>`).FindAllStringSubmatch(page, -1) {
		got[m[1]] = m[2]
	}
	return got
}

// TestWriteHTMLEntriesNotFollowed: each entry the map could not follow
// into its handler is listed with why, in a section of its own and in
// its group of the table, and counted in the header; a followed entry is
// not listed.
func TestWriteHTMLEntriesNotFollowed(t *testing.T) {
	m := readSample(t, "adapter.json")
	page := render(t, m)
	got := section(page, "not-followed")
	require.NotEmpty(t, got, "no section for the entries not followed")
	assert.Contains(t, got, "<h2>Entries not followed into their handler</h2>")
	var listed int
	for _, e := range m.Entries {
		if e.NotFollowed == "" {
			assert.NotContains(t, got, "<b>"+e.Name+"</b>", "a followed entry")
			continue
		}
		listed++
		assert.Contains(t, got, "<b>"+e.Name+"</b> <span class=\"pos\">"+e.Pos+"</span><div>"+e.NotFollowed+"</div>")
	}
	assert.Equal(t, 2, listed)
	assert.Equal(t, listed, strings.Count(got, "<li>"))
	assert.Equal(t, "2", headerCounts(page)["notfollowed"])
	assertHas(t, page, `<tr class="none"><td colspan="9">not followed into its handler: the handler is a func value read from a variable, a field or a table</td></tr>`)
	assertHas(t, page, "http.Client.Do</code>")
	assertHas(t, page, "<code>sql.DB.QueryRowContext</code> inside <code>sqlx.DB.GetContext</code>")
}

// TestWriteHTMLUnmappedFindings: the findings on no path are listed in a
// section of their own and counted in the header, so the page shows every
// finding; a map whose findings are all on paths has neither.
func TestWriteHTMLUnmappedFindings(t *testing.T) {
	m := readSample(t, "adapter.json")
	require.Len(t, m.Unmapped, 1)
	page := render(t, m)
	got := section(page, "unmapped")
	require.NotEmpty(t, got, "no section for the findings on no path")
	assert.Contains(t, got, "<h2>Findings on no mapped path</h2>")
	f := m.Unmapped[0]
	assert.Contains(t, got, "<li><b>"+f.Analyzer+"</b> "+strings.ReplaceAll(f.Message, "'", "&#39;")+" <span class=\"pos\">"+f.Pos+"</span></li>")
	assert.Equal(t, "1", headerCounts(page)["unmapped"])

	page = render(t, readSample(t, "checkout.json"))
	assert.Empty(t, section(page, "unmapped"))
	assert.Empty(t, section(page, "not-followed"))
	assert.NotContains(t, headerCounts(page), "unmapped")
	assert.NotContains(t, headerCounts(page), "notfollowed")
}

// TestWriteHTMLNotLoaded: the packages that did not load are a notice at
// the top of the page, also on the page of a map with no entry.
func TestWriteHTMLNotLoaded(t *testing.T) {
	m := readSample(t, "adapter.json")
	page := render(t, m)
	got := section(page, "not-loaded")
	assert.Contains(t, got, "The map leaves out 1 package that did not load")
	assert.Contains(t, got, "<code>example.com/adapter/broken</code>: <span class=\"pos\">broken/broken.go:3:12: undefined: undefined</span>")
	assert.Less(t, strings.Index(page, `id="not-loaded"`), strings.Index(page, "<h2>Graph</h2>"), "before the map")

	empty := &Map{Version: Version, NotLoaded: m.NotLoaded, Unmapped: m.Unmapped}
	page = render(t, empty)
	assertHas(t, page, "No entry points found")
	assert.NotEmpty(t, section(page, "not-loaded"))
	assert.NotEmpty(t, section(page, "unmapped"))
	assert.Empty(t, section(render(t, readSample(t, "checkout.json")), "not-loaded"))
}
