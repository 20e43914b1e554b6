//go:build e2e

package main_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// edit rewrites file in dir, replacing old with new once.
func edit(t *testing.T, dir, file, old, new string) {
	t.Helper()
	path := filepath.Join(dir, file)
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	require.Contains(t, string(data), old)
	require.NoError(t, os.WriteFile(path, []byte(strings.Replace(string(data), old, new, 1)), 0o644))
}

// baselineDrivers are the two drivers' command lines before the flags
// and patterns: the standalone runner, and x/tools' checker (a mode flag
// selects it; it prints findings on stderr and exits 3 with findings).
var baselineDrivers = []struct {
	name  string
	args  []string
	fails int
	out   func(result) string
}{
	{"standalone", nil, 1, func(r result) string { return r.stdout }},
	{"checker", []string{"-test=false"}, 3, func(r result) string { return r.stderr }},
}

// TestBaseline: a baseline absorbs the findings it recorded through edits
// that do not touch them (lines added above, another function renamed),
// absorbs N occurrences of one finding and reports the N+1th, reports a
// fixed finding's entry as stale without failing, and a corrupt or
// wrong-version baseline is an error that reports every finding.
func TestBaseline(t *testing.T) {
	for _, drv := range baselineDrivers {
		t.Run(drv.name, func(t *testing.T) {
			dir := fixture(t)
			file := filepath.Join(dir, "resilvet-baseline.json")
			args := func(extra ...string) []string {
				return append(append(append([]string{}, drv.args...), extra...), "./...")
			}

			r := run(t, dir, bin, args("-baseline-write", file)...)
			require.Equal(t, 0, r.code, r.stderr)
			assert.Contains(t, r.stderr, "recorded 4 findings")
			assert.Zero(t, findings(drv.out(r)), "recording reports nothing")
			data, err := os.ReadFile(file)
			require.NoError(t, err)
			assert.Contains(t, string(data), `"function": "Orders"`)
			assert.NotContains(t, string(data), "store.go:14", "positions are not recorded")

			r = run(t, dir, bin, args("-baseline", file)...)
			assert.Equal(t, 0, r.code, r.stderr)
			assert.Zero(t, findings(drv.out(r)))
			assert.Contains(t, r.stderr, "absorbed 4 findings; 0 of its findings no longer occur")

			// Unrelated edits: a function added above the findings, another
			// renamed, spacing changed inside a flagged expression.
			edit(t, dir, "api/api.go", "func Orders(", "// helper is new.\nfunc helper() {\n\tprintln(\"above\")\n}\n\nfunc Orders(")
			edit(t, dir, "api/api.go", "func work(", "func doWork(")
			edit(t, dir, "api/api.go", "work(context.Background())", "doWork(context.Background())")
			edit(t, dir, "api/api.go", `store.DB.Query("SELECT id FROM orders")`, `store.DB.Query( "SELECT id FROM orders" )`)
			r = run(t, dir, bin, args("-baseline", file)...)
			assert.Equal(t, drv.fails, r.code, "a renamed callee changes that finding's message: %s", drv.out(r))
			assert.Equal(t, 1, findings(drv.out(r)), drv.out(r))
			assert.Contains(t, drv.out(r), "passed to api.doWork")
			assert.Contains(t, r.stderr, "absorbed 3 findings; 1 of its findings no longer occur")

			// Record again, then a second occurrence of a recorded finding
			// is new. (A second call of store.Count would not do: ctxdrop
			// reports a helper's calls in a package as one finding, whose
			// count of other calls is not part of its identity.)
			require.Equal(t, 0, run(t, dir, bin, args("-baseline-write", file)...).code)
			edit(t, dir, "api/api.go", "\tdoWork(context.Background())\n", "\tdoWork(context.Background())\n\tdoWork(context.Background())\n\tstore.Count()\n")
			r = run(t, dir, bin, args("-baseline", file)...)
			assert.Equal(t, drv.fails, r.code)
			assert.Equal(t, 1, findings(drv.out(r)), drv.out(r))
			assert.Contains(t, drv.out(r), "passed to api.doWork")
			assert.Contains(t, r.stderr, "absorbed 4 findings; 0 of its findings")

			// Fixed: the Background arguments and the store.Count calls go;
			// their entries are stale, which does not fail the run.
			edit(t, dir, "api/api.go", "\tdoWork(context.Background())\n\tdoWork(context.Background())\n\tstore.Count()\n", "\tdoWork(r.Context())\n")
			edit(t, dir, "api/api.go", "\tstore.Count()\n", "")
			r = run(t, dir, bin, args("-baseline", file)...)
			assert.Equal(t, 0, r.code, drv.out(r))
			assert.Contains(t, r.stderr, "absorbed 2 findings; 2 of its findings no longer occur (prune them with -baseline-write")

			// A corrupt baseline, and one of another version: an error, and
			// every finding reported.
			for _, content := range []string{"{not json", `{"version": 99, "findings": []}`} {
				require.NoError(t, os.WriteFile(file, []byte(content), 0o644))
				r = run(t, dir, bin, args("-baseline", file)...)
				assert.NotEqual(t, 0, r.code)
				assert.Contains(t, r.stderr, "-baseline-write")
				assert.Contains(t, r.stderr, "reporting every finding")
				assert.Equal(t, 2, findings(drv.out(r)), drv.out(r))
			}
		})
	}
}

// sarifResults returns the results of a SARIF log.
func sarifResults(t *testing.T, out string) []map[string]any {
	t.Helper()
	var log struct {
		Runs []struct {
			Results []map[string]any `json:"results"`
		} `json:"runs"`
	}
	require.NoError(t, json.Unmarshal([]byte(out), &log), out)
	require.Len(t, log.Runs, 1)
	return log.Runs[0].Results
}

// TestSARIFFingerprints: every SARIF result carries resilvet's identity
// as a partial fingerprint, which stays the same when the finding moves
// down the file; with a baseline each result says whether it is new.
func TestSARIFFingerprints(t *testing.T) {
	dir := fixture(t)
	fingerprints := func(r result) map[string]string {
		out := map[string]string{}
		for _, res := range sarifResults(t, r.stdout) {
			fp, _ := res["partialFingerprints"].(map[string]any)
			require.NotEmpty(t, fp["resilvet/v1"], "result without a fingerprint: %v", res)
			msg, _ := res["message"].(map[string]any)
			text, _ := msg["text"].(string)
			out[strings.SplitN(text, " ", 4)[3]] = fp["resilvet/v1"].(string)
		}
		return out
	}
	r := run(t, dir, bin, "-f", "sarif", "./...")
	assert.Equal(t, 0, r.code, "SARIF carries the findings; the status stays 0")
	validateSARIF(t, []byte(r.stdout))
	before := fingerprints(r)
	require.Len(t, before, 4)

	edit(t, dir, "api/api.go", "func Orders(", "func helper() {}\n\nfunc Orders(")
	r = run(t, dir, bin, "-f", "sarif", "./...")
	assert.Equal(t, before, fingerprints(r), "fingerprints survive a move down the file")

	file := filepath.Join(dir, "base.json")
	require.Equal(t, 0, run(t, dir, bin, "-baseline-write", file, "./...").code)
	edit(t, dir, "api/api.go", "\twork(context.Background())\n", "\twork(context.Background())\n\twork(context.Background())\n")
	r = run(t, dir, bin, "-f", "sarif", "-baseline", file, "./...")
	assert.Equal(t, 0, r.code, r.stderr)
	validateSARIF(t, []byte(r.stdout))
	states := map[string]int{}
	for _, res := range sarifResults(t, r.stdout) {
		states[res["baselineState"].(string)]++
	}
	assert.Equal(t, map[string]int{"unchanged": 4, "new": 1}, states)
}

// TestBaselineHelperRenamedOnAChain is the case of the issue: notimeout's
// message spells the chain from a root context to the call it reaches,
// and renaming a helper on it, in another file, leaves the finding
// absorbed: the identity keeps the call reached, not the helpers' names.
func TestBaselineHelperRenamedOnAChain(t *testing.T) {
	for _, drv := range baselineDrivers {
		t.Run(drv.name, func(t *testing.T) {
			dir := fixture(t)
			require.NoError(t, os.MkdirAll(filepath.Join(dir, "jobs"), 0o755))
			require.NoError(t, os.WriteFile(filepath.Join(dir, "jobs", "jobs.go"), []byte(`// Package jobs runs work that no request asked for.
package jobs

import "context"

// Nightly has no context of its own.
func Nightly() error {
	ctx := context.Background()
	return audit(ctx, "nightly")
}
`), 0o644))
			require.NoError(t, os.WriteFile(filepath.Join(dir, "jobs", "db.go"), []byte(`package jobs

import (
	"context"
	"database/sql"
)

var DB *sql.DB

func audit(ctx context.Context, what string) error {
	return exec(ctx, "INSERT INTO audit VALUES ($1)", what)
}

func exec(ctx context.Context, q string, args ...any) error {
	_, err := DB.ExecContext(ctx, q, args...)
	return err
}
`), 0o644))
			file := filepath.Join(dir, "resilvet-baseline.json")
			args := func(extra ...string) []string {
				return append(append(append([]string{}, drv.args...), extra...), "./...")
			}

			r := run(t, dir, bin, args()...)
			assert.Contains(t, drv.out(r), "context.Background() reaches sql.DB.ExecContext (via jobs.audit -> jobs.exec -> sql.DB.ExecContext)")
			r = run(t, dir, bin, args("-baseline-write", file)...)
			require.Equal(t, 0, r.code, r.stderr)
			assert.Contains(t, r.stderr, "recorded 5 findings")
			data, err := os.ReadFile(file)
			require.NoError(t, err)
			var recorded struct {
				Findings []struct{ Package, Message string }
			}
			require.NoError(t, json.Unmarshal(data, &recorded))
			for _, f := range recorded.Findings {
				if f.Package == "example.com/shop/jobs" {
					assert.Equal(t, "context.Background() reaches sql.DB.ExecContext (via … -> sql.DB.ExecContext) with no deadline, so the call can wait forever on a slow dependency; bound it with context.WithTimeout or deadline.Ensure", f.Message,
						"the helpers' names are not recorded")
				}
			}
			assert.NotContains(t, string(data), "jobs.exec")

			edit(t, dir, "jobs/db.go", "return exec(", "return execute(")
			edit(t, dir, "jobs/db.go", "func exec(", "func execute(")
			r = run(t, dir, bin, args()...)
			assert.Contains(t, drv.out(r), "(via jobs.audit -> jobs.execute -> sql.DB.ExecContext)", "the message names the new helper")
			r = run(t, dir, bin, args("-baseline", file)...)
			assert.Equal(t, 0, r.code, drv.out(r))
			assert.Zero(t, findings(drv.out(r)), drv.out(r))
			assert.Contains(t, r.stderr, "absorbed 5 findings; 0 of its findings no longer occur")
		})
	}
}
