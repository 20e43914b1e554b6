package resilmap

import (
	"slices"
	"strconv"
	"strings"
)

// group is an entry with the rows of its paths, which the table shows
// under the entry's heading and can collapse.
type group struct {
	Entry *Entry
	Level level // the worst of its paths'
	Rows  []row
}

// row is a path as the table shows it.
type row struct {
	Index int // in Map.Paths
	Path  *Path
	Entry *Entry
	Call  *Call
	Level level
	// DeadlineLevel colours the deadline's source: red for none, amber
	// for unknown.
	DeadlineLevel level
	Idempotent    string
	// Analyzers names the analyzers of the findings, each once, in order.
	Analyzers string
	// Search is what the search box matches the row by.
	Search string
}

// groupRows groups the paths by entry, in the map's order of entries and
// then of paths. Every entry has a group, with no rows if it reaches no
// call.
func groupRows(m *Map, levels []level) []group {
	entries, calls := byID(m)
	groups := make([]group, len(m.Entries))
	at := make(map[string]int, len(m.Entries))
	for i := range m.Entries {
		groups[i].Entry = &m.Entries[i]
		at[m.Entries[i].ID] = i
	}
	for i := range m.Paths {
		p := &m.Paths[i]
		e, c := entries[p.Entry], calls[p.Call]
		g := &groups[at[p.Entry]]
		g.Level = max(g.Level, levels[i])
		g.Rows = append(g.Rows, row{
			Index:         i,
			Path:          p,
			Entry:         e,
			Call:          c,
			Level:         levels[i],
			DeadlineLevel: deadlineLevel(p.Deadline.Source),
			Idempotent:    idempotentText(p.Idempotent),
			Analyzers:     analyzers(p.Findings),
			Search:        searchText(e, c, p),
		})
	}
	return groups
}

func deadlineLevel(source string) level {
	switch source {
	case DeadlineNone:
		return levelRed
	case DeadlineUnknown:
		return levelAmber
	default:
		return levelGreen
	}
}

// searchText is what the search box matches a path by: every string of
// the path, of its entry and of its call but their IDs, which the page
// does not show. One string a line, so that a term matches within a
// string and never across two.
func searchText(e *Entry, c *Call, p *Path) string {
	s := []string{e.Kind, e.Name, e.Func, e.Pos, e.NotFollowed, c.Kind, c.Target, c.Callee, c.Func, c.Pos, c.Through}
	s = append(s, p.Via...)
	s = append(s, p.Deadline.Source, p.Deadline.What, p.Deadline.Pos)
	if p.Retry != nil {
		s = append(s, p.Retry.Product)
		for _, l := range p.Retry.Layers {
			s = append(s, l.What, l.Attempts, l.Pos)
		}
	}
	for _, l := range []*Layer{p.Hedge, p.Breaker} {
		if l != nil {
			s = append(s, l.What, l.Attempts, l.Pos)
		}
	}
	for _, f := range p.Findings {
		s = append(s, f.Analyzer, f.Message, f.Pos)
	}
	var b strings.Builder
	for _, x := range s {
		if x == "" {
			continue
		}
		if b.Len() > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(x)
	}
	return b.String()
}

func analyzers(findings []Finding) string {
	var names []string
	for _, f := range findings {
		if !slices.Contains(names, f.Analyzer) {
			names = append(names, f.Analyzer)
		}
	}
	return strings.Join(names, ", ")
}

func idempotentText(b *bool) string {
	switch {
	case b == nil:
		return "unknown"
	case *b:
		return "yes"
	default:
		return "no"
	}
}

func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}
