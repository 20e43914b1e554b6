package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
)

// goEnvProblem returns why the packages that patterns name cannot be
// loaded from dir, as the go command would refuse them, or "": the
// go command that loads them (after GOTOOLCHAIN switching, as a module's
// go line may ask) is a newer release than resilvet was built with, whose
// type checker cannot read that standard library (every package would fail
// with type errors in it), or a local pattern is
// used outside a module. The runner takes the latter for a pattern that
// matched no packages, warns and exits 0, which in CI is a gate that
// never closes; go vet exits 1, and so does resilvet.
func goEnvProblem(dir string, patterns []string) string {
	cmd := exec.Command("go", "env", "GOVERSION", "GOMOD", "GOWORK")
	cmd.Dir = dir
	out, err := cmd.Output()
	if err != nil {
		return ""
	}
	env := strings.Split(string(out), "\n")
	if len(env) < 3 {
		return ""
	}
	if msg := newerRelease(strings.TrimSpace(env[0]), runtime.Version()); msg != "" {
		return msg
	}
	gomod, gowork := strings.TrimSpace(env[1]), strings.TrimSpace(env[2])
	if gomod != os.DevNull || gowork != "" && gowork != "off" {
		return "" // in a module or workspace, or GOPATH mode (GOMOD empty)
	}
	if len(patterns) == 0 {
		patterns = []string{"."}
	}
	for _, p := range patterns {
		if p == "." || p == ".." || strings.HasPrefix(p, "./") || strings.HasPrefix(p, "../") || filepath.IsAbs(p) {
			return "go.mod file not found in current directory or any parent directory; see 'go help modules'"
		}
	}
	return ""
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
