package hedgeidem_test

import (
	"path/filepath"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/resilvet/resilvet/analyzers"
	"github.com/resilvet/resilvet/analyzers/hedgeidem"
	"github.com/resilvet/resilvet/internal/resilvettest"
)

// TestHedges runs the fixture packages of every hedge kind and effect
// kind with the default options. Each package's // want lines are its
// expectations, and every package is a negative too.
func TestHedges(t *testing.T) {
	analysistest.Run(t, resilvettest.TestData(), hedgeidem.Analyzer,
		"hedgeidem/hedges", "hedgeidem/failsafe", "hedgeidem/grpchedge", "hedgeidem/handrolled", "hedgeidem/declared", "hedgeidem/retries", "hedgeidem/acmeuse", "hedgeidem/effects/app", "github.com/segmentio/kafka-go/retrying")
}

// TestKeyFix checks the fix setting an idempotency key against the
// golden files, gofmt-clean as emitted and compiling: with the runtime's
// hedge.NewIdempotencyKey where the package already reaches the runtime,
// after the request's error check; none for a request built inside the
// retry loop (a key per attempt would not deduplicate).
func TestKeyFix(t *testing.T) {
	dir := resilvettest.TestData()
	resilvettest.CheckFixes(t, dir, analysistest.RunWithSuggestedFixes(t, dir, hedgeidem.Analyzer, "hedgeidem/fix"))
}

// TestKeyFixStd runs in module mode on Go 1.24 without the runtime: the
// key comes from crypto/rand.Text, imported by the fix.
func TestKeyFixStd(t *testing.T) {
	dir := filepath.Join(resilvettest.TestData(), "modules", "keyfix")
	resilvettest.CheckFixes(t, dir, analysistest.RunWithSuggestedFixes(t, dir, hedgeidem.Analyzer, "example.com/keyfix"))
}

// TestRetriesBlind: with -hedgeidem.retries=blind, built the way every
// driver builds the suite, only clients retrying every request and
// hedges are reported.
func TestRetriesBlind(t *testing.T) {
	a := resilvettest.Analyzer(t, "hedgeidem", analyzers.Options{HedgeRetries: hedgeidem.RetriesBlind})
	analysistest.Run(t, resilvettest.TestData(), a, "hedgeidem/options/blind")
}

// TestNames: the key headers, gRPC prefixes and idempotent methods
// replace the defaults.
func TestNames(t *testing.T) {
	a := resilvettest.Analyzer(t, "hedgeidem", analyzers.Options{
		KeyHeaders:        []string{"X-Request-Key"},
		GRPCPrefixes:      []string{"Reserve"},
		IdempotentMethods: []string{"/shop.Seats/ReserveTwice"},
	})
	analysistest.Run(t, resilvettest.TestData(), a, "hedgeidem/options/names")
}

// TestKeyFixHeader: the fix sets the first configured key header.
func TestKeyFixHeader(t *testing.T) {
	dir := resilvettest.TestData()
	a := resilvettest.Analyzer(t, "hedgeidem", analyzers.Options{KeyHeaders: []string{"X-Request-Key"}})
	resilvettest.CheckFixes(t, dir, analysistest.RunWithSuggestedFixes(t, dir, a, "hedgeidem/fixheader"))
}
