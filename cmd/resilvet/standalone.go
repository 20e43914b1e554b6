package main

import (
	"crypto/sha256"
	"encoding/hex"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"

	"golang.org/x/tools/go/analysis"
	"honnef.co/go/tools/analysis/lint"
	"honnef.co/go/tools/lintcmd"

	"github.com/resilvet/resilvet/analyzers"
	"github.com/resilvet/resilvet/internal/analysisutil"
)

// cacheEnv names the directory of the standalone runner's cache of facts
// and diagnostics; the default is resilvet/ in the user's cache directory.
const cacheEnv = "RESILVET_CACHE"

// runStandalone runs the analyzers on staticcheck's runner: packages are
// analysed one at a time from export data and source, facts and
// diagnostics are cached on disk, and output is text, stylish, json or
// sarif (-f). It returns the exit status.
func runStandalone(args []string) int {
	var opts analyzers.Options
	cmd := newCommand(&opts)
	fs := cmd.FlagSet()
	cmd.ParseFlags(args)
	testsByDefault(fs, &opts)
	if name := fs.Lookup("explain").Value.String(); name != "" {
		return explain(name)
	}
	dir, err := cacheDir(&opts)
	if err != nil {
		fmt.Fprintln(os.Stderr, "resilvet:", err)
		return 1
	}
	// The runner keys its cache by the binary's build ID, not by the
	// analyzers' options: a directory per set of options keeps a rerun
	// with other options from reading findings made with these.
	if err := os.Setenv("STATICCHECK_CACHE", dir); err != nil {
		fmt.Fprintln(os.Stderr, "resilvet:", err)
		return 1
	}
	if msg := toolchainMismatch("."); msg != "" {
		fmt.Fprintln(os.Stderr, "resilvet:", msg)
		return 1
	}
	flags := baselineFlags{read: fs.Lookup("baseline").Value.String(), write: fs.Lookup("baseline-write").Value.String()}
	format := fs.Lookup("f").Value.String()
	if isMapFormat(format) {
		if flags.read != "" || flags.write != "" {
			fmt.Fprintln(os.Stderr, "resilvet: the resilience map (-f "+format+") shows every finding; it takes no baseline")
			return 2
		}
		return runMap(&opts, args, fs.Args(), format, os.Stdout)
	}
	if flags.read != "" && flags.write != "" {
		fmt.Fprintln(os.Stderr, "resilvet: -baseline and -baseline-write do not go together: write a baseline, then run with it")
		return 2
	}
	if flags.read == "" && flags.write == "" && format != "sarif" {
		return cmd.Execute()
	}
	if fs.Lookup("merge").Value.String() == "true" || format == "binary" {
		fmt.Fprintln(os.Stderr, "resilvet: -baseline, -baseline-write and SARIF fingerprints need a run of the analyzers, not -merge or -f binary")
		return 2
	}
	return runWithBaseline(&opts, args, flags, format)
}

// testsByDefault turns the runner's -tests off unless the user set it or
// asked for findings in test files (-resilvet.include-tests): the
// analyzers do not report in _test.go files by default, and a package's
// test variant analyses its other files a second time, doubling the time
// and the peak memory of the largest packages.
func testsByDefault(fs *flag.FlagSet, opts *analyzers.Options) {
	set := false
	fs.Visit(func(f *flag.Flag) { set = set || f.Name == "tests" })
	if !set && !opts.IncludeTests {
		fs.Set("tests", "false")
	}
}

// newCommand returns the runner's command with resilvet's analyzers
// registered, bound to opts, and the flags that fill opts; extra, if
// given, adds an analyzer built on the suite (the map's collector, which
// requires the suite's summary).
func newCommand(opts *analyzers.Options, extra ...func(suite []*analysis.Analyzer) *lint.Analyzer) *lintcmd.Command {
	cmd := lintcmd.NewCommand("resilvet")
	v := version()
	cmd.SetVersion(v, v)
	fs := cmd.FlagSet()
	fs.Usage = func() { printHelp(os.Stderr, nil) }
	addOptionFlags(fs, opts)
	new(baselineFlags).register(fs)
	suite := analyzers.Suite(opts)
	for _, a := range suite {
		d, _ := analyzers.Documentation(a.Name)
		cmd.AddAnalyzers(&lint.Analyzer{Analyzer: namedCategory(a), Doc: lintDoc(d)})
	}
	for _, x := range extra {
		cmd.AddAnalyzers(x(suite))
	}
	return cmd
}

// namedCategory returns a copy of a whose diagnostics carry a's name as
// their category. The runner selects and silences findings (-checks,
// //lint:ignore) by category, and resilvet's analyzers put the kind of
// finding there (root, twin, drop...), which the runner would take for
// unknown checks and drop.
func namedCategory(a *analysis.Analyzer) *analysis.Analyzer {
	named := *a
	named.Run = func(pass *analysis.Pass) (any, error) {
		report := pass.Report
		pass.Report = func(d analysis.Diagnostic) {
			d.Category = a.Name
			report(d)
		}
		return a.Run(pass)
	}
	return &named
}

// lintDoc lays resilvet's documentation out as the runner's: the fix
// follows the text, and the example is the "before".
func lintDoc(d analysisutil.Doc) *lint.RawDocumentation {
	text := strings.TrimSpace(d.Text)
	if d.Fix != "" {
		text += "\n\nFix: " + strings.TrimSpace(d.Fix)
	}
	return &lint.RawDocumentation{
		Title:    d.Title,
		Text:     text,
		Severity: lint.SeverityWarning,
	}
}

// explain prints the named analyzer's documentation and where the user
// guide is.
func explain(name string) int {
	d, ok := analyzers.Documentation(name)
	if !ok {
		fmt.Fprintf(os.Stderr, "resilvet: no analyzer %q; resilvet -list-checks lists them\n", name)
		return 2
	}
	fmt.Println(d.Render())
	fmt.Println("\nDocumentation:\n\t" + analysisutil.URL(name))
	return 0
}

// cacheDir returns the cache directory for opts: the base directory
// (RESILVET_CACHE, or resilvet/ in the user's cache directory) and a
// subdirectory named by a hash of every option's value.
func cacheDir(opts *analyzers.Options) (string, error) {
	base := os.Getenv(cacheEnv)
	if base == "" {
		user, err := os.UserCacheDir()
		if err != nil {
			return "", fmt.Errorf("no cache directory (set %s): %v", cacheEnv, err)
		}
		base = filepath.Join(user, "resilvet")
	} else if !filepath.IsAbs(base) {
		return "", fmt.Errorf("%s must be an absolute path, not %q", cacheEnv, base)
	}
	sum := sha256.Sum256([]byte(opts.Key()))
	return filepath.Join(base, "options-"+hex.EncodeToString(sum[:8])), nil
}

// version is the module version the binary was built from.
func version() string {
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		return bi.Main.Version
	}
	return "devel"
}
