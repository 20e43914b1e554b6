//go:build e2e

package main_test

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// These tests hold the binary to what a CI gate needs: it never passes
// silently. A typo in an analyzer's name, a package that does not load, a
// report that cannot be written, a directory outside any module, fixes
// that leave findings: each is a non-zero status and a message.

const knownAnalyzers = "ctxdrop, hedgeidem, notimeout, retrystack"

// TestUnknownAnalyzerNames checks that every mode refuses a name that
// selects no analyzer, with exit status 2 (go vet's own status for its
// tool's failure under it) and a message naming the known ones.
func TestUnknownAnalyzerNames(t *testing.T) {
	dir := fixture(t)
	for _, args := range [][]string{
		{"-checks=ctxdorp", "./..."},
		{"-checks=notimeout,bogus", "./..."},
		{"-checks", "-bogus", "./..."},
		{"-fail=bogus", "./..."},
		{"-f", "sarif", "-checks=bogus", "./..."},
		{"-f", "json", "-fail=notimeout,bogus", "./..."},
		{"-f", "html", "-checks=bogus", "./..."},
		{"-baseline-write", "b.json", "-checks=bogus", "./..."},
		{"-fix", "-checks=bogus", "./..."},
		{"-diff", "-checks=bogus", "./..."},
		{"-json", "-checks=bogus", "./..."},
	} {
		r := run(t, dir, bin, args...)
		assert.Equal(t, 2, r.code, "%v: %s", args, r.stderr)
		assert.Contains(t, r.stderr, "names no analyzer; the analyzers are "+knownAnalyzers, args)
		assert.Empty(t, r.stdout, args)
	}
	_, err := os.Stat(filepath.Join(dir, "b.json"))
	assert.True(t, os.IsNotExist(err), "no baseline is written for a bad -checks")

	r := run(t, dir, bin, "-explain", "ctxdorp")
	assert.Equal(t, 2, r.code)
	assert.Contains(t, r.stderr, `no analyzer "ctxdorp"`)

	// go vet and go fix run the tool once per package: each run fails.
	for _, args := range [][]string{
		{"vet", "-vettool=" + bin, "-checks=ctxdorp", "./..."},
		{"fix", "-fixtool=" + bin, "-checks=ctxdorp", "./..."},
	} {
		r := run(t, dir, "go", args...)
		assert.NotEqual(t, 0, r.code, "%v", args)
		assert.Contains(t, r.stderr, "names no analyzer; the analyzers are "+knownAnalyzers, args)
	}
	// A misspelt toggle is an unknown flag: the usage lists the real ones.
	for _, args := range [][]string{
		{bin, "-ctxdorp=false", "./..."},
		{"go", "vet", "-vettool=" + bin, "-ctxdorp=false", "./..."},
	} {
		r := run(t, dir, args[0], args[1:]...)
		assert.Equal(t, 2, r.code, "%v", args)
		assert.Contains(t, r.stderr, "flag provided but not defined: -ctxdorp", args)
	}
}

// TestChecksSelect checks that -checks, and the toggles, select what they
// name in the standalone, fix and checker modes alike.
func TestChecksSelect(t *testing.T) {
	dir := fixture(t)
	for _, args := range [][]string{
		{bin, "-checks=notimeout", "./..."},
		{bin, "-ctxdrop=false", "./..."},
		{bin, "-notimeout", "./..."},
		{bin, "-checks=all,-ctxdrop", "./..."},
		{"go", "vet", "-vettool=" + bin, "-checks=notimeout", "./..."},
	} {
		r := run(t, dir, args[0], args[1:]...)
		out := r.stdout + r.stderr
		assert.Equal(t, 1, findings(out), "%v:\n%s", args, out)
		assert.Contains(t, out, "store.go:14:28: context.Background() reaches sql.DB.QueryRowContext", args)
	}
	r := run(t, dir, bin, "-json", "-checks=notimeout", "./...")
	assert.Equal(t, 0, r.code, r.stderr)
	assert.Contains(t, r.stdout, `"notimeout"`)
	assert.NotContains(t, r.stdout, `"ctxdrop"`)
}

// TestSARIFLoadFailure checks that a package that does not load is a
// notification of an unsuccessful invocation, never a result (the schema
// forbids its line 0; code scanning rejects the upload), and fails the run.
func TestSARIFLoadFailure(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.CopyFS(dir, os.DirFS("testdata/broken")))
	r := run(t, dir, bin, "-f", "sarif", "./typeerr")
	assert.Equal(t, 1, r.code, r.stderr)
	assert.Contains(t, r.stderr, "did not load")
	validateSARIF(t, []byte(r.stdout))
	var log struct {
		Runs []struct {
			Invocations []struct {
				ExecutionSuccessful bool `json:"executionSuccessful"`
				Notifications       []struct {
					Level   string `json:"level"`
					Message struct {
						Text string `json:"text"`
					} `json:"message"`
				} `json:"toolExecutionNotifications"`
			} `json:"invocations"`
			Results []json.RawMessage `json:"results"`
		} `json:"runs"`
	}
	require.NoError(t, json.Unmarshal([]byte(r.stdout), &log))
	require.Len(t, log.Runs, 1)
	run0 := log.Runs[0]
	assert.Empty(t, run0.Results)
	require.Len(t, run0.Invocations, 1)
	assert.False(t, run0.Invocations[0].ExecutionSuccessful)
	require.Len(t, run0.Invocations[0].Notifications, 1)
	assert.Equal(t, "error", run0.Invocations[0].Notifications[0].Level)
	assert.Contains(t, run0.Invocations[0].Notifications[0].Message.Text, "typeerr.go:6:2: undefined: undefined")
}

// TestFailedWrite checks that a report that cannot be written fails the
// run with the error, in every output format and in -diff.
func TestFailedWrite(t *testing.T) {
	full, err := os.OpenFile("/dev/full", os.O_WRONLY, 0)
	if err != nil {
		t.Skip("no /dev/full:", err)
	}
	defer full.Close()
	dir := fixture(t)
	for _, args := range [][]string{
		{"./..."},
		{"-f", "stylish", "./..."},
		{"-f", "json", "./..."},
		{"-f", "sarif", "./..."},
		{"-f", "html", "./..."},
		{"-f", "map-json", "./..."},
		{"-diff", "./..."},
		{"-list-checks"},
		{"help"},
	} {
		cmd := exec.Command(bin, args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GOFLAGS=", "GOWORK=off", "GOPROXY=off", "GOTOOLCHAIN=local", "RESILVET_CACHE="+cache)
		var stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = full, &stderr
		err := cmd.Run()
		var exit *exec.ExitError
		require.ErrorAs(t, err, &exit, "%v: %s", args, stderr.String())
		assert.Equal(t, 1, exit.ExitCode(), "%v: %s", args, stderr.String())
		assert.Contains(t, stderr.String(), "no space left on device", args)
	}
}

// TestNoModule checks that a local pattern outside any module fails as go
// vet does, rather than warning that it matched nothing and passing.
func TestNoModule(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "main.go"), []byte("package main\n\nfunc main() {}\n"), 0o644))
	for _, args := range [][]string{{"."}, {"./..."}, {"-f", "sarif", "."}, {"-fix", "."}} {
		r := run(t, dir, bin, args...)
		assert.Equal(t, 1, r.code, "%v: %s", args, r.stderr)
		assert.Contains(t, r.stderr, "go.mod file not found in current directory or any parent directory", args)
	}
	vet := run(t, dir, "go", "vet", ".")
	assert.Equal(t, 1, vet.code, "go vet, whose status resilvet matches")
}

// TestFixSummary checks that -fix says what it applied and what remains,
// and exits 3 while findings remain; -diff says the same and writes
// nothing.
func TestFixSummary(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.CopyFS(dir, os.DirFS("../../examples/checkout")))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module github.com/resilvet/resilvet/examples/checkout\n\ngo 1.26\n"), 0o644))
	before, err := os.ReadFile(filepath.Join(dir, "checkout.go"))
	require.NoError(t, err)

	r := run(t, dir, bin, "-diff", "./...")
	assert.Equal(t, 3, r.code, r.stderr)
	assert.Contains(t, r.stderr, "resilvet: -diff: 5 fixes in 2 files shown above; nothing written")
	assert.Contains(t, r.stderr, "resilvet: 4 findings remain with no suggested fix; resilvet ./... lists them")
	assert.Contains(t, r.stdout, "--- a/checkout.go\n+++ b/checkout.go\n")
	after, err := os.ReadFile(filepath.Join(dir, "checkout.go"))
	require.NoError(t, err)
	assert.Equal(t, before, after, "-diff writes nothing")

	r = run(t, dir, bin, "-fix", "./...")
	assert.Equal(t, 3, r.code, r.stderr)
	assert.Contains(t, r.stderr, "resilvet: applied 5 fixes in 2 files")
	assert.Contains(t, r.stderr, "resilvet: 4 findings remain with no suggested fix")
	assert.Empty(t, r.stdout)
	assert.Equal(t, 0, run(t, dir, "go", "build", "./...").code, "the fixed module builds")
	assert.Equal(t, 0, run(t, dir, "gofmt", "-l", ".").code)
	assert.Empty(t, run(t, dir, "gofmt", "-l", ".").stdout, "the fixed files are gofmt-clean")

	// What remains is what the report shows.
	r = run(t, dir, bin, "./...")
	assert.Equal(t, 1, r.code)
	assert.Equal(t, 4, findings(r.stdout), r.stdout)
	r = run(t, dir, bin, "-fix", "./...")
	assert.Equal(t, 3, r.code, r.stderr)
	assert.Contains(t, r.stderr, "resilvet: applied 0 fixes in 0 files")

	// Nothing left to fix and nothing remaining: 0.
	r = run(t, dir, bin, "-fix", "-checks=retrystack,hedgeidem", "./...")
	assert.Equal(t, 3, r.code, "hedgeidem and retrystack findings without fixes remain: %s", r.stderr)
	r = run(t, dir, bin, "-fix", "-checks=ctxdrop", "./recommend")
	assert.Equal(t, 0, r.code, r.stderr)
	assert.Contains(t, r.stderr, "resilvet: no findings remain")
}

// TestByteStable runs every output format twice on the same input and
// compares the bytes: a report that changes from run to run makes every
// upload a diff (the SARIF rules were once in map order).
func TestByteStable(t *testing.T) {
	dir := fixture(t)
	for _, args := range [][]string{
		{"./..."},
		{"-f", "stylish", "./..."},
		{"-f", "json", "./..."},
		{"-f", "sarif", "./..."},
		{"-f", "html", "./..."},
		{"-f", "map-json", "./..."},
		{"-diff", "./..."},
		{"help"},
	} {
		first := run(t, dir, bin, args...)
		for range 2 {
			again := run(t, dir, bin, args...)
			assert.Equal(t, first.code, again.code, args)
			assert.True(t, first.stdout == again.stdout, "%v: the output changed between two runs", args)
		}
		if args[0] == "-f" && args[1] == "sarif" {
			var log struct {
				Runs []struct {
					Tool struct {
						Driver struct {
							Rules []struct {
								ID      string `json:"id"`
								HelpURI string `json:"helpUri"`
							} `json:"rules"`
						} `json:"driver"`
					} `json:"tool"`
				} `json:"runs"`
			}
			require.NoError(t, json.Unmarshal([]byte(first.stdout), &log))
			var ids []string
			for _, r := range log.Runs[0].Tool.Driver.Rules {
				ids = append(ids, r.ID)
				assert.True(t, strings.HasSuffix(r.HelpURI, "/docs/analyzers/"+r.ID+".md"), r.HelpURI)
			}
			assert.Equal(t, strings.Split(knownAnalyzers, ", "), ids, "rules sorted by id")
		}
	}
}

// TestFixWithBaseline follows the docs' "fix only the new ones": with a
// baseline, -fix applies the fixes of the findings the baseline does not
// absorb and leaves the recorded ones as they are.
func TestFixWithBaseline(t *testing.T) {
	dir := fixture(t)
	file := filepath.Join(dir, "b.json")
	r := run(t, dir, bin, "-baseline-write", file, "./...")
	require.Equal(t, 0, r.code, r.stderr)
	edit(t, dir, "api/api.go", "func work(", "func Refunds(w http.ResponseWriter, r *http.Request) {\n\trows, err := store.DB.Query(\"SELECT id FROM refunds\")\n\tif err == nil {\n\t\trows.Close()\n\t}\n}\n\nfunc work(")

	r = run(t, dir, bin, "-fix", "-baseline", file, "./...")
	assert.Equal(t, 0, r.code, r.stderr)
	assert.Contains(t, r.stderr, "absorbed 4 findings")
	assert.Contains(t, r.stderr, "resilvet: applied 1 fix in 1 file")
	assert.Contains(t, r.stderr, "resilvet: no findings remain but the baseline's")
	src, err := os.ReadFile(filepath.Join(dir, "api", "api.go"))
	require.NoError(t, err)
	assert.Contains(t, string(src), `store.DB.QueryContext(r.Context(), "SELECT id FROM refunds")`, "the new finding is fixed")
	assert.Contains(t, string(src), `store.DB.Query("SELECT id FROM orders")`, "the recorded one is left as it is")
}
