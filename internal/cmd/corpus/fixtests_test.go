package main

import (
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestCompareTests reads go test -json output recorded without and with
// an overlay (testdata/gotest-*.json; times dropped, a package d failing
// either way and a package e lost with the fixes added by hand) and
// checks what the corpus check makes of each package: a test that
// passes without the fixes and fails with them, or a test binary that
// no longer builds, is a regression; a test failing either way is only
// reported; a package with no result with the fixes is an error.
func TestCompareTests(t *testing.T) {
	read := func(name string) map[string]*pkgTests {
		f, err := os.Open("testdata/" + name)
		require.NoError(t, err)
		defer f.Close()
		return parseTestEvents(f)
	}
	before, after := read("gotest-before.json"), read("gotest-after.json")
	require.Len(t, before, 5)
	require.Len(t, after, 4)

	ft := compareTests(before, after)
	assert.Equal(t, 4, ft.packages)
	assert.Equal(t, 0, ft.pass)
	assert.Equal(t, 1, ft.noTests, "example.com/m/c has no test files")
	require.Len(t, ft.regression, 2)
	assert.Contains(t, ft.regression[0], "example.com/m/a: TestF pass without the fixes and fail with them")
	assert.Contains(t, ft.regression[0], "a_test.go:7: F() != 1")
	assert.NotContains(t, ft.regression[0], "TestNet", "TestNet fails either way")
	assert.Contains(t, ft.regression[1], "example.com/m/b passes without the fixes and fails with them")
	assert.Contains(t, ft.regression[1], "b/b.go:3:23: undefined: undefined", "the build output of the test binary")
	assert.Equal(t, []string{"example.com/m/d (TestDial): d_test.go:9: dial tcp: lookup example.org: no such host"}, ft.failBoth)
	assert.Equal(t, []string{"example.com/m/e: tested without the fixes, no result with them"}, ft.errors)
	assert.True(t, ft.failed())

	same := compareTests(before, before)
	assert.Empty(t, same.regression)
	assert.Empty(t, same.errors)
	assert.Len(t, same.failBoth, 2, "a's TestNet and d's TestDial fail either way")
	assert.Equal(t, 2, same.pass)
	assert.False(t, same.failed())
}
