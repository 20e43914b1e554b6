// Package ledger holds the triaged real findings: each finding resilvet
// reported on a service at first contact, with the verdict a person gave
// it after reading the code. The ledger is the regression suite of the
// analyzers' precision: a replay runs the current binary on each service
// at its recorded version and compares (Compare), so a rule added for one
// service cannot silently cost true findings on another.
package ledger

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/resilvet/resilvet/internal/baseline"
)

// Verdicts a finding can have.
const (
	True   = "true"
	False  = "false"
	Unsure = "unsure"
)

// Entry is one triaged finding.
type Entry struct {
	// Service is the module path and Version its version (a module
	// version, or a commit for a service that is not on the module proxy;
	// Source says which).
	Service string `json:"service"`
	Version string `json:"version"`
	// Source is "proxy" (go mod download can fetch Service@Version) or
	// "snapshot" (a repository snapshot at the commit in Version; a replay
	// needs its directory).
	Source string `json:"source"`
	// Rule is the finding's category, the rule that decided it ("sql",
	// "dropsctx", "rootctx", "nested"...).
	Rule string `json:"rule"`
	// Identity is the finding's identity as a baseline computes it.
	Identity baseline.Identity `json:"identity"`
	// Pos is file:line in the service at Version, for a reader.
	Pos string `json:"pos"`
	// Verdict is true, false or unsure; Class names the kind of a false
	// finding ("start-up", "test-only", "lifecycle context"...), Why says
	// in a line what the code does.
	Verdict string `json:"verdict"`
	Class   string `json:"class,omitempty"`
	Why     string `json:"why"`
	// FirstContact is the date (YYYY-MM-DD) the service was first run.
	FirstContact string `json:"first_contact"`
}

// Key is what a replay matches a finding on: the identity without its
// message, so that a reworded message is the same finding, and the rule
// is not part of it either (a finding that moves to another rule of the
// same analyzer is still found).
func (e Entry) Key() string {
	id := e.Identity
	return strings.Join([]string{e.Service, id.Analyzer, id.Package, id.Function, id.Source}, "\x00")
}

// Read reads a ledger file: one JSON entry per line, blank lines and lines
// starting with # ignored. Every entry is checked, so a typo in a verdict
// is an error, not a finding that never counts.
func Read(path string) ([]Entry, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var out []Entry
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		var e Entry
		dec := json.NewDecoder(strings.NewReader(line))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&e); err != nil {
			return nil, fmt.Errorf("%s:%d: %v", path, n, err)
		}
		if err := e.check(); err != nil {
			return nil, fmt.Errorf("%s:%d: %v", path, n, err)
		}
		out = append(out, e)
	}
	return out, sc.Err()
}

func (e Entry) check() error {
	switch {
	case e.Service == "" || e.Version == "":
		return fmt.Errorf("an entry needs service and version")
	case e.Source != "proxy" && e.Source != "snapshot":
		return fmt.Errorf("source %q: want proxy or snapshot", e.Source)
	case e.Verdict != True && e.Verdict != False && e.Verdict != Unsure:
		return fmt.Errorf("verdict %q: want true, false or unsure", e.Verdict)
	case e.Verdict == False && e.Class == "":
		return fmt.Errorf("a false finding needs its class")
	case e.Identity.Analyzer == "" || e.Identity.Package == "":
		return fmt.Errorf("an entry needs its identity's analyzer and package")
	case e.FirstContact == "":
		return fmt.Errorf("an entry needs the date of first contact")
	}
	return nil
}

// Finding is a finding of a replay run.
type Finding struct {
	Rule     string
	Identity baseline.Identity
	Pos      string
}

// Result is what a replay of one service found against its entries, by
// rule ("analyzer/rule").
type Result struct {
	// TrueLost are true findings the run no longer reports: a regression.
	TrueLost []Entry
	// FalseKept are false findings the run still reports.
	FalseKept []Entry
	// Kept counts the true findings still reported, FalseGone the false
	// ones no longer reported.
	Kept, FalseGone int
	// Untriaged are findings of the run the ledger has no entry for.
	Untriaged []Finding
}

// Compare replays findings, the current run on service, against the
// ledger's entries for it. Each entry absorbs at most one finding with
// its key, so two recorded occurrences need two current ones.
func Compare(entries []Entry, service string, findings []Finding) Result {
	var r Result
	left := map[string]int{}
	for _, f := range findings {
		left[Entry{Service: service, Identity: f.Identity}.Key()]++
	}
	for _, e := range entries {
		if e.Service != service {
			continue
		}
		k := e.Key()
		found := left[k] > 0
		if found {
			left[k]--
		}
		switch {
		case e.Verdict == True && found:
			r.Kept++
		case e.Verdict == True:
			r.TrueLost = append(r.TrueLost, e)
		case e.Verdict == False && found:
			r.FalseKept = append(r.FalseKept, e)
		case e.Verdict == False:
			r.FalseGone++
		}
	}
	for _, f := range findings {
		k := Entry{Service: service, Identity: f.Identity}.Key()
		if left[k] > 0 {
			left[k]--
			r.Untriaged = append(r.Untriaged, f)
		}
	}
	return r
}

// Services returns the services of entries with their version and
// source, sorted by path.
func Services(entries []Entry) []Entry {
	seen := map[string]bool{}
	var out []Entry
	for _, e := range entries {
		if !seen[e.Service] {
			seen[e.Service] = true
			out = append(out, Entry{Service: e.Service, Version: e.Version, Source: e.Source})
		}
	}
	slices.SortFunc(out, func(a, b Entry) int { return strings.Compare(a.Service, b.Service) })
	return out
}
