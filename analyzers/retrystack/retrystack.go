package retrystack

import (
	"fmt"
	"go/ast"
	"go/token"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/resilvet/resilvet/internal/analysisutil"
	"github.com/resilvet/resilvet/internal/fixedit"
	"github.com/resilvet/resilvet/internal/report"
	"github.com/resilvet/resilvet/internal/summary"
)

const name = "retrystack"

// Config holds retrystack's options. The zero value is the default.
type Config struct {
	// IncludeTests reports findings in _test.go files too.
	IncludeTests bool
	// MinProduct reports nested layers only when they multiply to more
	// than this many attempts (unbounded products always, unknown ones
	// only when it is 0). 0 reports any nesting.
	MinProduct int
}

// Analyzer reports nested retry layers, with the default configuration.
var Analyzer = New(summary.Analyzer, func() Config { return Config{} })

// New returns a retrystack analyzer that reads the summaries of sum (a
// summary analyzer) and whose configuration is config(), read when each
// package's run starts. Drivers build their analyzers through
// analyzers.Suite, which fills both from one options struct.
func New(sum *analysis.Analyzer, config func() Config) *analysis.Analyzer {
	return &analysis.Analyzer{
		Name:     name,
		Doc:      doc.Render(),
		URL:      analysisutil.URL(name),
		Requires: []*analysis.Analyzer{sum},
		Run:      func(pass *analysis.Pass) (any, error) { return run(pass, sum, config()) },
	}
}

// Categories of findings.
const (
	categoryNested = "nested"
	categoryHot    = "hot"
	categorySleep  = "sleep"
	categoryCtx    = "ctxerr"
	categoryBody   = "body"
	categoryOpen   = "open"
)

func run(pass *analysis.Pass, summaries *analysis.Analyzer, cfg Config) (any, error) {
	sum := pass.ResultOf[summaries].(*summary.Result)
	nests, loops, open, ctxless := sum.RetryNests(), sum.RetryLoops(), sum.OpenPolicies(), sum.CtxlessLayers()
	if len(nests) == 0 && len(loops) == 0 && len(open) == 0 && len(ctxless) == 0 {
		return nil, nil
	}
	if !cfg.IncludeTests && report.TestSupportPath(pass.Pkg.Path()) {
		return nil, nil
	}
	rep := report.New(pass, name, cfg.IncludeTests)
	calls := analysisutil.CallsByLparen(pass)
	emit := func(d analysis.Diagnostic) {
		// The engine knows calls by their opening parenthesis: report
		// on the whole call, as editors underline it.
		if call := calls[d.Pos]; call != nil {
			d.Pos, d.End = call.Pos(), call.End()
		}
		rep.Report(d)
	}
	ed := &fixedit.Editor{Pass: pass}
	// Loops a nest's fix replaces get no fix of their own: the two would
	// conflict.
	var replaced []ast.Node
	for _, n := range nests {
		if !reportable(n, cfg.MinProduct) {
			continue
		}
		d := nested(n)
		if fix, loop := nestFix(ed, n); fix != nil {
			d.SuggestedFixes = []analysis.SuggestedFix{*fix}
			replaced = append(replaced, loop)
		}
		emit(d)
	}
	for _, l := range loops {
		if l.Attempts == 1 {
			continue
		}
		if !l.Waits && l.Direct && l.Attempts != 0 {
			emit(analysis.Diagnostic{
				Pos:      l.Pos,
				Category: categoryHot,
				Message:  fmt.Sprintf("retry loop around %s tries again at once, with no wait, so a failing dependency gets every attempt in a burst; wait between attempts with jittered backoff", l.Callee),
			})
		}
		if !l.Remote {
			continue // local work tried again
		}
		if l.Forever {
			emit(analysis.Diagnostic{
				Pos:      l.Pos,
				Category: categoryCtx,
				Message:  fmt.Sprintf("retry loop around %s never leaves while the call fails, not even once ctx is done, so after cancellation it retries the context's error for ever; leave the loop when ctx.Err() is not nil", l.Callee),
			})
		}
		if l.Breaker.IsValid() {
			emit(analysis.Diagnostic{
				Pos:      l.Breaker,
				Category: categoryOpen,
				Message:  "retry loop retries a circuit breaker's call whatever it failed with, so it retries an open circuit, which rejects every attempt at once and is there to shed this load; leave the loop when the breaker says the circuit is open",
				Related:  []analysis.RelatedInformation{{Pos: l.Pos, Message: "the call retried"}},
			})
		}
		if l.Resent.IsValid() {
			emit(analysis.Diagnostic{
				Pos:      l.Resent,
				Category: categoryBody,
				Message:  "retry loop sends a request built before it again, but the first attempt consumed its body (an io.Reader http.NewRequest cannot rewind, and no GetBody), so the retry sends an empty body; build the request inside the loop or set GetBody",
				Related:  []analysis.RelatedInformation{{Pos: l.Pos, Message: "the call retried"}},
			})
		}
		if l.Sleep.IsValid() {
			d := analysis.Diagnostic{
				Pos:      l.Sleep,
				Category: categorySleep,
				Message:  fmt.Sprintf("retry loop around %s sleeps without its context, so the retry waits past the deadline and after cancellation; wait in a select on ctx.Done() and a timer", l.Callee),
				Related:  []analysis.RelatedInformation{{Pos: l.Pos, Message: "the call retried"}},
			}
			if !l.Forever && !within(replaced, l.Sleep) {
				d.SuggestedFixes = sleepFix(ed, l.Sleep)
			}
			emit(d)
		}
	}
	for _, p := range open {
		emit(analysis.Diagnostic{
			Pos:      p.Pos,
			Category: categoryOpen,
			Message:  fmt.Sprintf("retry policy runs outside the circuit breaker and retries every failure, so it retries the open circuit's %s, which rejects every attempt at once and is there to shed this load; abort on it (AbortOnErrors(%s)) or put the breaker outside the retry policy", p.OpenError, p.OpenError),
			Related: []analysis.RelatedInformation{
				{Pos: p.Retry, Message: "the retry policy"},
				{Pos: p.Breaker, Message: "the circuit breaker"},
			},
		})
	}
	for _, l := range ctxless {
		emit(analysis.Diagnostic{
			Pos:      l.Pos,
			Category: categoryCtx,
			Message:  fmt.Sprintf("%s is not given the context in scope, so it goes on retrying and sleeping after the caller has given up (cancelled or past its deadline); give it the context with %s", l.What, l.Hint),
		})
	}
	return nil, nil
}

// within reports whether pos is inside one of the nodes.
func within(nodes []ast.Node, pos token.Pos) bool {
	for _, n := range nodes {
		if inside(n, pos) {
			return true
		}
	}
	return false
}

// reportable applies the min-product option.
func reportable(n *summary.RetryNest, minProduct int) bool {
	switch {
	case minProduct <= 0 || n.Product == -1:
		return true
	case n.Product == 0:
		return false
	}
	return n.Product > minProduct
}

// nested renders a nest: the outer layers, the chain inside, the product.
func nested(n *summary.RetryNest) analysis.Diagnostic {
	var outer []string
	for i := len(n.Outer) - 1; i >= 0; i-- {
		l := n.Outer[i]
		what := l.What
		if l.Func != n.Func {
			what += " in " + l.Func
		}
		outer = append(outer, fmt.Sprintf("%s (%s)", what, attempts(l.Attempts)))
	}
	var inner []string
	for i, l := range n.Inner {
		s := ""
		if l.Func == n.Func || l.Client {
			// A layer of this function, or a client's own: named by
			// itself.
			inner = append(inner, fmt.Sprintf("%s (%s)", l.What, attempts(l.Attempts)))
			continue
		}
		if i == 0 || l.Func != n.Inner[i-1].Func {
			s = l.Func + ", which retries "
		} else {
			s = "and again "
		}
		s += times(l.Attempts)
		if l.What != "retry loop" {
			s += " with " + l.What
		}
		if !n.InnerPos[i].IsValid() {
			s += " (" + analysisutil.LineOf(l.At) + ")"
		}
		inner = append(inner, s)
	}
	d := analysis.Diagnostic{
		Pos:      n.Pos,
		Category: categoryNested,
		Message:  fmt.Sprintf("%s wraps %s: %s; %s", strings.Join(outer, " inside "), strings.Join(inner, " around "), product(n.Product), advice(n)),
	}
	for i, l := range n.Outer {
		if p := n.OuterPos[i]; p.IsValid() && p != n.Pos {
			d.Related = append(d.Related, analysis.RelatedInformation{Pos: p, Message: fmt.Sprintf("outer layer: %s (%s)", l.What, attempts(l.Attempts))})
		}
	}
	for i, l := range n.Inner {
		if p := n.InnerPos[i]; p.IsValid() && p != n.Pos {
			d.Related = append(d.Related, analysis.RelatedInformation{Pos: p, Message: fmt.Sprintf("inner layer in %s: %s (%s)", l.Func, l.What, attempts(l.Attempts))})
		}
	}
	return d
}

// advice says which layer to keep: where every inner layer is a client's
// own (a retrying HTTP client, go-redis, the AWS SDK), the client already
// retries.
func advice(n *summary.RetryNest) string {
	for _, l := range n.Inner {
		if !l.Client {
			return "keep retries at one layer"
		}
	}
	return "the client already retries: make this layer a single attempt, or turn the client's retries off"
}

func attempts(n int) string {
	switch n {
	case -1:
		return "unbounded"
	case 0:
		return "attempts set at run time"
	}
	return fmt.Sprintf("%d attempts", n)
}

func times(n int) string {
	switch n {
	case -1:
		return "without bound"
	case 0:
		return "a number of times set at run time"
	}
	return fmt.Sprintf("%d×", n)
}

func product(n int) string {
	switch n {
	case -1:
		return "attempts without bound per call"
	case 0:
		return "attempts multiply"
	}
	return fmt.Sprintf("up to %d attempts per call", n)
}
