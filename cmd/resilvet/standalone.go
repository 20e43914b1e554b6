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
	if err := cmd.parse(args, &opts); err != nil {
		fmt.Fprintln(os.Stderr, "resilvet:", err)
		return 2
	}
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
	if fs.Lookup("list-checks").Value.String() != "true" && fs.Lookup("merge").Value.String() != "true" {
		if msg := goEnvProblem(".", fs.Args()); msg != "" {
			fmt.Fprintln(os.Stderr, "resilvet:", msg)
			return 1
		}
	}
	flags := cmd.baseline
	format := fs.Lookup("f").Value.String()
	if *cmd.fix || *cmd.diff {
		return runFix(&opts, args, flags, format, *cmd.diff)
	}
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

// command is the runner's command with the flags this driver adds to
// it: the analyzers' toggles, the fix-applying modes and the baseline.
type command struct {
	*lintcmd.Command
	toggles   toggles
	fix, diff *bool
	baseline  baselineFlags
}

// newCommand returns the runner's command with resilvet's analyzers
// registered, bound to opts, and the flags that fill opts; extra, if
// given, adds an analyzer built on the suite (the map's collector, which
// requires the suite's summary).
func newCommand(opts *analyzers.Options, extra ...func(suite []*analysis.Analyzer) *lint.Analyzer) *command {
	cmd := &command{Command: lintcmd.NewCommand("resilvet")}
	v := version()
	cmd.SetVersion(v, v)
	fs := cmd.FlagSet()
	fs.Usage = func() { printHelp(os.Stderr, nil) }
	addOptionFlags(fs, opts)
	cmd.baseline.register(fs)
	cmd.toggles = registerToggles(fs)
	cmd.fix = fs.Bool("fix", false, "apply the suggested fixes; say what was applied and what remains (exit 3 when findings remain)")
	cmd.diff = fs.Bool("diff", false, "print the suggested fixes as a unified diff instead of applying them")
	for name, usage := range runnerUsage {
		if f := fs.Lookup(name); f != nil {
			f.Usage = usage
		}
	}
	suite := analyzers.Suite(opts)
	for _, a := range suite {
		d, _ := analyzers.Documentation(a.Name)
		cmd.AddAnalyzers(&lint.Analyzer{Analyzer: namedCategory(a), Doc: lintDoc(a.Name, d)})
	}
	for _, x := range extra {
		cmd.AddAnalyzers(x(suite))
	}
	return cmd
}

// runnerUsage is what the runner's own flags do in resilvet, in its
// words: the runner's usage names staticcheck and only some formats.
var runnerUsage = map[string]string{
	"f":            "output `format`: text (default), stylish, json or sarif; html or map-json for the resilience map",
	"checks":       "comma-separated `analyzers` to run (default all); -name leaves one out; an unknown name is an error",
	"fail":         "comma-separated `analyzers` whose findings make the exit status 1 (default all); an unknown name is an error",
	"explain":      "print the documentation of the `analyzer`",
	"list-checks":  "list the analyzers",
	"merge":        "print the findings of earlier runs' -f binary output files (the arguments, or stdin) in the format of -f",
	"show-ignored": "also print the findings silenced by //lint:ignore",
	"tests":        "analyse test packages too (default false, true with -resilvet.include-tests)",
	"tags":         "comma-separated build `tags`",
}

// parse parses args into the command's flags and opts, and settles what
// follows from them: the tests default, the toggles as -checks, and the
// names in -checks and -fail, which must each select an analyzer.
func (cmd *command) parse(args []string, opts *analyzers.Options) error {
	cmd.ParseFlags(args)
	fs := cmd.FlagSet()
	testsByDefault(fs, opts)
	if err := applyToggles(fs, cmd.toggles); err != nil {
		return err
	}
	return validateCheckLists(fs)
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
// The title leaves out the name the runner prints before it.
func lintDoc(name string, d analysisutil.Doc) *lint.RawDocumentation {
	text := strings.TrimSpace(d.Text)
	if d.Fix != "" {
		text += "\n\nFix: " + strings.TrimSpace(d.Fix)
	}
	return &lint.RawDocumentation{
		Title:    strings.TrimPrefix(d.Title, name+": "),
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
