package main

import (
	"fmt"
	"io"
	"os"
)

// withCheckedStdout runs run with os.Stdout replaced by a pipe that is
// copied to the real standard output, and returns run's status, or 1
// when a write failed: the runner's formatters ignore write errors, and a
// report lost to a full disk or a closed pipe must not leave the gate
// green. What cannot be written is still read, so run never blocks.
func withCheckedStdout(run func() int) int {
	real := os.Stdout
	if _, err := real.Stat(); err != nil {
		// Closed: checked before the pipe below takes its descriptor.
		fmt.Fprintln(os.Stderr, "resilvet: standard output:", err)
		return 1
	}
	r, w, err := os.Pipe()
	if err != nil {
		fmt.Fprintln(os.Stderr, "resilvet:", err)
		return 1
	}
	copied := make(chan error, 1)
	go func() {
		_, err := io.Copy(onlyWriter{real}, r)
		if err != nil {
			io.Copy(io.Discard, r)
		}
		copied <- err
	}()
	os.Stdout = w
	status := run()
	os.Stdout = real
	w.Close()
	if err := <-copied; err != nil {
		fmt.Fprintln(os.Stderr, "resilvet: writing the report:", err)
		return 1
	}
	return status
}

// onlyWriter hides everything of a writer but Write, so io.Copy writes
// through it and reports the write's error, not a splice's.
type onlyWriter struct{ w io.Writer }

func (o onlyWriter) Write(p []byte) (int, error) { return o.w.Write(p) }
