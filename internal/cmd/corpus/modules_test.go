package main

import (
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestTableProblems checks that each way the module tables can stop
// being true of the build list is a problem naming the module.
func TestTableProblems(t *testing.T) {
	versions := map[string]string{"example.com/a": "v1.0.0", "example.com/b": "v1.0.0", "example.com/new": "v0.1.0"}
	problems := tableProblems(versions,
		[]string{"example.com/a", "example.com/b", "example.com/gone"},
		map[string]string{"example.com/b": "why", "example.com/old": "why"},
		map[string]unloadedPackages{"example.com/b": {}, "example.com/c": {}})
	assert.Len(t, problems, 5, "%q", problems)
	assert.Contains(t, problems[0], "example.com/b: in both")
	assert.Contains(t, problems[1], "example.com/new: in the build list but in neither table")
	assert.Contains(t, problems[2], "example.com/gone: named in")
	assert.Contains(t, problems[3], "example.com/old: named in")
	assert.Contains(t, problems[4], "example.com/c: in partlyLoaded but not in checkedModules")
}

// TestTablesAreTheBuildList checks the tables against this module's build
// list without the module proxy (go list -m reads go.mod files the build
// has downloaded), so that a dependency added or dropped fails here, in
// step 1, and not only in the slow corpus check.
func TestTablesAreTheBuildList(t *testing.T) {
	versions, err := buildList()
	require.NoError(t, err)
	assert.Empty(t, tableProblems(versions, checkedModules, uncheckableModules, partlyLoaded))
	for path, p := range partlyLoaded {
		assert.True(t, slices.IsSorted(p.packages), "partlyLoaded[%s] must be sorted, as the packages it is compared with are", path)
	}
}
