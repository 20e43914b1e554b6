package main

import (
	"encoding/json"
	"go/token"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"honnef.co/go/tools/lintcmd/runner"

	"github.com/resilvet/resilvet/internal/baseline"
)

func TestBaselineFlagsInBothDrivers(t *testing.T) {
	assert.False(t, checkerMode([]string{"-baseline", "b.json", "./..."}), "the standalone runner by default")
	assert.True(t, checkerMode([]string{"-baseline", "b.json", "-json", "./..."}), "a file after -baseline is its value, not a pattern")
	assert.False(t, checkerMode([]string{"-baseline", "b.json", "-fix", "./..."}), "-fix runs on the standalone runner")
	assert.True(t, checkerMode([]string{"-ctxdrop=false", "-fix", "x.cfg"}), "go fix's protocol: a .cfg file last")
	assert.True(t, checkerMode([]string{"-baseline=b.json", "-json", "./..."}))
	assert.False(t, checkerMode([]string{"-baseline-write", "-fix"}), "a file named -fix is odd but a file")

	flags, rest, ok, err := baselineArgs([]string{"-json", "-baseline", "b.json", "-ctxdrop.roots=x", "./...", "-baseline"})
	require.NoError(t, err)
	assert.True(t, ok)
	assert.Equal(t, baselineFlags{read: "b.json"}, flags)
	assert.Equal(t, []string{"-json", "-ctxdrop.roots=x", "./...", "-baseline"}, rest, "flags after the patterns are the patterns'")

	flags, rest, ok, err = baselineArgs([]string{"--baseline-write=w.json", "-fix", "."})
	require.NoError(t, err)
	assert.True(t, ok)
	assert.Equal(t, baselineFlags{write: "w.json"}, flags)
	assert.Equal(t, []string{"-fix", "."}, rest)

	_, _, ok, err = baselineArgs([]string{"-fix", "."})
	assert.NoError(t, err)
	assert.False(t, ok)
	_, _, _, err = baselineArgs([]string{"-baseline"})
	assert.ErrorContains(t, err, "needs a file")
}

func TestAddFingerprints(t *testing.T) {
	d := &lintDiagnostic{Diagnostic: runner.Diagnostic{
		Position: token.Position{Filename: "api/api.go", Line: 12, Column: 15},
		Category: "ctxdrop",
		Message:  "sql.DB.Query ignores the caller's context",
	}}
	other := &lintDiagnostic{Diagnostic: runner.Diagnostic{
		Position: token.Position{Filename: "api/api.go", Line: 20, Column: 2},
		Category: "notimeout",
		Message:  "a call with no deadline",
	}}
	findings := []finding{
		{d: d, id: baseline.Identity{Analyzer: "ctxdrop", Package: "p", Message: "m", Source: "1"}, absorbed: true},
		{d: other, id: baseline.Identity{Analyzer: "notimeout", Package: "p", Message: "n", Source: "2"}},
	}
	result := func(line, col int, rule, text string) map[string]any {
		return map[string]any{
			"ruleId":  rule,
			"message": map[string]any{"text": text},
			"locations": []any{map[string]any{"physicalLocation": map[string]any{
				"artifactLocation": map[string]any{"uri": "api/api.go", "uriBaseId": "%SRCROOT%"},
				"region":           map[string]any{"startLine": line, "startColumn": col},
			}}},
		}
	}
	log := map[string]any{"version": "2.1.0", "runs": []any{map[string]any{"results": []any{
		result(12, 15, "ctxdrop", "sql.DB.Query ignores the caller's context\n\t[the root context](1)"),
		result(20, 2, "notimeout", "a call with no deadline"),
		result(1, 1, "compile", "a compile error"),
	}}}}
	in, err := json.Marshal(log)
	require.NoError(t, err)
	out, err := fingerprinted(in, findings, true)
	require.NoError(t, err)
	var got struct {
		Runs []struct {
			Results []map[string]any `json:"results"`
		} `json:"runs"`
	}
	require.NoError(t, json.Unmarshal(out, &got))
	rs := got.Runs[0].Results
	assert.Equal(t, map[string]any{"resilvet/v1": findings[0].id.Fingerprint()}, rs[0]["partialFingerprints"], "matched past the related positions in the text")
	assert.Equal(t, "unchanged", rs[0]["baselineState"])
	assert.Equal(t, "new", rs[1]["baselineState"])
	assert.NotContains(t, rs[2], "partialFingerprints", "the runner's own results are left alone")

	out, err = fingerprinted(in, findings, false)
	require.NoError(t, err)
	got.Runs = nil
	require.NoError(t, json.Unmarshal(out, &got))
	assert.NotContains(t, got.Runs[0].Results[0], "baselineState", "no baseline, no state")
}

// fingerprinted runs addFingerprints on the SARIF log in data, as
// printSARIF does, and returns the log again.
func fingerprinted(data []byte, findings []finding, withBaseline bool) ([]byte, error) {
	var log map[string]any
	if err := json.Unmarshal(data, &log); err != nil {
		return nil, err
	}
	addFingerprints(log, findings, withBaseline)
	return json.Marshal(log)
}
