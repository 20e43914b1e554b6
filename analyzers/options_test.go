package analyzers_test

import (
	"flag"
	"io"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/resilvet/resilvet/analyzers"
)

// TestFlagsFillOptions sets every flag as the command line names them
// and checks the struct the analyzers read.
func TestFlagsFillOptions(t *testing.T) {
	var opts analyzers.Options
	fs := flag.NewFlagSet("resilvet", flag.ContinueOnError)
	opts.SharedFlags(fs, "resilvet.")
	opts.AnalyzerFlags(fs, "notimeout", "notimeout.")
	opts.AnalyzerFlags(fs, "ctxdrop", "ctxdrop.")
	opts.AnalyzerFlags(fs, "retrystack", "retrystack.")
	opts.AnalyzerFlags(fs, "hedgeidem", "hedgeidem.")
	require.NoError(t, fs.Parse([]string{
		"-resilvet.include-tests",
		"-resilvet.outbound=(*example.com/kv.Client).Get, example.com/kv.Dial",
		"-resilvet.outbound=example.com/kv.Put",
		"-resilvet.timeout-interceptors=example.com/rpc.Timeout",
		"-resilvet.transport-timeouts=false",
		"-notimeout.edge", "-notimeout.main", "-notimeout.client-timeout=1500ms",
		"-retrystack.min-product=8",
		"-hedgeidem.retries=blind", "-hedgeidem.key-headers=X-Request-Key, Idempotency-Key",
		"-hedgeidem.grpc-prefixes=Reserve", "-hedgeidem.idempotent-methods=/shop.Orders/CreateOrder",
	}))
	assert.Equal(t, analyzers.Options{
		IncludeTests:            true,
		Outbound:                []string{"(*example.com/kv.Client).Get", "example.com/kv.Dial", "example.com/kv.Put"},
		TimeoutInterceptors:     []string{"example.com/rpc.Timeout"},
		IgnoreTransportTimeouts: true,
		Edge:                    true,
		Main:                    true,
		ClientTimeout:           1500 * time.Millisecond,
		MinProduct:              8,
		HedgeRetries:            "blind",
		KeyHeaders:              []string{"X-Request-Key", "Idempotency-Key"},
		GRPCPrefixes:            []string{"Reserve"},
		IdempotentMethods:       []string{"/shop.Orders/CreateOrder"},
	}, opts)
	require.NoError(t, opts.Validate())
	assert.Equal(t, "1.5s", fs.Lookup("notimeout.client-timeout").Value.String())
	assert.Equal(t, "10s", defaultTimeoutShown(), "the default is shown as the duration the fixes write")
}

func defaultTimeoutShown() string {
	var opts analyzers.Options
	fs := flag.NewFlagSet("", flag.ContinueOnError)
	opts.AnalyzerFlags(fs, "notimeout", "")
	return fs.Lookup("client-timeout").DefValue
}

func TestBadFlagValues(t *testing.T) {
	for _, args := range [][]string{
		{"-resilvet.outbound=not a name"},
		{"-resilvet.timeout-interceptors=rpc.Timeout("},
		{"-notimeout.client-timeout=soon"},
		{"-notimeout.client-timeout=-1s"},
		{"-notimeout.client-timeout=0"},
		{"-notimeout.client-timeout=1500us"},
		{"-retrystack.min-product=-1"},
		{"-retrystack.min-product=many"},
		{"-hedgeidem.retries=some"},
	} {
		var opts analyzers.Options
		fs := flag.NewFlagSet("resilvet", flag.ContinueOnError)
		fs.SetOutput(io.Discard)
		opts.SharedFlags(fs, "resilvet.")
		opts.AnalyzerFlags(fs, "notimeout", "notimeout.")
		opts.AnalyzerFlags(fs, "retrystack", "retrystack.")
		opts.AnalyzerFlags(fs, "hedgeidem", "hedgeidem.")
		assert.Error(t, fs.Parse(args), "%v", args)
		assert.Equal(t, analyzers.Options{}, opts, "%v: a bad value changes nothing", args)
	}
}

func TestValidate(t *testing.T) {
	assert.NoError(t, (&analyzers.Options{}).Validate())
	assert.ErrorContains(t, (&analyzers.Options{Outbound: []string{"Get"}}).Validate(), "outbound: invalid function name")
	assert.ErrorContains(t, (&analyzers.Options{TimeoutInterceptors: []string{"x("}}).Validate(), "timeout-interceptors")
	assert.ErrorContains(t, (&analyzers.Options{ClientTimeout: time.Microsecond}).Validate(), "client-timeout")
	assert.ErrorContains(t, (&analyzers.Options{MinProduct: -2}).Validate(), "min-product")
	assert.ErrorContains(t, (&analyzers.Options{HedgeRetries: "some"}).Validate(), "retries")
	assert.ErrorContains(t, (&analyzers.Options{KeyHeaders: []string{"Idempotency Key"}}).Validate(), "key-headers")
	assert.ErrorContains(t, (&analyzers.Options{KeyHeaders: []string{""}}).Validate(), "key-headers")
	assert.ErrorContains(t, (&analyzers.Options{GRPCPrefixes: []string{"create"}}).Validate(), "grpc-prefixes")
	assert.ErrorContains(t, (&analyzers.Options{IdempotentMethods: []string{"CreateOrder"}}).Validate(), "idempotent-methods")
	assert.ErrorContains(t, (&analyzers.Options{IdempotentMethods: []string{"/a.B/C/D"}}).Validate(), "idempotent-methods")
	assert.NoError(t, (&analyzers.Options{HedgeRetries: "blind", KeyHeaders: []string{"X-Request-Key"}, GRPCPrefixes: []string{"Reserve"}, IdempotentMethods: []string{"/shop.Orders/CreateOrder", "Orders/Add"}}).Validate())
}

// TestKeys: the cache key tells every option apart; the summary key only
// the options that change the facts.
func TestKeys(t *testing.T) {
	base := analyzers.Options{}
	variants := []analyzers.Options{
		{IncludeTests: true}, {Outbound: []string{"a.B"}}, {TimeoutInterceptors: []string{"a.B"}},
		{IgnoreTransportTimeouts: true}, {KeyHeaders: []string{"X-K"}}, {GRPCPrefixes: []string{"Reserve"}}, {IdempotentMethods: []string{"/a.B/C"}},
		{Edge: true}, {Main: true}, {ClientTimeout: time.Second}, {HedgeRetries: "off"},
	}
	for _, v := range variants {
		assert.NotEqual(t, base.Key(), v.Key(), "%+v", v)
	}
	for _, v := range variants[1:7] {
		assert.NotEqual(t, base.SummaryKey(), v.SummaryKey(), "%+v", v)
	}
	for _, v := range append(variants[:1:1], variants[7:]...) {
		assert.Equal(t, base.SummaryKey(), v.SummaryKey(), "%+v changes only reports", v)
	}
	// Lists are sets: an empty list (a plugin's "outbound: []") is none,
	// and order and repeats do not split the cache or the summary.
	assert.Equal(t, base.SummaryKey(), (&analyzers.Options{Outbound: []string{}}).SummaryKey())
	assert.Equal(t, base.Key(), (&analyzers.Options{TimeoutInterceptors: []string{}}).Key())
	ab := analyzers.Options{Outbound: []string{"a.A", "b.B"}}
	ba := analyzers.Options{Outbound: []string{"b.B", "a.A", "b.B"}}
	assert.Equal(t, ab.SummaryKey(), ba.SummaryKey())
	assert.Equal(t, ab.Key(), ba.Key())
	assert.Equal(t, []string{"b.B", "a.A", "b.B"}, ba.Outbound, "keys do not reorder the options")
}
