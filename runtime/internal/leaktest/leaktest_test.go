package leaktest_test

import (
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/resilvet/resilvet/runtime/internal/leaktest"
)

// TestLeaky leaks a goroutine on purpose; it runs only as the subprocess
// of TestCheckReportsLeaks.
func TestLeaky(t *testing.T) {
	if os.Getenv("LEAKTEST_LEAKY") == "" {
		t.Skip("run by TestCheckReportsLeaks")
	}
	leaktest.Check(t)
	block := make(chan struct{})
	go func() { <-block }()
}

func TestCheckReportsLeaks(t *testing.T) {
	cmd := exec.Command(os.Args[0], "-test.run=^TestLeaky$", "-test.v")
	cmd.Env = append(os.Environ(), "LEAKTEST_LEAKY=1")
	out, err := cmd.CombinedOutput()
	if err == nil || !strings.Contains(string(out), "goroutine(s) leaked") {
		t.Fatalf("a leaked goroutine went unreported (err %v):\n%s", err, out)
	}
}

func TestCheckPassesWhenClean(t *testing.T) {
	leaktest.Check(t)
	done := make(chan struct{})
	go func() { close(done) }()
	<-done
}
