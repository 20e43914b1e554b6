package baseline_test

import (
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/resilvet/resilvet/internal/baseline"
)

const message = "http.Get uses http.DefaultClient, which has no timeout (client.go:12:3); use a client with Timeout"

// at returns the positions of the first occurrence of expr in file.
func at(t *testing.T, file, expr string) (token.Position, token.Position) {
	t.Helper()
	data, err := os.ReadFile(file)
	require.NoError(t, err)
	i := strings.Index(string(data), expr)
	require.GreaterOrEqual(t, i, 0, "%q not in %s", expr, file)
	pos := func(off int) token.Position {
		line := 1 + strings.Count(string(data[:off]), "\n")
		col := off - strings.LastIndex(string(data[:off]), "\n")
		return token.Position{Filename: file, Line: line, Column: col}
	}
	return pos(i), pos(i + len(expr))
}

// identify writes src as svc/payments/client.go of module example.com/svc
// and returns the identity of a finding on expr.
func identify(t *testing.T, src, expr string) baseline.Identity {
	t.Helper()
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module example.com/svc\n\ngo 1.24\n"), 0o644))
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "payments"), 0o755))
	file := filepath.Join(dir, "payments", "client.go")
	require.NoError(t, os.WriteFile(file, []byte(src), 0o644))
	pos, end := at(t, file, expr)
	return baseline.NewIdentifier().Identify("notimeout", message, pos, end)
}

const original = `package payments

import "net/http"

func helper() {}

func (c *Client) Charge(url string) {
	resp, _ := http.Get(url)
	_ = resp
}

type Client struct{}
`

func TestIdentitySurvivesUnrelatedEdits(t *testing.T) {
	id := identify(t, original, "http.Get(url)")
	assert.Equal(t, "notimeout", id.Analyzer)
	assert.Equal(t, "example.com/svc/payments", id.Package)
	assert.Equal(t, "(*Client).Charge", id.Function)
	assert.NotContains(t, id.Message, "client.go:12", "positions are not part of the identity")
	assert.NotEmpty(t, id.Source)

	above := strings.Replace(original, "func helper() {}", "// a comment\n\nfunc helper() {\n\tprintln(1)\n}\n\nvar x = 1", 1)
	renamed := strings.Replace(original, "func helper() {}", "func renamedHelper() {}", 1)
	reformatted := strings.Replace(original, "http.Get(url)", "http.Get(  url )", 1)
	for name, src := range map[string]string{"lines added above": above, "another function renamed": renamed, "spacing inside the expression": reformatted} {
		expr := "http.Get(url)"
		if name == "spacing inside the expression" {
			expr = "http.Get(  url )"
		}
		assert.Equal(t, id, identify(t, src, expr), name)
	}

	changedCall := strings.Replace(original, "http.Get(url)", "http.Get(url + \"/v2\")", 1)
	assert.NotEqual(t, id, identify(t, changedCall, `http.Get(url + "/v2")`), "a different flagged expression is a different finding")
	movedMethod := strings.Replace(original, "Charge(", "Refund(", 1)
	assert.NotEqual(t, id, identify(t, movedMethod, "http.Get(url)"), "the enclosing function is part of the identity")
}

func TestMatcherAbsorbsExactlyTheRecordedOccurrences(t *testing.T) {
	a := baseline.Identity{Analyzer: "notimeout", Package: "p", Function: "F", Message: "m", Source: "1"}
	b := baseline.Identity{Analyzer: "ctxdrop", Package: "p", Function: "G", Message: "n", Source: "2"}
	f := baseline.New([]baseline.Identity{a, a, b})
	require.Len(t, f.Findings, 2)
	m := baseline.NewMatcher(f)
	assert.True(t, m.Absorb(a))
	assert.True(t, m.Absorb(a))
	assert.False(t, m.Absorb(a), "a third occurrence of an identity recorded twice is new")
	assert.Equal(t, 2, m.Absorbed())
	assert.Equal(t, 1, m.Stale(), "b no longer occurs")
}

func TestFileRoundTripAndErrors(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "resilvet-baseline.json")
	ids := []baseline.Identity{
		{Analyzer: "retrystack", Package: "z", Message: "m", Source: "3"},
		{Analyzer: "ctxdrop", Package: "a", Function: "F", Message: "m", Source: "1"},
	}
	require.NoError(t, baseline.New(ids).Write(path))
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.Less(t, strings.Index(string(data), `"package": "a"`), strings.Index(string(data), `"package": "z"`), "entries are sorted")
	f, err := baseline.Read(path)
	require.NoError(t, err)
	assert.Equal(t, baseline.New(ids), f)

	for name, content := range map[string]string{
		"not json":      "<<<",
		"wrong version": `{"version": 7, "findings": []}`,
		"bad count":     `{"version": 1, "findings": [{"analyzer": "x", "package": "p", "message": "m", "source": "s", "count": 0}]}`,
		"unknown field": `{"version": 1, "entries": []}`,
	} {
		require.NoError(t, os.WriteFile(path, []byte(content), 0o644))
		_, err := baseline.Read(path)
		require.Error(t, err, name)
		assert.Contains(t, err.Error(), "-baseline-write", name)
	}
	_, err = baseline.Read(filepath.Join(dir, "missing.json"))
	assert.Error(t, err)
}

func TestStableMessageAndFingerprint(t *testing.T) {
	assert.Equal(t, "retry loop wraps x (…) and y (…)", baseline.StableMessage("retry loop wraps x (a/b.go:3) and y (c.go:4:5)"))
	assert.Equal(t, "call to store.Count drops the caller's context; add a parameter",
		baseline.StableMessage("call to store.Count drops the caller's context; add a parameter (2 more calls in this package)"))
	a := baseline.Identity{Analyzer: "a", Package: "p", Message: "m", Source: "s"}
	assert.Equal(t, a.Fingerprint(), a.Fingerprint())
	b := a
	b.Source = "t"
	assert.NotEqual(t, a.Fingerprint(), b.Fingerprint())
	assert.Len(t, a.Fingerprint(), 32)
}
