package ledger

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/resilvet/resilvet/internal/baseline"
)

func id(fn, src string) baseline.Identity {
	return baseline.Identity{Analyzer: "notimeout", Package: "example.com/svc/store", Function: fn, Message: "m", Source: src}
}

func entry(fn, src, verdict string) Entry {
	e := Entry{Service: "example.com/svc", Version: "v1.0.0", Source: "proxy", Rule: "sql", Identity: id(fn, src), Pos: "store.go:1", Verdict: verdict, FirstContact: "2026-12-07"}
	if verdict == False {
		e.Class = "start-up"
	}
	return e
}

func TestCompare(t *testing.T) {
	entries := []Entry{
		entry("A", "1", True),  // kept
		entry("B", "2", True),  // lost
		entry("C", "3", False), // still reported
		entry("D", "4", False), // gone
		entry("E", "5", True),  // recorded twice, found once: one lost
		entry("E", "5", True),
		{Service: "example.com/other", Identity: id("B", "2"), Verdict: True},
	}
	reworded := id("A", "1")
	reworded.Message = "a reworded message"
	findings := []Finding{
		{Identity: reworded}, // the same finding, reworded
		{Identity: id("C", "3")},
		{Identity: id("E", "5")},
		{Identity: id("F", "6")}, // new
	}
	r := Compare(entries, "example.com/svc", findings)
	assert.Equal(t, 2, r.Kept)
	require.Len(t, r.TrueLost, 2)
	assert.Equal(t, "B", r.TrueLost[0].Identity.Function)
	assert.Equal(t, "E", r.TrueLost[1].Identity.Function)
	require.Len(t, r.FalseKept, 1)
	assert.Equal(t, "C", r.FalseKept[0].Identity.Function)
	assert.Equal(t, 1, r.FalseGone)
	require.Len(t, r.Untriaged, 1)
	assert.Equal(t, "F", r.Untriaged[0].Identity.Function)
}

func TestReadChecksEveryEntry(t *testing.T) {
	dir := t.TempDir()
	write := func(text string) string {
		p := filepath.Join(dir, "l.jsonl")
		require.NoError(t, os.WriteFile(p, []byte(text), 0o600))
		return p
	}
	good := `{"service":"s","version":"v1","source":"proxy","rule":"sql","identity":{"analyzer":"notimeout","package":"s/p","message":"m","source":"x"},"pos":"p.go:1","verdict":"true","why":"w","first_contact":"2026-12-07"}`
	es, err := Read(write("# comment\n\n" + good + "\n"))
	require.NoError(t, err)
	require.Len(t, es, 1)
	assert.Equal(t, "s", es[0].Service)

	for _, tc := range []struct{ old, new, want string }{
		{`"verdict":"true"`, `"verdict":"ture"`, `verdict "ture"`},
		{`"source":"proxy"`, `"source":"cache"`, `source "cache"`},
		{`"first_contact"`, `"first_contakt"`, "unknown field"},
		{`"verdict":"true"`, `"verdict":"false"`, "needs its class"},
	} {
		_, err := Read(write(strings.Replace(good, tc.old, tc.new, 1)))
		require.Error(t, err, tc.want)
		assert.Contains(t, err.Error(), tc.want)
		assert.Contains(t, err.Error(), "l.jsonl:1")
	}
}

// TestLedgerReads keeps the repository's ledger readable: every entry
// valid, and the verdict counts of each service as the precision notes
// record them.
func TestLedgerReads(t *testing.T) {
	es, err := Read("../../ledger/findings.jsonl")
	require.NoError(t, err)
	counts := map[string]map[string]int{}
	for _, e := range es {
		if counts[e.Service] == nil {
			counts[e.Service] = map[string]int{}
		}
		counts[e.Service][e.Verdict]++
	}
	assert.Equal(t, map[string]int{True: 9, False: 13}, counts["github.com/TwiN/gatus/v5"], "docs/precision.md: Gatus, 22 findings, 9 true")
	assert.Equal(t, map[string]int{True: 4}, counts["github.com/knadh/listmonk"], "docs/precision.md: listmonk, 4 findings, 4 true")
	assert.Equal(t, map[string]int{False: 15}, counts["github.com/pocketbase/pocketbase"], "docs/precision.md: PocketBase, 15 findings, 0 true")
	assert.Equal(t, map[string]int{True: 4, False: 3}, counts["github.com/traefik/traefik/v3"], "docs/precision.md: Traefik, 7 findings, 4 true")
}

// TestPrecisionPageTable keeps docs/precision.md's ledger table equal to
// what the ledger prints: its figures are never written by hand.
func TestPrecisionPageTable(t *testing.T) {
	es, err := Read("../../ledger/findings.jsonl")
	require.NoError(t, err)
	page, err := os.ReadFile("../../docs/precision.md")
	require.NoError(t, err)
	_, rest, ok := strings.Cut(string(page), "<!-- ledger:table -->\n")
	require.True(t, ok, "docs/precision.md has no ledger table")
	block, _, ok := strings.Cut(rest, "<!-- /ledger:table -->")
	require.True(t, ok)
	assert.Equal(t, Table(es), block, "docs/precision.md's ledger table is stale: go run ./internal/cmd/replay -table")
}

func TestTable(t *testing.T) {
	es := []Entry{entry("A", "1", True), entry("B", "2", False), entry("C", "3", Unsure)}
	es[2].Rule = "twin"
	got := Table(es)
	assert.Contains(t, got, "| example.com/svc@v1.0.0 | 2026-12-07 | 3 | 1 | 1 | 1 | 50% |")
	assert.Contains(t, got, "| notimeout / sql | 2 | 1 | 1 | 0 | 50% |")
	assert.Contains(t, got, "| notimeout / twin | 1 | 0 | 0 | 1 | - |", "nothing judged: no precision")
}
