package baseline_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/resilvet/resilvet/internal/baseline"
)

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

// TestMatcherAbsorbsEntriesRecordedWithChainNames: a file written before
// the identity left out the names on a finding's chain (version 1 too)
// still absorbs the finding: its messages are made stable again when read.
func TestMatcherAbsorbsEntriesRecordedWithChainNames(t *testing.T) {
	path := filepath.Join(t.TempDir(), "resilvet-baseline.json")
	require.NoError(t, os.WriteFile(path, []byte(`{
  "version": 1,
  "findings": [
    {
      "analyzer": "notimeout",
      "package": "example.com/svc/jobs",
      "function": "(*Server).Nightly",
      "message": "context.Background() reaches sql.DB.ExecContext (via jobs.Store.audit -> jobs.Store.exec -> sql.DB.ExecContext) with no deadline, so the call can wait forever on a slow dependency; bound it with context.WithTimeout or deadline.Ensure",
      "source": "0123456789abcdef",
      "count": 1
    }
  ]
}
`), 0o644))
	f, err := baseline.Read(path)
	require.NoError(t, err)
	m := baseline.NewMatcher(f)
	assert.True(t, m.Absorb(baseline.Identity{
		Analyzer: "notimeout", Package: "example.com/svc/jobs", Function: "(*Server).Nightly", Source: "0123456789abcdef",
		Message: baseline.StableMessage("context.Background() reaches sql.DB.ExecContext (via jobs.Store.audit -> jobs.Store.run -> sql.DB.ExecContext) with no deadline, so the call can wait forever on a slow dependency; bound it with context.WithTimeout or deadline.Ensure"),
	}))
	assert.Zero(t, m.Stale())
}
