// Package leaktest checks that a test leaves no goroutines behind.
package leaktest

import (
	"runtime"
	"strings"
	"testing"
	"time"
)

// Check records the goroutines running now and, when the test ends, fails
// it if others are still running after a grace period (goroutines that
// are winding down get up to two seconds).
func Check(t testing.TB) {
	t.Helper()
	before := snapshot()
	t.Cleanup(func() {
		deadline := time.Now().Add(2 * time.Second)
		for {
			var leaked []string
			for id, stack := range snapshot() {
				if _, ok := before[id]; !ok {
					leaked = append(leaked, stack)
				}
			}
			if len(leaked) == 0 {
				return
			}
			if time.Now().After(deadline) {
				t.Errorf("%d goroutine(s) leaked:\n%s", len(leaked), strings.Join(leaked, "\n\n"))
				return
			}
			time.Sleep(10 * time.Millisecond)
		}
	})
}

// snapshot returns the stacks of the running goroutines by id. Tests that
// use Check must not run in parallel with others, whose goroutines would
// look leaked.
func snapshot() map[string]string {
	buf := make([]byte, 1<<20)
	buf = buf[:runtime.Stack(buf, true)]
	out := map[string]string{}
	for _, g := range strings.Split(string(buf), "\n\n") {
		header, _, _ := strings.Cut(g, "\n")
		if f := strings.Fields(header); len(f) >= 2 && f[0] == "goroutine" {
			out[f[1]] = g
		}
	}
	return out
}
