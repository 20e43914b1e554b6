package summary_test

import (
	"bytes"
	"encoding/gob"
	"go/constant"
	"reflect"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"

	"github.com/resilvet/resilvet/internal/summary"
)

func roundTrip(t *testing.T, f analysis.Fact) []byte {
	t.Helper()
	var first bytes.Buffer
	require.NoError(t, gob.NewEncoder(&first).Encode(f))
	decoded := reflect.New(reflect.TypeOf(f).Elem()).Interface()
	require.NoError(t, gob.NewDecoder(bytes.NewReader(first.Bytes())).Decode(decoded))
	assert.Equal(t, f, decoded)
	var second bytes.Buffer
	require.NoError(t, gob.NewEncoder(&second).Encode(decoded))
	assert.Equal(t, first.Bytes(), second.Bytes(), "encoding is not deterministic")
	return first.Bytes()
}

// TestGobRoundTrip checks that a fully populated summary survives the gob
// encoding go vet and gopls use to carry facts between packages, and that
// encoding is deterministic (vet caches facts by content).
func TestGobRoundTrip(t *testing.T) {
	full := &summary.FuncSummary{
		DropsCtx: &summary.Drop{
			Root:  "context.Background",
			At:    "lib.go:12:9",
			Chain: []summary.Link{{Func: "lib.inner", At: "lib.go:4:2"}, {Func: "lib.deeper", At: "lib.go:8:2"}},
		},
		Reaches: []summary.Reach{{Param: 0, Of: "ctx", Kind: "http", Call: "http.Client.Do", Chain: []summary.Link{{Func: "lib.do", At: "lib.go:3:9"}}}},
		Results: []summary.ValueClaim{
			{Index: 0, Of: "client", State: "unbounded", What: "a client without Timeout", At: "lib.go:9:9"},
			{Index: 1, Of: "ctx", State: "param", Param: 2, BoundedIf: &summary.IntCond{Param: 3, Op: ">", Value: 0}},
			{Index: 2, Of: "request", State: "param", Param: 0, ParamOf: "ctx"},
		},
		FuncCalls: []summary.FuncCall{{Param: 1, Times: 3, Args: []int{0, -1}, At: "lib.go:20:4"}, {Param: 2, Times: summary.TimesUnbounded, At: "lib.go:24:4"}, {Param: 3, Times: summary.TimesUnknown, At: "lib.go:28:4"}},
	}
	roundTrip(t, full)
	maker := &summary.FuncSummary{ReturnsRoot: &summary.ReturnedRoot{Index: 0, Root: "context.Background", Bounded: true}}
	roundTrip(t, maker)
	assert.Equal(t, "returnsRoot(0:context.Background, bounded)", maker.String())
	roundTrip(t, &summary.FuncSummary{IgnoresCtx: true})
	waits := &summary.FuncSummary{Waits: true}
	roundTrip(t, waits)
	assert.Equal(t, "waits", waits.String())
	local := &summary.FuncSummary{Reaches: []summary.Reach{{Param: 0, Of: "ctx", Kind: "sql", Call: "sql.DB.QueryContext", Local: true, Repeats: true}}}
	roundTrip(t, local)
	assert.Equal(t, "reaches(ctx0->sql.DB.QueryContext local repeats)", local.String())
	// A generated client's method: the connection is the receiver (-1),
	// and a parameter 0 must survive gob's omission of zero values.
	viaRecv := &summary.FuncSummary{Reaches: []summary.Reach{{Param: 0, Of: "ctx", Kind: "grpc", Call: "grpc.ClientConnInterface.Invoke", ViaConn: true, Conn: -1}}}
	roundTrip(t, viaRecv)
	viaFirst := &summary.FuncSummary{Reaches: []summary.Reach{{Param: 1, Of: "ctx", Kind: "grpc", Call: "grpc.ClientConn.Invoke", ViaConn: true, Conn: 0, If: &summary.IntCond{Param: 2, Op: "==", Value: 0}}}, Results: []summary.ValueClaim{{Of: "conn", State: "bounded"}}}
	roundTrip(t, viaFirst)
	assert.Equal(t, "reaches(ctx1->grpc.ClientConn.Invoke unless conn0 if p2==0) returns(conn0:bounded)", viaFirst.String())
	// A context reaching local work only (param 1), beside one reaching a
	// remote peer (param 0).
	ctxIO := &summary.FuncSummary{CtxIO: []int{0, 1}, CtxRemote: []int{0}}
	roundTrip(t, ctxIO)
	assert.Equal(t, "ctxIO(0,1:local)", ctxIO.String())
	roundTrip(t, &summary.FuncSummary{DropsCtx: &summary.Drop{Root: "context.Background", At: "a.go:2:9", Via: "net.LookupHost", Twin: "net.DefaultResolver.LookupHost"}})
	bounded := &summary.FuncSummary{DropsCtx: &summary.Drop{Root: "context.Background", At: "a.go:2:9", Bounded: true}}
	roundTrip(t, bounded)
	assert.Equal(t, "dropsCtx(context.Background, bounded)", bounded.String())
	// The retry claim: a chain with a runtime layer that yields, unbounded
	// and unknown counts (0 must survive gob), a retried parameter whose
	// count is parameter 0.
	retries := &summary.FuncSummary{Retries: &summary.Retries{
		Product: summary.TimesUnbounded,
		Chain: []summary.RetryLink{
			{What: "retry loop", Func: "api.Get", At: "api.go:3:9", Attempts: summary.TimesUnbounded},
			{What: "retry.Do", Func: "store.Load", At: "store.go:8:2", Attempts: 3, Runtime: true},
			{What: "retry loop", Func: "store.q", At: "store.go:12:2", Attempts: summary.TimesUnknown},
		},
		Params:   []summary.RetriedParam{{Param: 1, Chain: []summary.RetryLink{{What: "retry loop", Func: "util.Do", At: "util.go:4:2", Attempts: 0}}, CountParam: 0}},
		Outbound: true,
	}}
	roundTrip(t, retries)
	assert.Equal(t, "retries(x∞: loop x∞ > retry.Do x3 yields > loop x?) retriesParam(1: loop x?, count p0) outbound", retries.String())
	roundTrip(t, &summary.ValueSummary{Values: []summary.ValueClaim{{Of: "client", State: "bounded"}, {Of: "ctx", State: "unbounded", What: "context.Background()", At: "a.go:3:9"}}})
	assert.Equal(t, "dropsCtx(context.Background via lib.inner -> lib.deeper) reaches(ctx0->http.Client.Do) returns(client0:unbounded) returns(ctx1:param2,bounded if p3>0) returns(request2:param0) calls(1,x3,arg0=p0) calls(2,x∞) calls(3,x?)", full.String())
}

// TestFactsOnRealCode runs the summary over real, non-standard-library
// packages (x/tools, in the module cache as a dependency) with the
// checker's own sanity check of fact encoding, round-trips every fact, and
// bounds their total size: facts are build artifacts in go vet.
func TestFactsOnRealCode(t *testing.T) {
	if testing.Short() {
		t.Skip("loads x/tools from source")
	}
	pkgs, err := packages.Load(&packages.Config{Mode: packages.LoadAllSyntax}, "golang.org/x/tools/go/packages", "golang.org/x/tools/go/analysis/checker")
	require.NoError(t, err)
	graph, err := checker.Analyze([]*analysis.Analyzer{summary.Analyzer}, pkgs, &checker.Options{SanityCheck: true})
	require.NoError(t, err)
	total, count, largest := 0, 0, 0
	for act := range graph.All() {
		require.NoError(t, act.Err, act.String())
		if act.Analyzer != summary.Analyzer {
			continue
		}
		// The drivers encode a package's facts in one gob stream, so
		// type descriptions are paid once per package: measure that.
		var stream bytes.Buffer
		enc := gob.NewEncoder(&stream)
		facts := act.AllObjectFacts()
		for _, f := range facts {
			roundTrip(t, f.Fact)
			require.NoError(t, enc.Encode(f.Fact))
		}
		total += stream.Len()
		count += len(facts)
		largest = max(largest, stream.Len())
	}
	t.Logf("%d facts, %d bytes, largest package %d bytes", count, total, largest)
	assert.Positive(t, count, "expected facts in x/tools (it runs go list with contexts it is given)")
	// Recorded bounds (docs/architecture.md): 250 bytes a fact on
	// average, 16 KiB for a package.
	assert.Less(t, total/count, 250, "average fact size")
	assert.Less(t, largest, 16<<10, "largest package's facts")
}

// TestIntCondHolds checks the conditions of result and reach claims on
// integer and boolean constants.
func TestIntCondHolds(t *testing.T) {
	isFalse := &summary.IntCond{Param: 0, Op: "==", Value: 0}
	assert.True(t, isFalse.Holds(constant.MakeBool(false)))
	assert.False(t, isFalse.Holds(constant.MakeBool(true)))
	positive := &summary.IntCond{Param: 0, Op: ">", Value: 0}
	assert.True(t, positive.Holds(constant.MakeInt64(4)))
	assert.False(t, positive.Holds(constant.MakeInt64(0)))
	assert.False(t, positive.Holds(constant.MakeString("4")), "a string meets no integer condition")
	assert.False(t, (&summary.IntCond{Op: "~", Value: 0}).Holds(constant.MakeInt64(0)), "an unknown operator holds for nothing")
}
