package ledger

import (
	"fmt"
	"maps"
	"slices"
	"strings"
)

// Table returns the first-contact figures of entries as markdown: a row
// per service, then a row per analyzer and rule, each with its findings,
// the verdicts and the precision (true of those judged). docs/precision.md
// carries it between ledger markers, and a test keeps the copy equal to
// this, so the ledger's figures are never written by hand.
func Table(entries []Entry) string {
	type counts struct{ n, t, f, u int }
	add := func(m map[string]*counts, k string, e Entry) {
		c := m[k]
		if c == nil {
			c = &counts{}
			m[k] = c
		}
		c.n++
		switch e.Verdict {
		case True:
			c.t++
		case False:
			c.f++
		default:
			c.u++
		}
	}
	bySvc, byRule := map[string]*counts{}, map[string]*counts{}
	first := map[string]string{}
	for _, e := range entries {
		k := e.Service + "@" + e.Version
		add(bySvc, k, e)
		add(byRule, e.Identity.Analyzer+" / "+e.Rule, e)
		if first[k] == "" || e.FirstContact < first[k] {
			first[k] = e.FirstContact
		}
	}
	precision := func(c *counts) string {
		if c.t+c.f == 0 {
			return "-"
		}
		return fmt.Sprintf("%.0f%%", 100*float64(c.t)/float64(c.t+c.f))
	}
	var b strings.Builder
	b.WriteString("| service | first contact | findings | true | false | unsure | precision |\n|---|---|---:|---:|---:|---:|---:|\n")
	total := &counts{}
	for _, k := range slices.Sorted(maps.Keys(bySvc)) {
		c := bySvc[k]
		fmt.Fprintf(&b, "| %s | %s | %d | %d | %d | %d | %s |\n", shortVersion(k), first[k], c.n, c.t, c.f, c.u, precision(c))
		total.n, total.t, total.f, total.u = total.n+c.n, total.t+c.t, total.f+c.f, total.u+c.u
	}
	fmt.Fprintf(&b, "| **all** | | **%d** | **%d** | **%d** | **%d** | **%s** |\n", total.n, total.t, total.f, total.u, precision(total))
	b.WriteString("\n| analyzer / rule | findings | true | false | unsure | precision |\n|---|---:|---:|---:|---:|---:|\n")
	for _, k := range slices.Sorted(maps.Keys(byRule)) {
		c := byRule[k]
		fmt.Fprintf(&b, "| %s | %d | %d | %d | %d | %s |\n", k, c.n, c.t, c.f, c.u, precision(c))
	}
	return b.String()
}

// shortVersion shortens a commit to its first twelve characters.
func shortVersion(serviceAtVersion string) string {
	s, v, _ := strings.Cut(serviceAtVersion, "@")
	if len(v) == 40 && !strings.HasPrefix(v, "v") {
		v = v[:12]
	}
	return s + "@" + v
}
