package resilmap

import (
	"errors"
	"html"
	"io"
	"text/template"
)

// graphTemplate draws the page's graph as a standalone SVG image (the
// picture of a map in a README). It is a text template: every string it
// writes from the map is escaped first (escapedGraph).
var graphTemplate = template.Must(template.ParseFS(assets, "assets/graph.svg.tmpl"))

// WriteSVG writes the graph of m, entries on the left and the calls they
// reach on the right with one edge per path coloured as on the page, as
// one SVG image with its style inside.
func WriteSVG(w io.Writer, m *Map) error {
	if m == nil {
		return errors.New("resilience map: no map to draw")
	}
	if err := m.Check(); err != nil {
		return err
	}
	if len(m.Entries) == 0 {
		return errors.New("resilience map: no entry points to draw")
	}
	levels := make([]level, len(m.Paths))
	for i := range m.Paths {
		levels[i] = pathLevel(&m.Paths[i])
	}
	return graphTemplate.Execute(w, escapedGraph(layout(m, levels)))
}

// escapedGraph returns g with its text escaped for XML (the escapes of
// HTML's text and attributes are XML's).
func escapedGraph(g *graph) *graph {
	out := *g
	esc := func(ns []node) []node {
		out := make([]node, len(ns))
		for i, n := range ns {
			n.Kind, n.Label, n.Title = html.EscapeString(n.Kind), html.EscapeString(n.Label), html.EscapeString(n.Title)
			out[i] = n
		}
		return out
	}
	out.Entries, out.Calls = esc(g.Entries), esc(g.Calls)
	out.Edges = make([]edge, len(g.Edges))
	for i, e := range g.Edges {
		e.Title = html.EscapeString(e.Title)
		out.Edges[i] = e
	}
	return &out
}
