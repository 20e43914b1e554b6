// Package resilvettest holds what the analyzers' tests share: the path of
// the common testdata tree, whose src/ holds the fixtures and the stubs of
// third-party APIs at their real import paths.
package resilvettest

import (
	"path/filepath"
	"runtime"
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
