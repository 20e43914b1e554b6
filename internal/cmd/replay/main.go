// Command replay runs the current resilvet on each service of the ledger
// (ledger/findings.jsonl) at its recorded version and compares with the
// verdicts recorded there: per service and rule, the true findings lost
// (a regression: the run fails), the false findings still reported, and
// the findings nobody has triaged.
//
// Usage, from the repository root:
//
//	go run ./internal/cmd/replay                          # every service of the ledger
//	go run ./internal/cmd/replay -only github.com/knadh/listmonk   # some of them
//	go run ./internal/cmd/replay -dir github.com/TwiN/gatus/v5=/src/gatus
//	go run ./internal/cmd/replay -draft github.com/TwiN/gatus/v5 -version 08c46354… -source snapshot -dir …
//
// A service recorded with source "proxy" is downloaded through the module
// proxy at its version; one recorded with source "snapshot" (a repository
// at a commit, not on the proxy) needs its directory with -dir, and a
// replay without it fails rather than skip it. -draft prints a ledger
// line, verdict "unsure", for each finding of the service that has no
// entry: the triager edits the verdicts and appends them, before any
// change is made for the service.
package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/resilvet/resilvet/internal/baseline"
	"github.com/resilvet/resilvet/internal/ledger"
	"github.com/resilvet/resilvet/internal/modcopy"
)

var (
	ledgerPath = flag.String("ledger", "ledger/findings.jsonl", "the ledger file")
	draft      = flag.String("draft", "", "print ledger lines (verdict unsure) for this service's findings that have no entry, and compare nothing")
	version    = flag.String("version", "", "with -draft, for a service not in the ledger yet: its version (or commit)")
	sourceKind = flag.String("source", "proxy", "with -draft, for a service not in the ledger yet: proxy or snapshot")
	table      = flag.Bool("table", false, "print the ledger's first-contact figures as docs/precision.md carries them, and run nothing")
	only       = flag.String("only", "", "comma-separated services to replay (default every service of the ledger); CI replays a fixed sample from the module proxy")
	binary     = flag.String("bin", "", "run this resilvet binary instead of building ./cmd/resilvet (with -draft: the binary of the first contact, to record what it reported)")
	dirs       = dirFlag{}
)

func main() {
	flag.Var(dirs, "dir", "service=directory: the source of a service (required for snapshots; repeatable)")
	flag.Parse()
	entries, err := ledger.Read(*ledgerPath)
	check(err)
	if *table {
		fmt.Print(ledger.Table(entries))
		return
	}
	tmp, err := os.MkdirTemp("", "resilvet-replay")
	check(err)
	defer os.RemoveAll(tmp)
	bin := *binary
	if bin == "" {
		bin = filepath.Join(tmp, "resilvet")
		run(".", "go", "build", "-o", bin, "./cmd/resilvet")
	}

	services := ledger.Services(entries)
	if *only != "" {
		var picked []ledger.Entry
		for _, name := range strings.Split(*only, ",") {
			i := slices.IndexFunc(services, func(e ledger.Entry) bool { return e.Service == name })
			if i < 0 {
				check(fmt.Errorf("-only: %s is not in the ledger", name))
			}
			picked = append(picked, services[i])
		}
		services = picked
	}
	if *draft != "" {
		services = []ledger.Entry{{Service: *draft, Version: *version, Source: *sourceKind}}
		for _, s := range ledger.Services(entries) {
			if s.Service == *draft {
				services = []ledger.Entry{s}
			}
		}
	}
	if len(services) == 0 {
		// An empty ledger replays nothing: that is no pass.
		check(fmt.Errorf("%s holds no finding to replay", *ledgerPath))
	}
	failed := false
	for _, s := range services {
		dir, err := source(tmp, s)
		if err != nil {
			fmt.Printf("%s@%s: FAIL: %v\n", s.Service, s.Version, err)
			failed = true
			continue
		}
		findings, err := analyse(bin, dir)
		if err != nil {
			fmt.Printf("%s@%s: FAIL: %v\n", s.Service, s.Version, err)
			failed = true
			continue
		}
		r := ledger.Compare(entries, s.Service, findings)
		if *draft != "" {
			printDraft(s, r.Untriaged)
			continue
		}
		failed = report(s, r) || failed
	}
	// The verdict goes to stderr with -draft, whose stdout is ledger lines.
	out := os.Stdout
	if *draft != "" {
		out = os.Stderr
	}
	if failed {
		fmt.Fprintln(out, "FAIL")
		os.Exit(1)
	}
	fmt.Fprintln(out, "ok")
}

// report prints one service's comparison, by rule, and says whether a
// true finding was lost.
func report(s ledger.Entry, r ledger.Result) bool {
	fmt.Printf("%s@%s: %d true kept, %d true lost, %d false still reported, %d false gone, %d never triaged\n",
		s.Service, s.Version, r.Kept, len(r.TrueLost), len(r.FalseKept), r.FalseGone, len(r.Untriaged))
	for _, e := range r.TrueLost {
		fmt.Printf("    LOST true %s/%s at %s: %s\n", e.Identity.Analyzer, e.Rule, e.Pos, e.Why)
	}
	for _, e := range r.FalseKept {
		fmt.Printf("    false still reported %s/%s at %s (%s)\n", e.Identity.Analyzer, e.Rule, e.Pos, e.Class)
	}
	for _, f := range r.Untriaged {
		fmt.Printf("    never triaged %s/%s at %s: %s\n", f.Identity.Analyzer, f.Rule, f.Pos, f.Identity.Message)
	}
	return len(r.TrueLost) > 0
}

// printDraft prints a ledger line for each finding without an entry.
func printDraft(s ledger.Entry, findings []ledger.Finding) {
	for _, f := range findings {
		e := ledger.Entry{
			Service: s.Service, Version: s.Version, Source: s.Source,
			Rule: f.Rule, Identity: f.Identity, Pos: f.Pos,
			Verdict: ledger.Unsure, FirstContact: time.Now().Format(time.DateOnly),
		}
		line, err := json.Marshal(e)
		check(err)
		fmt.Println(string(line))
	}
}

// source returns a writable directory holding the service at its version.
func source(tmp string, s ledger.Entry) (string, error) {
	if dir, ok := dirs[s.Service]; ok {
		return filepath.Abs(dir)
	}
	if s.Source != "proxy" {
		return "", fmt.Errorf("a snapshot at %s: pass its directory with -dir %s=DIR", s.Version, s.Service)
	}
	cmd := exec.Command("go", "mod", "download", "-json", s.Service+"@"+s.Version)
	cmd.Dir = tmp
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("downloading: %v", err)
	}
	var info struct{ Dir, Error string }
	if err := json.Unmarshal(out, &info); err != nil || info.Error != "" {
		return "", fmt.Errorf("downloading: %v%s", err, info.Error)
	}
	dst := filepath.Join(tmp, "src", strings.ReplaceAll(s.Service, "/", "_"))
	return dst, modcopy.Writable(dst, info.Dir)
}

// analyse runs the binary's -json mode, which keeps each finding's
// category (its rule), on the service and returns its findings, once
// each (a test variant repeats its package's).
func analyse(bin, dir string) ([]ledger.Finding, error) {
	cmd := exec.Command(bin, "-json", "./...")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOWORK=off")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	runErr := cmd.Run()
	var tree map[string]map[string]json.RawMessage
	if err := json.Unmarshal(stdout.Bytes(), &tree); err != nil {
		return nil, fmt.Errorf("the run failed (%v): %s", runErr, firstLines(stderr.String(), 10))
	}
	x := baseline.NewIdentifier()
	seen := map[string]bool{}
	var out []ledger.Finding
	for _, byAnalyzer := range tree {
		for analyzer, raw := range byAnalyzer {
			var diags []struct {
				Category, Posn, End, Message string
			}
			if json.Unmarshal(raw, &diags) != nil {
				continue // an error entry: a package that does not load
			}
			for _, d := range diags {
				if seen[d.Posn+"\x00"+d.Message] {
					continue
				}
				seen[d.Posn+"\x00"+d.Message] = true
				pos, end := position(d.Posn), position(d.End)
				rel, err := filepath.Rel(dir, pos.Filename)
				if err != nil {
					rel = pos.Filename
				}
				out = append(out, ledger.Finding{
					Rule:     d.Category,
					Identity: x.Identify(analyzer, d.Message, pos, end),
					Pos:      fmt.Sprintf("%s:%d", filepath.ToSlash(rel), pos.Line),
				})
			}
		}
	}
	slices.SortFunc(out, func(a, b ledger.Finding) int { return strings.Compare(a.Pos, b.Pos) })
	return out, nil
}

// position parses "file:line:col".
func position(s string) token.Position {
	var p token.Position
	rest, col, ok := cut(s)
	if !ok {
		p.Filename = s
		return p
	}
	file, line, ok := cut(rest)
	if !ok {
		p.Filename, p.Line = rest, col
		return p
	}
	p.Filename, p.Line, p.Column = file, line, col
	return p
}

// cut splits "x:N" at its last colon into x and N.
func cut(s string) (string, int, bool) {
	i := strings.LastIndexByte(s, ':')
	if i < 0 {
		return s, 0, false
	}
	n, err := strconv.Atoi(s[i+1:])
	if err != nil {
		return s, 0, false
	}
	return s[:i], n, true
}

// dirFlag maps a service to its directory (-dir service=dir).
type dirFlag map[string]string

func (d dirFlag) String() string { return "" }

func (d dirFlag) Set(v string) error {
	service, dir, ok := strings.Cut(v, "=")
	if !ok || service == "" || dir == "" {
		return fmt.Errorf("want service=directory, got %q", v)
	}
	d[service] = dir
	return nil
}

func run(dir, name string, args ...string) {
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
		os.Exit(1)
	}
}

func firstLines(s string, n int) string {
	lines := strings.SplitN(s, "\n", n+1)
	if len(lines) > n {
		lines = lines[:n]
	}
	return strings.Join(lines, "\n")
}

func check(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, "replay:", err)
		os.Exit(1)
	}
}
