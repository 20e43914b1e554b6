package resilmap

import (
	"strings"

	"github.com/resilvet/resilvet/internal/summary"
)

// The findings on the map: a path carries those at the call sites on its
// way, at its layers, at the call and where the call's unbounded value
// is made; the others lie on no path, and the map lists them apart, so
// that every finding of a plain run is on the map somewhere.

// layerSites are the layers' positions: a finding there (retrystack's,
// hedgeidem's at a retry layer) lies on the path.
func layerSites(layers []summary.MapLayer) []string {
	var out []string
	for _, l := range layers {
		out = append(out, l.At)
	}
	return out
}

// findings returns the findings at the given positions: the call sites
// on the way, the outbound call, and where its unbounded value is made.
func (b *builder) findings(at []string) []Finding {
	var out []Finding
	for _, f := range b.src.Findings {
		for _, p := range at {
			// By line: the engine keeps a call's parenthesis, the
			// analyzers report where the expression starts.
			if p != "" && fileLine(f.Pos) == fileLine(p) {
				out = append(out, Finding{Analyzer: f.Analyzer, Message: f.Message, Pos: b.rel(f.Pos)})
				break
			}
		}
	}
	return out
}

// unmapped returns the findings that lie on no path of the map, in the
// order of the source's.
func (b *builder) unmapped() []Finding {
	shown := map[Finding]bool{}
	for _, p := range b.m.Paths {
		for _, f := range p.Findings {
			shown[f] = true
		}
	}
	var out []Finding
	for _, f := range b.src.Findings {
		f.Pos = b.rel(f.Pos)
		if !shown[f] {
			shown[f] = true
			out = append(out, f)
		}
	}
	return out
}

// fileLine drops the column of a file:line:col position.
func fileLine(pos string) string {
	if i := strings.LastIndexByte(pos, ':'); i > 0 {
		return pos[:i]
	}
	return pos
}
