package resilmap

import (
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"
)

// The graph's geometry, in SVG user units (pixels at scale 1). Labels are
// set in a 12px monospace font, about 7.2px a character, so a label of
// labelChars characters fits in a box of boxWidth.
const (
	boxWidth   = 330 // an entry's or a call's box
	gutter     = 280 // between the columns, where the edges run
	rowHeight  = 26
	boxHeight  = 20
	headHeight = 30 // above the first row, for the column headings
	labelChars = 44
	kindChars  = 9
	// bow is how far apart the edges of paths joining the same entry and
	// call run, so that each can be seen and clicked; past maxBows a side
	// they run together again rather than off the drawing.
	bow     = 8
	maxBows = 4
)

// graph is the SVG drawing of a map: entries in the left column, calls in
// the right one, one edge per path.
type graph struct {
	Width, Height int
	CallsX        int // the left side of the call column
	BoxWidth      int
	BoxHeight     int
	Entries       []node
	Calls         []node
	// Edges are drawn in this order: green first, red last, so that the
	// edges that need attention are on top.
	Edges []edge
}

// node is an entry's or a call's box.
type node struct {
	ID    string
	Kind  string // cut to fit
	Label string // cut to fit
	Title string // the whole of it, shown on hover
	X, Y  int    // the box's top left corner
	TextX int
	TextY int
	Level level // the worst of its paths'
}

// edge is a path's curve from its entry to its call.
type edge struct {
	Index       int // in Map.Paths
	Entry, Call string
	D           string // the SVG path data
	Level       level
	Title       string
}

// layout places the entries in the map's order and the calls in the order
// that keeps edges short (see orderCalls), each column centred on the
// taller one.
func layout(m *Map, levels []level) *graph {
	rows := max(len(m.Entries), len(m.Calls))
	g := &graph{
		Width:     2*boxWidth + gutter,
		Height:    headHeight + rows*rowHeight,
		CallsX:    boxWidth + gutter,
		BoxWidth:  boxWidth,
		BoxHeight: boxHeight,
	}
	entryNode := map[string]int{}
	entryTop := headHeight + (rows-len(m.Entries))*rowHeight/2
	for i := range m.Entries {
		e := &m.Entries[i]
		y := entryTop + i*rowHeight
		entryNode[e.ID] = i
		g.Entries = append(g.Entries, newNode(e.ID, e.Kind, firstOf(e.Name, e.Func, e.ID), entryTitle(e), 0, y))
	}
	callNode := map[string]int{}
	callTop := headHeight + (rows-len(m.Calls))*rowHeight/2
	for row, i := range orderCalls(m) {
		c := &m.Calls[i]
		y := callTop + row*rowHeight
		callNode[c.ID] = len(g.Calls)
		g.Calls = append(g.Calls, newNode(c.ID, c.Kind, callLabel(c), callTitle(c), g.CallsX, y))
	}

	entries, calls := byID(m)
	seen := map[[2]string]int{} // paths drawn so far per entry and call
	for i := range m.Paths {
		p := &m.Paths[i]
		pair := [2]string{p.Entry, p.Call}
		offset := bowOffset(seen[pair])
		seen[pair]++
		en, cn := &g.Entries[entryNode[p.Entry]], &g.Calls[callNode[p.Call]]
		x1, y1 := boxWidth, en.Y+boxHeight/2
		x2, y2 := g.CallsX, cn.Y+boxHeight/2
		g.Edges = append(g.Edges, edge{
			Index: i,
			Entry: p.Entry,
			Call:  p.Call,
			D: fmt.Sprintf("M%d %dC%d %d %d %d %d %d",
				x1, y1, x1+gutter/2, y1+offset, x2-gutter/2, y2+offset, x2, y2),
			Level: levels[i],
			Title: edgeTitle(entries[p.Entry], calls[p.Call], p),
		})
		en.Level = max(en.Level, levels[i])
		cn.Level = max(cn.Level, levels[i])
	}
	slices.SortStableFunc(g.Edges, func(a, b edge) int { return int(a.Level) - int(b.Level) })
	return g
}

// bowOffset is how far the control points of the k-th edge (from 0)
// between the same two boxes move off the straight curve: 0, then below
// and above by turns, farther each pair.
func bowOffset(k int) int {
	k %= 2*maxBows + 1
	d := (k + 1) / 2 * bow
	if k%2 == 0 {
		return -d
	}
	return d
}

// orderCalls returns the indexes of m.Calls in the order the call column
// draws them: by the mean row of the entries whose paths reach each call,
// so that edges mostly run level and few cross. Calls that no path reaches
// go last. Ties keep the map's order, so the order is stable.
func orderCalls(m *Map) []int {
	entryRow := map[string]int{}
	for i, e := range m.Entries {
		entryRow[e.ID] = i
	}
	callIndex := map[string]int{}
	for i, c := range m.Calls {
		callIndex[c.ID] = i
	}
	sum := make([]int, len(m.Calls))
	n := make([]int, len(m.Calls))
	for _, p := range m.Paths {
		c := callIndex[p.Call]
		sum[c] += entryRow[p.Entry]
		n[c]++
	}
	order := make([]int, len(m.Calls))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int {
		switch {
		case n[a] == 0 || n[b] == 0:
			return n[b] - n[a] // reached before not reached
		default:
			// Compare the means sum/n exactly, without division.
			return sum[a]*n[b] - sum[b]*n[a]
		}
	})
	return order
}

func newNode(id, kind, label, title string, x, y int) node {
	kind = cut(kind, kindChars)
	return node{
		ID:    id,
		Kind:  kind,
		Label: cut(label, labelChars-utf8.RuneCountInString(kind)-1),
		Title: title,
		X:     x,
		Y:     y,
		TextX: x + 8,
		TextY: y + boxHeight/2 + 4,
	}
}

// callLabel names a call in its box: its target, or, when the code does
// not say it, the API called and the function that calls it (two calls
// of http.Client.Do are told apart by who makes them).
func callLabel(c *Call) string {
	if c.Target == "" && c.Callee != "" && c.Func != "" {
		return c.Callee + " in " + c.Func
	}
	return firstOf(c.Target, c.Callee, c.Func, c.ID)
}

func entryTitle(e *Entry) string {
	return joinNonEmpty("\n", e.Kind+" "+e.Name, e.Func, e.Pos, e.NotFollowed)
}

func callTitle(c *Call) string {
	through := ""
	if c.Through != "" {
		through = "inside " + c.Through
	}
	return joinNonEmpty("\n", c.Kind+" "+c.Target, c.Callee, through, c.Pos)
}

// edgeTitle sums up a path in a line: where it goes and what protects it.
func edgeTitle(e *Entry, c *Call, p *Path) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s → %s: deadline %s", firstOf(e.Name, e.ID), callLabel(c), p.Deadline.Source)
	if p.Retry != nil {
		fmt.Fprintf(&b, ", %s attempts", p.Retry.Product)
	}
	if p.Hedge != nil {
		b.WriteString(", hedged")
	}
	fmt.Fprintf(&b, ", idempotent %s", idempotentText(p.Idempotent))
	if n := len(p.Findings); n > 0 {
		fmt.Fprintf(&b, ", %s", plural(n, "finding", "findings"))
	}
	return b.String()
}

// byID indexes m's entries and calls by ID.
func byID(m *Map) (map[string]*Entry, map[string]*Call) {
	entries := make(map[string]*Entry, len(m.Entries))
	for i := range m.Entries {
		entries[m.Entries[i].ID] = &m.Entries[i]
	}
	calls := make(map[string]*Call, len(m.Calls))
	for i := range m.Calls {
		calls[m.Calls[i].ID] = &m.Calls[i]
	}
	return entries, calls
}

// cut shortens s to at most n characters, ending it with an ellipsis when
// something was cut.
func cut(s string, n int) string {
	if n < 1 {
		return ""
	}
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n-1]) + "…"
}

func firstOf(s ...string) string {
	for _, x := range s {
		if x != "" {
			return x
		}
	}
	return ""
}

func joinNonEmpty(sep string, s ...string) string {
	var parts []string
	for _, x := range s {
		if x = strings.TrimSpace(x); x != "" {
			parts = append(parts, x)
		}
	}
	return strings.Join(parts, sep)
}
