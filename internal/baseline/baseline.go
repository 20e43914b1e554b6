// Package baseline gives resilvet's findings an identity that survives
// unrelated edits, and keeps a file of the findings a service accepts for
// now: a run with the file reports only the findings not in it.
//
// A finding's identity is its analyzer, its package (import path), the
// function or method it is in, its message without positions and without
// the names of the other functions on its chain, and a hash of the
// flagged source with its whitespace normalised: not its line, so that an
// edit above it, or a rename of another function, leaves it the same
// finding. N occurrences of one identity in the file absorb N current
// ones; the next is new.
package baseline

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"regexp"
	"slices"
	"strings"
)

// Version is the version of the file format this package reads and
// writes.
const Version = 1

// Identity is what makes two findings the same finding.
type Identity struct {
	Analyzer string `json:"analyzer"`
	Package  string `json:"package"`
	// Function is the enclosing top-level function, "F", or method,
	// "(*T).M"; empty at package level.
	Function string `json:"function,omitempty"`
	// Message is the message as StableMessage leaves it.
	Message string `json:"message"`
	// Source is a hash of the flagged source text, whitespace normalised.
	Source string `json:"source"`
}

// Fingerprint is the identity as one short string: SARIF's
// partialFingerprints value.
func (id Identity) Fingerprint() string {
	h := sha256.Sum256([]byte(strings.Join([]string{id.Analyzer, id.Package, id.Function, id.Message, id.Source}, "\x00")))
	return hex.EncodeToString(h[:16])
}

// Entry is an identity and how many findings of it the file absorbs.
type Entry struct {
	Identity
	Count int `json:"count"`
}

// File is a baseline file: pretty JSON, one entry per identity, sorted,
// so that a reviewer reads its diff in a pull request.
type File struct {
	Version  int     `json:"version"`
	Findings []Entry `json:"findings"`
}

// positions are file:line and file:line:col references in messages;
// counts of the other places a grouped finding covers ("(2 more calls in
// this package)") grow and shrink with the code around the finding.
var (
	positions = regexp.MustCompile(`[\w.\-/\\]*\.go:\d+(?::\d+)?`)
	moreCount = regexp.MustCompile(`\s*\(\d+ more [^()]*\)`)
)

// StableMessage returns msg without the positions it names, the counts
// of places a grouped finding covers besides its own, and the names of
// the functions on its chain (chains.go). Applied to its own result it
// changes nothing, so the messages of a file recorded before a name was
// left out still match once NewMatcher applies it again.
func StableMessage(msg string) string {
	msg = moreCount.ReplaceAllString(msg, "")
	msg = blankChains(positions.ReplaceAllString(msg, blank))
	return strings.Join(strings.Fields(msg), " ")
}

// New returns the file recording ids.
func New(ids []Identity) *File {
	counts := map[Identity]int{}
	for _, id := range ids {
		counts[id]++
	}
	f := &File{Version: Version, Findings: []Entry{}}
	for id, n := range counts {
		f.Findings = append(f.Findings, Entry{Identity: id, Count: n})
	}
	slices.SortFunc(f.Findings, func(a, b Entry) int {
		for _, c := range [][2]string{
			{a.Package, b.Package}, {a.Function, b.Function}, {a.Analyzer, b.Analyzer},
			{a.Message, b.Message}, {a.Source, b.Source},
		} {
			if n := strings.Compare(c[0], c[1]); n != 0 {
				return n
			}
		}
		return 0
	})
	return f
}

// Write writes f to path.
// Messages keep their arrows (a -> b) unescaped: the file is read in
// pull-request diffs.
func (f *File) Write(path string) error {
	var out bytes.Buffer
	enc := json.NewEncoder(&out)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(f); err != nil {
		return err
	}
	return os.WriteFile(path, out.Bytes(), 0o644)
}

// Read reads the baseline at path. Its errors say what is wrong with the
// file and how to make a new one.
func Read(path string) (*File, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("baseline: %v", err)
	}
	var f File
	dec := json.NewDecoder(strings.NewReader(string(data)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&f); err != nil {
		return nil, fmt.Errorf("baseline %s is not a resilvet baseline (%v); write one with -baseline-write", path, err)
	}
	if f.Version != Version {
		return nil, fmt.Errorf("baseline %s has version %d; this resilvet reads version %d: write it again with -baseline-write", path, f.Version, Version)
	}
	for _, e := range f.Findings {
		if e.Count < 1 || e.Analyzer == "" {
			return nil, fmt.Errorf("baseline %s: an entry with no analyzer or a count below 1 (%+v); write it again with -baseline-write", path, e)
		}
	}
	return &f, nil
}

// Matcher decides which current findings a baseline absorbs.
type Matcher struct {
	left     map[Identity]int
	total    int
	absorbed int
}

// NewMatcher returns a matcher for f's entries. It passes their messages
// through StableMessage again: a file written before StableMessage left
// out the names on a finding's chain keeps them, and without this every
// finding with a chain would turn new, silently, on upgrade.
func NewMatcher(f *File) *Matcher {
	m := &Matcher{left: map[Identity]int{}}
	for _, e := range f.Findings {
		id := e.Identity
		id.Message = StableMessage(id.Message)
		m.left[id] += e.Count
		m.total += e.Count
	}
	return m
}

// Absorb reports whether the baseline absorbs a finding of id: it does
// while occurrences of id are left in it.
func (m *Matcher) Absorb(id Identity) bool {
	if m.left[id] == 0 {
		return false
	}
	m.left[id]--
	m.absorbed++
	return true
}

// Absorbed returns how many findings the baseline absorbed.
func (m *Matcher) Absorbed() int { return m.absorbed }

// Stale returns how many of the baseline's occurrences no current finding
// matched: findings fixed (or changed) since it was written.
func (m *Matcher) Stale() int { return m.total - m.absorbed }
