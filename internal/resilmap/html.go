package resilmap

import (
	"crypto/sha256"
	"embed"
	"encoding/base64"
	"errors"
	"html/template"
	"io"
)

// The page's template, style sheet and script are embedded and inlined, so
// the page loads nothing: it opens from a file, a CI artifact or a mail
// attachment with no network, and a reader's browser fetches nothing on
// behalf of the map.
//
//go:embed assets/map.html.tmpl assets/map.css assets/map.js assets/graph.svg.tmpl
var assets embed.FS

var (
	pageTemplate = template.Must(template.New("map.html.tmpl").
			Funcs(template.FuncMap{"plural": plural}).
			ParseFS(assets, "assets/map.html.tmpl"))
	pageCSS = mustAsset("assets/map.css")
	pageJS  = mustAsset("assets/map.js")
	// pageCSP lets the page run its own script and style sheet, known by
	// their hashes, and nothing else: no inline script that a name in the
	// map might smuggle past the escaping, and no request of any kind.
	pageCSP = "default-src 'none'; script-src " + hashSource(pageJS) +
		"; style-src " + hashSource(pageCSS) + "; base-uri 'none'; form-action 'none'"
)

// WriteHTML writes m as one self-contained HTML page: a header with the
// counts, a graph of the entries and the calls they reach with one edge
// per path, coloured by how the call is protected, and a table of the
// paths, with a search box that narrows both. What the map could not see
// is said on the page too: the packages that did not load, the entries
// not followed into their handler, and the findings on no path. The page
// loads nothing from the network. The same map gives the same bytes. A
// map with no entry points gives a page that says so.
func WriteHTML(w io.Writer, m *Map) error {
	if m == nil {
		return errors.New("resilience map: no map to render")
	}
	if err := m.Check(); err != nil {
		return err
	}
	return pageTemplate.Execute(w, newPage(m))
}

// pageData is what the template renders.
type pageData struct {
	Module  string
	Version int
	Counts  counts
	Graph   *graph // nil when the map has no entries
	Groups  []group
	// What the map could not see: the entries not followed into their
	// handler, the findings on no path, the packages that did not load.
	NotFollowed []*Entry
	Unmapped    []Finding
	NotLoaded   []LoadError
	// CSP, CSS and JS are the page's own constants, trusted as they are.
	CSP template.HTMLAttr
	CSS template.CSS
	JS  template.JS
}

// counts are the header's figures.
type counts struct {
	Entries, Calls, Paths int
	// WithFindings counts the paths with at least one finding.
	WithFindings int
	// Unbounded counts the calls that nothing bounds on at least one path.
	Unbounded int
	// NotFollowed and Unmapped count the entries not followed into their
	// handler and the findings on no path; the header shows them only
	// when there are some.
	NotFollowed, Unmapped int
}

func newPage(m *Map) *pageData {
	levels := make([]level, len(m.Paths))
	for i := range m.Paths {
		levels[i] = pathLevel(&m.Paths[i])
	}
	p := &pageData{
		Module:    m.Module,
		Version:   m.Version,
		Counts:    countMap(m),
		Groups:    groupRows(m, levels),
		Unmapped:  m.Unmapped,
		NotLoaded: m.NotLoaded,
		CSP:       template.HTMLAttr(`content="` + pageCSP + `"`),
		CSS:       template.CSS(pageCSS),
		JS:        template.JS(pageJS),
	}
	for i := range m.Entries {
		if m.Entries[i].NotFollowed != "" {
			p.NotFollowed = append(p.NotFollowed, &m.Entries[i])
		}
	}
	if len(m.Entries) > 0 {
		p.Graph = layout(m, levels)
	}
	return p
}

func countMap(m *Map) counts {
	c := counts{Entries: len(m.Entries), Calls: len(m.Calls), Paths: len(m.Paths), Unmapped: len(m.Unmapped)}
	for _, e := range m.Entries {
		if e.NotFollowed != "" {
			c.NotFollowed++
		}
	}
	unbounded := map[string]bool{}
	for _, p := range m.Paths {
		if len(p.Findings) > 0 {
			c.WithFindings++
		}
		if p.Deadline.Source == DeadlineNone && !unbounded[p.Call] {
			unbounded[p.Call] = true
			c.Unbounded++
		}
	}
	return c
}

func mustAsset(name string) string {
	b, err := assets.ReadFile(name)
	if err != nil {
		panic(err) // the file is embedded: only a broken build gets here
	}
	return string(b)
}

// hashSource is the CSP source expression that allows an inline script or
// style sheet with exactly this content.
func hashSource(content string) string {
	sum := sha256.Sum256([]byte(content))
	return "'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "'"
}
