//go:build e2e

package main_test

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestGoVetSharedCache checks docs/build-systems.md's claim: go vet with
// a GOCACHEPROG store shared between machines makes the second machine's
// run a cache hit. Machine A and machine B have GOCACHE directories of
// their own and share the store; a wrapper around resilvet records every
// package it is asked to analyse.
func TestGoVetSharedCache(t *testing.T) {
	tmp := t.TempDir()
	prog := filepath.Join(tmp, "cacheprog")
	out, err := exec.Command("go", "build", "-o", prog, "../../internal/cmd/cacheprog").CombinedOutput()
	require.NoError(t, err, string(out))
	log := filepath.Join(tmp, "analyses.log")
	wrapper := filepath.Join(tmp, "resilvet-logged")
	script := fmt.Sprintf("#!/bin/sh\nfor a in \"$@\"; do case \"$a\" in *.cfg) echo \"$a\" >> %q;; esac; done\nexec %q \"$@\"\n", log, bin)
	require.NoError(t, os.WriteFile(wrapper, []byte(script), 0o755))
	shared := filepath.Join(tmp, "shared")
	dir := fixture(t)
	machine := func(name string, args ...string) (result, int) {
		before := analyses(t, log)
		env := []string{"GOCACHE=" + filepath.Join(tmp, name), "GOCACHEPROG=" + prog + " -dir " + shared}
		r := runEnv(t, dir, env, "go", append([]string{"vet", "-vettool=" + wrapper}, append(args, "./...")...)...)
		return r, analyses(t, log) - before
	}

	a, ranA := machine("machine-a", "-json")
	require.Equal(t, 0, a.code, a.stderr)
	assert.Contains(t, a.stdout+a.stderr, `"dropsctx"`)
	assert.Greater(t, ranA, 2, "machine A analyses the module and its dependencies")
	b, ranB := machine("machine-b", "-json")
	assert.Equal(t, 0, ranB, "machine B analysed packages machine A had cached")
	assert.Equal(t, a.stdout+a.stderr, b.stdout+b.stderr)

	// Text output on a third machine: the same entries serve it (go vet
	// keeps the tool's output with its facts), findings and exit status
	// included.
	c, ranC := machine("machine-c")
	assert.Equal(t, 1, c.code, c.stderr)
	assert.Equal(t, 0, ranC, "machine C analysed packages machine A had cached")
	for _, w := range wantFindings {
		assert.Contains(t, c.stderr, w)
	}
}

// analyses counts the packages the wrapper was asked to analyse.
func analyses(t *testing.T, log string) int {
	b, err := os.ReadFile(log)
	if os.IsNotExist(err) {
		return 0
	}
	require.NoError(t, err)
	return strings.Count(string(b), "\n")
}
