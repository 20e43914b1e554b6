//go:build e2e

package main_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// These end-to-end tests build the real binary and run it the three ways
// users do: standalone, as go vet's -vettool and as go fix's -fixtool, on
// a fixture module whose api package calls a store package, so facts must
// cross a package boundary in every mode. They build binaries and run go
// vet over modules, so they sit behind the e2e build tag, out of the
// README's test command: `go test -tags e2e ./cmd/resilvet` runs them
// (CI's second step does).

var bin, cache string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "resilvet-e2e")
	if err != nil {
		panic(err)
	}
	bin = filepath.Join(dir, "resilvet")
	cache = filepath.Join(dir, "cache")
	out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput()
	if err != nil {
		os.Stderr.Write(out)
		panic(err)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// fixture copies the shop module to a fresh directory.
func fixture(t *testing.T) string {
	t.Helper()
	dst := t.TempDir()
	require.NoError(t, os.CopyFS(dst, os.DirFS("testdata/shop")))
	return dst
}

type result struct {
	stdout, stderr string
	code           int
}

func run(t *testing.T, dir string, name string, args ...string) result {
	t.Helper()
	return runEnv(t, dir, []string{"RESILVET_CACHE=" + cache}, name, args...)
}

func runEnv(t *testing.T, dir string, env []string, name string, args ...string) result {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Env = append(append(os.Environ(), "GOFLAGS=", "GOWORK=off", "GOPROXY=off", "GOTOOLCHAIN=local"), env...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	code := 0
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		code = exit.ExitCode()
	} else {
		require.NoError(t, err)
	}
	return result{stdout.String(), stderr.String(), code}
}

var wantFindings = []string{
	"api.go:12:15: sql.DB.Query ignores the caller's context while r.Context() is available",
	"api.go:16:2: call to store.Count drops the caller's context: it makes its own context.Background() for context-taking work (store.go:14:28)",
	"api.go:17:7: context.Background() passed to api.work while r.Context() is available",
	"store.go:14:28: context.Background() reaches sql.DB.QueryRowContext with no deadline",
}

// findings counts diagnostics in text output; related positions follow
// their finding on lines of their own, indented (standalone) or after the
// position (x/tools' checker).
func findings(out string) int {
	n := 0
	for _, l := range strings.Split(out, "\n") {
		if strings.Contains(l, ".go:") && !strings.Contains(l, ": \t") && !strings.HasPrefix(l, "\t") {
			n++
		}
	}
	return n
}

func TestStandalone(t *testing.T) {
	dir := fixture(t)
	r := run(t, dir, bin, "./...")
	assert.Equal(t, 1, r.code, "exit code with findings: %s", r.stderr)
	for _, w := range wantFindings {
		assert.Contains(t, r.stdout, w)
	}
	assert.NotContains(t, r.stdout, "api_test.go", "test files are skipped by default")
	assert.Equal(t, 4, findings(r.stdout), r.stdout)
	assert.Contains(t, r.stdout, "\tstore/store.go:12:1: store.Count takes no context", "related positions follow their finding")

	r = run(t, dir, bin, "-resilvet.include-tests", "./...")
	assert.Contains(t, r.stdout, "api_test.go:8:41: context.Background() passed to api.work while ctx is available")
	// -tests=false does not load test packages at all.
	r = run(t, dir, bin, "-tests=false", "-resilvet.include-tests", "./...")
	assert.NotContains(t, r.stdout, "api_test.go")
	assert.Equal(t, 4, findings(r.stdout), r.stdout)
	// -tags selects files by build tag like the go command.
	require.NoError(t, os.WriteFile(filepath.Join(dir, "api", "tagged.go"), []byte("//go:build extra\n\npackage api\n\nimport \"context\"\n\nfunc tagged(ctx context.Context) { work(context.TODO()) }\n"), 0o644))
	r = run(t, dir, bin, "./...")
	assert.NotContains(t, r.stdout, "tagged.go")
	r = run(t, dir, bin, "-tags=extra", "./...")
	assert.Contains(t, r.stdout, "tagged.go:7:41: context.TODO() passed to api.work while ctx is available")

	// -checks selects analyzers.
	r = run(t, dir, bin, "-checks=notimeout", "./...")
	assert.Equal(t, 1, r.code, r.stderr)
	assert.Equal(t, 1, findings(r.stdout), r.stdout)
	assert.Contains(t, r.stdout, "store.go:14:28: context.Background() reaches sql.DB.QueryRowContext")
	r = run(t, dir, bin, "-checks=all,-ctxdrop,-notimeout", "./...")
	assert.Equal(t, 0, r.code, r.stderr)
	assert.Empty(t, r.stdout)
	// -fail chooses which findings fail the run.
	r = run(t, dir, bin, "-fail=notimeout", "-checks=ctxdrop", "./...")
	assert.Equal(t, 0, r.code, r.stderr)
	assert.Equal(t, 3, findings(r.stdout), r.stdout)

	// x/tools' checker's analyzer toggles work in the standalone run too.
	r = run(t, dir, bin, "-ctxdrop=false", "./...")
	assert.Equal(t, 1, r.code, r.stderr)
	assert.Equal(t, 1, findings(r.stdout), r.stdout)
}

// TestStaticcheckDirectivesAndConfig: in the standalone mode the runner's
// own //lint:ignore directive and staticcheck.conf's checks apply, with
// the analyzers' names as checks.
func TestStaticcheckDirectivesAndConfig(t *testing.T) {
	dir := fixture(t)
	api := filepath.Join(dir, "api", "api.go")
	src, err := os.ReadFile(api)
	require.NoError(t, err)
	lines := strings.Split(string(src), "\n")
	// Line 17 holds the work(context.Background()) finding.
	lines = append(lines[:16], append([]string{"\t//lint:ignore ctxdrop the work is detached on purpose"}, lines[16:]...)...)
	require.NoError(t, os.WriteFile(api, []byte(strings.Join(lines, "\n")), 0o644))
	r := run(t, dir, bin, "./...")
	assert.Equal(t, 3, findings(r.stdout), r.stdout)
	assert.NotContains(t, r.stdout, "passed to api.work")
	r = run(t, dir, bin, "-show-ignored", "./...")
	assert.Contains(t, r.stdout, "passed to api.work")

	require.NoError(t, os.WriteFile(filepath.Join(dir, "staticcheck.conf"), []byte(`checks = ["all", "-ctxdrop"]`+"\n"), 0o644))
	r = run(t, dir, bin, "./...")
	assert.Equal(t, 1, findings(r.stdout), r.stdout)
	assert.Contains(t, r.stdout, "(notimeout)")
}

// TestFormats checks the runner's output formats: stylish, the JSON
// stream (one object per finding) and SARIF, valid against its schema.
func TestFormats(t *testing.T) {
	dir := fixture(t)
	r := run(t, dir, bin, "-f", "stylish", "./...")
	assert.Equal(t, 1, r.code, r.stderr)
	assert.Contains(t, r.stdout, "api/api.go")
	assert.Contains(t, r.stdout, "4 problems")

	r = run(t, dir, bin, "-f", "json", "./...")
	assert.Equal(t, 1, r.code, r.stderr)
	type position struct {
		File   string `json:"file"`
		Line   int    `json:"line"`
		Column int    `json:"column"`
	}
	var codes []string
	for _, line := range strings.Split(strings.TrimSpace(r.stdout), "\n") {
		var d struct {
			Code     string   `json:"code"`
			Severity string   `json:"severity"`
			Location position `json:"location"`
			Message  string   `json:"message"`
			Related  []struct {
				Location position `json:"location"`
				Message  string   `json:"message"`
			} `json:"related"`
		}
		require.NoError(t, json.Unmarshal([]byte(line), &d), line)
		assert.NotZero(t, d.Location.Line)
		assert.True(t, filepath.IsAbs(d.Location.File), d.Location.File)
		codes = append(codes, d.Code)
		if strings.HasPrefix(d.Message, "call to store.Count") {
			require.NotEmpty(t, d.Related)
			assert.Equal(t, 12, d.Related[0].Location.Line)
		}
	}
	assert.ElementsMatch(t, []string{"ctxdrop", "ctxdrop", "ctxdrop", "notimeout"}, codes)

	// With SARIF, findings are the report: the exit status is 0, so a CI
	// step uploading it is not failed by the findings it carries.
	r = run(t, dir, bin, "-f", "sarif", "./...")
	assert.Equal(t, 0, r.code, r.stderr)
	validateSARIF(t, []byte(r.stdout))
	var sarif struct {
		Runs []struct {
			Tool struct {
				Driver struct {
					Name  string `json:"name"`
					Rules []struct {
						ID string `json:"id"`
					} `json:"rules"`
				} `json:"driver"`
			} `json:"tool"`
			Results []struct {
				RuleID string `json:"ruleId"`
			} `json:"results"`
		} `json:"runs"`
	}
	require.NoError(t, json.Unmarshal([]byte(r.stdout), &sarif))
	require.Len(t, sarif.Runs, 1)
	assert.Len(t, sarif.Runs[0].Results, 4)

	r = run(t, dir, bin, "-f", "xml", "./...")
	assert.Equal(t, 2, r.code)
	assert.Contains(t, r.stderr, "unsupported output format")
}

// TestExplainAndListChecks: the analyzers' documentation, from the binary.
func TestExplainAndListChecks(t *testing.T) {
	r := run(t, ".", bin, "-explain", "ctxdrop")
	assert.Equal(t, 0, r.code, r.stderr)
	for _, w := range []string{"ctxdrop: report request contexts dropped on the way to outbound work", "Example:", "Fix:", "docs/analyzers/ctxdrop.md"} {
		assert.Contains(t, r.stdout, w)
	}
	r = run(t, ".", bin, "-explain", "nosuch")
	assert.Equal(t, 2, r.code)
	assert.Contains(t, r.stderr, `no analyzer "nosuch"`)
	r = run(t, ".", bin, "-version")
	assert.Equal(t, 0, r.code, r.stderr)
	assert.Contains(t, r.stdout, "resilvet")
	r = run(t, ".", bin, "-list-checks")
	assert.Equal(t, 0, r.code, r.stderr)
	assert.Contains(t, r.stdout, "ctxdrop report request contexts dropped")
	assert.Contains(t, r.stdout, "notimeout report outbound calls")
	assert.NotContains(t, r.stdout, "ctxdrop ctxdrop", "each name once")
}

// TestCachedRerun: a rerun on unchanged code runs no analyzer (the
// runner's per-analyzer measurements stay empty) and prints the same
// findings; a changed file is analysed again; other analyzer options use
// a cache of their own.
func TestCachedRerun(t *testing.T) {
	dir := fixture(t)
	env := []string{"RESILVET_CACHE=" + t.TempDir()}
	measured := func(args ...string) (result, string) {
		f := filepath.Join(t.TempDir(), "measure.tsv")
		r := runEnv(t, dir, env, bin, append([]string{"-debug.measure-analyzers=" + f}, append(args, "./...")...)...)
		b, _ := os.ReadFile(f)
		return r, string(b)
	}
	first, ran := measured()
	assert.Equal(t, 1, first.code, first.stderr)
	assert.Contains(t, ran, "ctxdrop\texample.com/shop/api")
	assert.Contains(t, ran, "resilvetsummary\texample.com/shop/store")
	// Test variants are not analysed unless findings in test files are
	// asked for: they would analyse the same files twice.
	assert.NotContains(t, ran, "[example.com/shop/api.test]")
	_, withTests := measured("-resilvet.include-tests")
	assert.Contains(t, withTests, "ctxdrop\texample.com/shop/api [example.com/shop/api.test]")

	again, ran := measured()
	assert.Equal(t, first.stdout, again.stdout)
	assert.Empty(t, ran, "a rerun on unchanged code ran analyzers")

	// Touch one package: it, and the packages importing it, run again.
	api := filepath.Join(dir, "api", "api.go")
	src, err := os.ReadFile(api)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(api, append(src, []byte("\n// changed\n")...), 0o644))
	_, ran = measured()
	assert.Contains(t, ran, "example.com/shop/api")
	assert.NotContains(t, ran, "example.com/shop/store\n", "an unchanged dependency was analysed again")

	// Other options: a cache of their own, so analyzers run.
	_, ran = measured("-notimeout.edge")
	assert.Contains(t, ran, "notimeout\texample.com/shop/api")
}

func TestJSON(t *testing.T) {
	r := run(t, fixture(t), bin, "-json", "./...")
	assert.Equal(t, 0, r.code, r.stderr)
	var out map[string]map[string][]struct {
		Posn           string `json:"posn"`
		Message        string `json:"message"`
		Category       string `json:"category"`
		SuggestedFixes []struct {
			Message string `json:"message"`
			Edits   []struct {
				Filename string `json:"filename"`
				Start    int    `json:"start"`
				End      int    `json:"end"`
				New      string `json:"new"`
			} `json:"edits"`
		} `json:"suggested_fixes"`
		Related []struct {
			Posn    string `json:"posn"`
			Message string `json:"message"`
		} `json:"related"`
	}
	require.NoError(t, json.Unmarshal([]byte(r.stdout), &out), r.stdout)
	diags := out["example.com/shop/api"]["ctxdrop"]
	require.Len(t, diags, 3)
	byCat := map[string]int{}
	for _, d := range diags {
		byCat[d.Category]++
	}
	assert.Equal(t, map[string]int{"twin": 1, "dropsctx": 1, "rootctx": 1}, byCat)
	for _, d := range diags {
		switch d.Category {
		case "twin":
			require.Len(t, d.SuggestedFixes, 1)
			assert.Equal(t, "Call QueryContext with r.Context()", d.SuggestedFixes[0].Message)
		case "dropsctx":
			require.NotEmpty(t, d.Related)
			assert.Contains(t, d.Related[0].Posn, "store.go:12:6")
		case "rootctx":
			require.Len(t, d.SuggestedFixes, 1)
			assert.Equal(t, "r.Context()", d.SuggestedFixes[0].Edits[0].New)
		}
	}
}

func TestFix(t *testing.T) {
	dir := fixture(t)
	r := run(t, dir, bin, "-fix", "./...")
	assert.Equal(t, 3, r.code, "the rule-3 finding has no fix and remains: %s", r.stderr)
	assert.Contains(t, r.stderr, "resilvet: applied 3 fixes in 2 files")
	assert.Contains(t, r.stderr, "resilvet: 1 finding remains with no suggested fix")
	src, err := os.ReadFile(filepath.Join(dir, "api", "api.go"))
	require.NoError(t, err)
	assert.Contains(t, string(src), `store.DB.QueryContext(r.Context(), "SELECT id FROM orders")`)
	assert.Contains(t, string(src), `work(r.Context())`)
	// The rule-3 finding has no fix; it stays.
	r = run(t, dir, bin, "./...")
	assert.Equal(t, 1, r.code)
	assert.Equal(t, 1, findings(r.stdout), r.stdout)
	// -diff prints the fixes without applying them.
	dir = fixture(t)
	r = run(t, dir, bin, "-fix", "-diff", "./...")
	assert.Contains(t, r.stdout, "+\trows, err := store.DB.QueryContext(r.Context(), \"SELECT id FROM orders\")")
	src, err = os.ReadFile(filepath.Join(dir, "api", "api.go"))
	require.NoError(t, err)
	assert.NotContains(t, string(src), "QueryContext(r.Context()")
	// The fixed module still builds.
	assert.Equal(t, 0, run(t, dir, "go", "build", "./...").code)
}

func TestGoVet(t *testing.T) {
	dir := fixture(t)
	r := run(t, dir, "go", "vet", "-vettool="+bin, "./...")
	assert.Equal(t, 1, r.code, r.stderr)
	for _, w := range wantFindings {
		assert.Contains(t, r.stderr, w)
	}
	assert.NotContains(t, r.stderr, "api_test.go")

	// The shared option is lifted onto the command line, so go vet accepts
	// and forwards it.
	r = run(t, dir, "go", "vet", "-vettool="+bin, "-resilvet.include-tests", "./...")
	assert.Equal(t, 1, r.code, r.stderr)
	assert.Contains(t, r.stderr, "api_test.go:8:41: context.Background() passed to api.work")

	r = run(t, dir, "go", "vet", "-vettool="+bin, "-json", "./...")
	assert.Equal(t, 0, r.code, r.stderr)
	assert.Contains(t, r.stdout+r.stderr, `"category": "dropsctx"`)
}

func TestGoFix(t *testing.T) {
	dir := fixture(t)
	r := run(t, dir, "go", "fix", "-fixtool="+bin, "-diff", "./...")
	assert.Contains(t, r.stdout, "+\trows, err := store.DB.QueryContext(r.Context(), \"SELECT id FROM orders\")")
	r = run(t, dir, "go", "fix", "-fixtool="+bin, "./...")
	assert.Equal(t, 0, r.code, r.stderr)
	src, err := os.ReadFile(filepath.Join(dir, "api", "api.go"))
	require.NoError(t, err)
	assert.Contains(t, string(src), "work(r.Context())")
}

func TestHelp(t *testing.T) {
	for _, args := range [][]string{{"help"}, {"-h"}, {"-help"}, {"--help"}} {
		r := run(t, ".", bin, args...)
		assert.Equal(t, 0, r.code, args)
		for _, w := range []string{"resilvet finds resilience bugs", "ctxdrop", "notimeout", "go vet -vettool", "-checks", "-f format", "docs/usage.md"} {
			assert.Contains(t, r.stdout, w, args)
		}
		assert.NotContains(t, r.stdout, "strings.SplitSeq", "x/tools' generic text")
	}
	r := run(t, ".", bin, "help", "ctxdrop")
	out := r.stdout + r.stderr
	assert.Contains(t, out, "ctxdrop: report request contexts dropped on the way to outbound work")
	assert.Contains(t, out, "Example:")
	assert.Contains(t, out, "Fix:")
}

func TestBadFlag(t *testing.T) {
	r := run(t, ".", bin, "-resilvet.outbound=not a name", "./...")
	assert.NotEqual(t, 0, r.code)
	assert.Contains(t, r.stderr, "invalid function name")
	assert.NotContains(t, r.stderr, "panic")
}

// TestExample runs the README's first command on the bundled example
// service and checks it reports the mistakes the example documents, and
// nothing on the deliberate and correct code around them.
func TestExample(t *testing.T) {
	r := run(t, "../..", bin, "./examples/...")
	assert.Equal(t, 1, r.code, r.stderr)
	for _, w := range []string{
		"payments/payments.go:48:14: http.NewRequest ignores the caller's context while ctx is available",
		"checkout/checkout.go:41:12: sql.DB.QueryRow ignores the caller's context while r.Context() is available",
		"checkout/checkout.go:48:35: context.Background() passed to payments.Client.Charge while r.Context() is available",
		"checkout/checkout.go:62:17: call to recommend.ForUser drops the caller's context: it makes its own context.Background()",
		"recommend/recommend.go:41:15: http.Get uses http.DefaultClient, which has no timeout",
		"checkout/checkout.go:72:13: context.WithoutCancel(…), which drops the deadline, reaches sql.DB.ExecContext (via main.Server.audit -> sql.DB.ExecContext) with no deadline",
		"checkout/checkout.go:92:19: retry loop (3 attempts) wraps recommend.Recent, which retries 3× (recommend.go:56): up to 9 attempts per call; keep retries at one layer",
		"payments/payments.go:38:12: retry loop (3 attempts) retries payments.Client.send, which sends a POST request without an Idempotency-Key header set before the send (payments.go:65)",
		"payments/payments.go:52:12: retry loop (3 attempts) retries payments.Client.send, which sends a POST request without an Idempotency-Key header set before the send (payments.go:65)",
	} {
		assert.Contains(t, r.stdout, w)
	}
	assert.Equal(t, 9, findings(r.stdout), r.stdout)
}

// TestBrokenInput checks that code that does not parse or type-check gets
// a clear error and exit code 1, never a panic, and that cgo packages are
// analysed.
func TestBrokenInput(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.CopyFS(dir, os.DirFS("testdata/broken")))
	for _, tc := range []struct{ pkg, want string }{
		{"./syntax", "syntax.go:6:24: syntax error: unexpected newline in argument list"},
		{"./typeerr", "typeerr.go:6:2: undefined: undefined (compile)"},
	} {
		r := run(t, dir, bin, tc.pkg)
		assert.Equal(t, 1, r.code, r.stderr)
		assert.Contains(t, r.stdout, tc.want)
		assert.NotContains(t, r.stdout+r.stderr, "panic")
		// x/tools' checker reports the same, on stderr.
		r = run(t, dir, bin, "-fix", tc.pkg)
		assert.Equal(t, 1, r.code, r.stderr)
		assert.NotContains(t, r.stdout+r.stderr, "panic")
	}
	if _, err := exec.LookPath("gcc"); err != nil {
		// CI's second step installs gcc and sets the variable, so that a
		// lost compiler fails there instead of skipping the cgo case.
		if os.Getenv("RESILVET_REQUIRE_CGO") != "" {
			t.Fatal("no C compiler (gcc) for the cgo package, and RESILVET_REQUIRE_CGO is set")
		}
		t.Skip("no C compiler (gcc) for the cgo package")
	}
	r := run(t, dir, bin, "./cgo")
	assert.Equal(t, 1, r.code, r.stderr)
	assert.Contains(t, r.stdout, "cgo.go:13:14: context.Background() passed to cgo.work while ctx is available")
}

// TestDocumentedFlagsExist checks that every flag docs/usage.md documents
// is one the binary accepts (go vet learns them from -flags the same way).
func TestDocumentedFlagsExist(t *testing.T) {
	r := run(t, ".", bin, "-flags")
	var flags []struct{ Name string }
	require.NoError(t, json.Unmarshal([]byte(r.stdout), &flags), r.stdout)
	have := map[string]bool{}
	for _, f := range flags {
		have[f.Name] = true
	}
	// Driver-only flags (-fix, -cpuprofile…) are not offered to go vet;
	// the usage text lists them.
	help := run(t, ".", bin, "-help")
	for _, m := range regexp.MustCompile(`(?m)^  -([a-zA-Z][a-z.-]*)`).FindAllStringSubmatch(help.stdout+help.stderr, -1) {
		have[m[1]] = true
	}
	doc, err := os.ReadFile("../../docs/usage.md")
	require.NoError(t, err)
	documented := regexp.MustCompile("`-([a-z][a-z.-]*)[=` ]").FindAllStringSubmatch(string(doc), -1)
	require.NotEmpty(t, documented)
	for _, m := range documented {
		assert.True(t, have[m[1]], "docs/usage.md documents -%s, which resilvet does not accept", m[1])
	}
}

// TestDriversAgreeOnDependencyRoots runs the standalone runner, x/tools'
// checker and go vet on a module whose dependencies (replaced by local
// directories) make their own root contexts. A root made in a dependency
// is reported only where the user's call has a context-taking
// alternative, which needs the module of each package: staticcheck's
// runner does not give passes one, so without the fallback the
// standalone mode reported the gossip calls too, with a fix that edits
// the dependency.
func TestDriversAgreeOnDependencyRoots(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.CopyFS(dir, os.DirFS("../../testdata/modules/depdrop")))
	want := []string{
		"app.go:13:2: call to hystrix.Do drops the caller's context: hystrix.Do makes its own context.Background() in example.com/hystrix",
		"app.go:43:9: call to app.local drops the caller's context: it makes its own context.Background()",
		"app.go:55:9: call to app.charge2 drops the caller's context: hystrix.Do makes its own context.Background() in example.com/hystrix",
	}
	for _, args := range [][]string{
		{bin, "-checks=ctxdrop", "./..."},
		{bin, "-notimeout=false", "./..."},
		{"go", "vet", "-vettool=" + bin, "-notimeout=false", "./..."},
	} {
		r := run(t, dir, args[0], args[1:]...)
		out := r.stdout + r.stderr
		for _, w := range want {
			assert.Contains(t, out, w, "%v", args)
		}
		assert.NotContains(t, out, "gossip", "%v: nothing the user can change reaches gossip's root", args)
		assert.Equal(t, len(want), findings(out), "%v:\n%s", args, out)
	}
}
