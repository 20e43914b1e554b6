// Package resilvettest holds what the analyzers' tests share: the path of
// the common testdata tree, whose src/ holds the fixtures and the stubs of
// third-party APIs at their real import paths.
package resilvettest

import (
	"path/filepath"
	"runtime"
	"testing"

	"golang.org/x/tools/go/analysis"

	"github.com/resilvet/resilvet/analyzers"
)

// TestData returns the absolute path of the repository's testdata
// directory.
func TestData() string {
	_, file, _, ok := runtime.Caller(0)
	if !ok {
		panic("internal error: no caller information")
	}
	return filepath.Join(filepath.Dir(file), "..", "..", "testdata")
}

// Analyzer returns the named analyzer of a suite bound to opts, built the
// way every driver builds it (analyzers.Suite), so tests of an option go
// through the same path as the flags and settings that fill it.
func Analyzer(t testing.TB, name string, opts analyzers.Options) *analysis.Analyzer {
	t.Helper()
	if err := opts.Validate(); err != nil {
		t.Fatalf("options: %v", err)
	}
	for _, a := range analyzers.Suite(&opts) {
		if a.Name == name {
			return a
		}
	}
	t.Fatalf("no analyzer %q", name)
	return nil
}
