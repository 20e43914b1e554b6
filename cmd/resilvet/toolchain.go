package main

import (
	"fmt"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
)

// toolchainMismatch returns why the packages cannot be analysed when the
// go command that loads them (after GOTOOLCHAIN switching, as a module's
// go line may ask) is a newer Go release than the one resilvet was built
// with: the type checker of an older release cannot read a newer
// standard library, and every package would fail with type errors in
// it. Empty when the releases agree or the go command cannot be asked
// (the loader then reports what it finds).
func toolchainMismatch(dir string) string {
	cmd := exec.Command("go", "env", "GOVERSION")
	cmd.Dir = dir
	out, err := cmd.Output()
	if err != nil {
		return ""
	}
	return newerRelease(strings.TrimSpace(string(out)), runtime.Version())
}

// newerRelease returns the error for a go command at release goCmd when
// resilvet was built with release built, or "" when goCmd is not newer
// (compared by major and minor: patch releases share a type checker).
func newerRelease(goCmd, built string) string {
	cmdMajor, cmdMinor, ok1 := release(goCmd)
	major, minor, ok2 := release(built)
	if !ok1 || !ok2 || cmdMajor < major || cmdMajor == major && cmdMinor <= minor {
		return ""
	}
	return fmt.Sprintf("the go command here is %s but resilvet was built with %s, whose type checker cannot read the newer standard library; rebuild resilvet with that release (GOTOOLCHAIN=%s go install github.com/resilvet/resilvet/cmd/resilvet@latest)", goCmd, built, goCmd)
}

// release parses "go1.27.3" (or "go1.27rc1", "go1.27") into 1 and 27.
func release(v string) (major, minor int, ok bool) {
	v, found := strings.CutPrefix(v, "go")
	if !found {
		return 0, 0, false
	}
	parts := strings.SplitN(v, ".", 3)
	if len(parts) < 2 {
		return 0, 0, false
	}
	major, err := strconv.Atoi(parts[0])
	if err != nil {
		return 0, 0, false
	}
	minorText := parts[1]
	if i := strings.IndexFunc(minorText, func(r rune) bool { return r < '0' || r > '9' }); i >= 0 {
		minorText = minorText[:i]
	}
	minor, err = strconv.Atoi(minorText)
	if err != nil {
		return 0, 0, false
	}
	return major, minor, true
}
