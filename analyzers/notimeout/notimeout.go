package notimeout

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"strings"
	"time"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/passes/inspect"
	"golang.org/x/tools/go/ast/inspector"

	"github.com/resilvet/resilvet/internal/analysisutil"
	"github.com/resilvet/resilvet/internal/ctxverdict"
	"github.com/resilvet/resilvet/internal/knowledge"
	"github.com/resilvet/resilvet/internal/oneshot"
	"github.com/resilvet/resilvet/internal/report"
	"github.com/resilvet/resilvet/internal/summary"
)

const name = "notimeout"

// Config holds notimeout's options. The zero value is the default.
type Config struct {
	// IncludeTests reports findings in _test.go files too.
	IncludeTests bool
	// Edge reports HTTP handlers whose r.Context() reaches an outbound
	// call unbounded: without middleware that sets a deadline, the
	// request's context has none.
	Edge bool
	// Main reports in package main even when it starts no server (a
	// one-shot tool, which a user can interrupt), and start-up work: a
	// call made once by main, init or a function named for start-up
	// (NewAPI, Open, Init, Setup, Configure) with a context of its own.
	Main bool
	// ClientTimeout is the duration the suggested fixes write; 0 means
	// DefaultClientTimeout. It must be a whole number of milliseconds.
	ClientTimeout time.Duration
}

// DefaultClientTimeout is the duration the suggested fixes write unless
// Config.ClientTimeout says otherwise.
const DefaultClientTimeout = 10 * time.Second

// Analyzer reports outbound calls that nothing bounds in time, with the
// default configuration.
var Analyzer = New(summary.Analyzer, func() Config { return Config{} })

// New returns a notimeout analyzer that reads the summaries of sum (a
// summary analyzer) and whose configuration is config(), read when each
// package's run starts. Drivers build their analyzers through
// analyzers.Suite, which fills both from one options struct.
//
// notimeout leaves to ctxdrop the root contexts and twin calls that
// ctxdrop's rules judge dropped (the verdict analyzer of sum,
// ctxverdict.For, which ctxdrop shares): there the fix is to pass the
// context in scope.
func New(sum *analysis.Analyzer, config func() Config) *analysis.Analyzer {
	verdicts := ctxverdict.For(sum)
	return &analysis.Analyzer{
		Name:     name,
		Doc:      doc.Render(),
		URL:      analysisutil.URL(name),
		Requires: []*analysis.Analyzer{inspect.Analyzer, verdicts, sum},
		Run:      func(pass *analysis.Pass) (any, error) { return run(pass, verdicts, sum, config()) },
	}
}

func run(pass *analysis.Pass, verdicts, summaries *analysis.Analyzer, cfg Config) (any, error) {
	sum := pass.ResultOf[summaries].(*summary.Result)
	if len(sum.Findings()) == 0 && (!cfg.Edge || len(sum.Handlers()) == 0) {
		return nil, nil
	}
	if cfg.ClientTimeout <= 0 {
		cfg.ClientTimeout = DefaultClientTimeout
	}
	ins := pass.ResultOf[inspect.Analyzer].(*inspector.Inspector)
	if !cfg.Main && oneshot.Tool(pass, ins) {
		// A hang in a tool the user started, and can interrupt, is no
		// outage.
		return nil, nil
	}
	includeTests := cfg.IncludeTests
	if !includeTests && report.TestSupportPath(pass.Pkg.Path()) {
		return nil, nil
	}
	c := &checker{
		pass:     pass,
		sum:      sum,
		verdicts: pass.ResultOf[verdicts].(*ctxverdict.Result),
		cfg:      cfg,
		rep:      report.New(pass, name, includeTests),
		calls:    map[token.Pos]inspector.Cursor{},
		lits:     map[token.Pos]inspector.Cursor{},
	}
	for cur := range ins.Root().Preorder((*ast.CallExpr)(nil), (*ast.CompositeLit)(nil)) {
		switch n := cur.Node().(type) {
		case *ast.CallExpr:
			c.calls[n.Lparen] = cur
		case *ast.CompositeLit:
			c.lits[n.Lbrace] = cur
		}
	}
	c.fixes = newFixer(pass, cfg.ClientTimeout)
	for _, f := range sum.Findings() {
		c.check(f)
	}
	if cfg.Edge {
		for _, h := range sum.Handlers() {
			c.checkHandler(h)
		}
	}
	c.flush()
	return nil, nil
}

type checker struct {
	pass  *analysis.Pass
	sum   *summary.Result
	cfg   Config
	rep   *report.Reporter
	fixes *fixer
	calls map[token.Pos]inspector.Cursor // by Lparen
	lits  map[token.Pos]inspector.Cursor // by Lbrace
	// pending holds the diagnostics in the order they were made; byPos
	// finds the one already made at a position (several outbound calls
	// reached from one root context make one finding).
	pending []*analysis.Diagnostic
	byPos   map[token.Pos]*analysis.Diagnostic
	// verdicts are ctxdrop's rules, decided on first use: notimeout
	// stays silent on exactly the calls they hand off to ctxdrop.
	verdicts *ctxverdict.Result
}

// check reports one finding of the engine.
func (c *checker) check(f *summary.Finding) {
	callCur, ok := c.calls[f.Pos]
	if !ok || f.StartUp && !c.cfg.Main {
		// Start-up work: a hang fails the start, with no caller's
		// deadline to carry.
		return
	}
	call := callCur.Node().(*ast.CallExpr)
	var ctxs, clients []summary.Origin
	wrapper := false
	for _, o := range f.Origins {
		switch o.Of {
		case "ctx", "request", "call":
			if c.verdicts.HandedOff(o.Pos) {
				// ctxdrop reports this root: a context is in scope
				// where it is made, and the fix is to use it.
				return
			}
			if o.Enclosing != nil && wrapsTwin(o.Enclosing) {
				wrapper = true
				if _, ok := knowledge.OutboundOf(o.Enclosing.FullName()); ok {
					// The wrapper is itself an outbound call of the table
					// (http.Get's own body): its callers are reported.
					return
				}
			}
			ctxs = append(ctxs, o)
		default:
			clients = append(clients, o)
		}
	}
	if wrapper && len(clients) == 0 && f.Kind != "http" {
		// db.Query calling db.QueryContext(context.Background()): the
		// convenience wrapper of a context-taking twin is documented to
		// use no deadline, and only a context could bound the call: the
		// callers choose by calling the twin. Over HTTP the wrapper's
		// client could bound it with a Timeout, and when it has none,
		// nothing bounds the wrapper's callers that have no context:
		// reported.
		return
	}
	d := &analysis.Diagnostic{Pos: call.Pos(), End: call.End(), Category: f.Kind}
	via := ""
	if len(f.Chain) > 0 {
		via = " (via " + chainText(f) + ")"
	}
	switch {
	case f.Bound == knowledge.Never && f.Kind == "http":
		d.Message = fmt.Sprintf("%s uses http.DefaultClient, which has no timeout; use a client with Timeout or a request context with a deadline", f.Callee)
		c.fixes.useClient(d, call, c.sum.BoundedClients())
	case f.Bound == knowledge.Never && f.Kind == "tls":
		d.Message = fmt.Sprintf("%s has no timeout, so an unreachable peer holds the caller for minutes; use tls.DialWithDialer with a net.Dialer that has Timeout", f.Callee)
	case f.Bound == knowledge.Never && (f.Outbound == "smtp.Dial" || f.Outbound == "smtp.SendMail"):
		d.Message = fmt.Sprintf("%s%s dials with no timeout and sets no deadline on the conversation, so an unreachable or stalled mail server holds the caller for minutes; dial with a net.Dialer that has Timeout, set a deadline on the conn and use smtp.NewClient", f.Callee, via)
	case f.Bound == knowledge.Never:
		d.Message = fmt.Sprintf("%s has no dial timeout, so an unreachable peer holds the caller for minutes; use net.DialTimeout or a net.Dialer with Timeout", f.Callee)
	case f.Bound == knowledge.ByTwinContext:
		method := f.Callee[strings.LastIndex(f.Callee, ".")+1:]
		d.Message = fmt.Sprintf("%s runs with context.Background() and no deadline, so a slow database holds the caller forever; use %sContext with a context that has a deadline", f.Callee, method)
	case f.Bound == knowledge.ByClient:
		d.Message = fmt.Sprintf("%s has no timeout: it sends its request without a context and %s has no Timeout, so a slow server holds the caller forever; set Timeout on the client", f.Callee, describe(clients))
		if lit, ok := c.literal(clients); ok {
			c.fixes.addTimeout(d, lit)
		}
	case len(clients) > 0 && len(ctxs) > 0:
		d.Message = fmt.Sprintf("%s has no deadline: the request's context (%s) has none and the client (%s) has no Timeout%s, so a slow server holds the caller forever; set Timeout on the client or give the request a context with a deadline", f.Callee, describe(ctxs), describe(clients), via)
		if lit, ok := c.literal(clients); ok {
			c.fixes.addTimeout(d, lit)
		}
	case len(clients) > 0:
		d.Message = fmt.Sprintf("%s has no timeout: %s is unbounded%s, so a slow peer holds the caller forever; set Timeout on it", f.Callee, describe(clients), via)
		if lit, ok := c.literal(clients); ok {
			c.fixes.addTimeout(d, lit)
		}
	case len(ctxs) == 1 && ctxs[0].Pos.IsValid() && ctxs[0].Of != "call":
		// Report where the unbounded context is made.
		o := ctxs[0]
		rootCur, ok := c.calls[o.Pos]
		if !ok {
			return
		}
		root := rootCur.Node().(*ast.CallExpr)
		d.Pos, d.End = root.Pos(), root.End()
		d.Message = fmt.Sprintf("%s reaches %s%s with no deadline, so the call can wait forever on a slow dependency; bound it with context.WithTimeout or deadline.Ensure", o.What, f.Outbound, via)
		hop := "reaches " + f.Outbound + " here"
		if len(f.Chain) > 0 {
			hop = "reaches " + f.Outbound + " through " + f.Callee + " here"
		}
		d.Related = append(d.Related, analysis.RelatedInformation{Pos: call.Pos(), End: call.End(), Message: hop})
		if prev := c.byPos[d.Pos]; prev != nil {
			if len(prev.Related) < 4 {
				prev.Related = append(prev.Related, d.Related...)
			}
			return
		}
		c.fixes.ensure(d, rootCur)
	default:
		d.Message = fmt.Sprintf("%s gets a context with no deadline (%s)%s, so the call can wait forever on a slow dependency; bound it with context.WithTimeout or deadline.Ensure", f.Callee, describe(ctxs), via)
	}
	for _, o := range f.Origins {
		if o.Pos.IsValid() && (o.Pos < d.Pos || o.Pos >= d.End) {
			d.Related = append(d.Related, analysis.RelatedInformation{Pos: o.Pos, Message: o.What + " is made here"})
		}
	}
	c.add(d)
}

// checkHandler reports, in edge mode, an HTTP handler whose request
// context reaches an outbound call unbounded.
func (c *checker) checkHandler(h summary.HandlerReach) {
	d := &analysis.Diagnostic{
		Pos:      h.Pos,
		Category: "edge",
		Message: fmt.Sprintf("handler %s passes r.Context(), which has no deadline unless middleware sets one, to %s (via %s); set a deadline at the edge with context.WithTimeout or http.TimeoutHandler",
			h.Name, h.Reach.Call, linksText(h.Reach.Chain)),
	}
	c.add(d)
}

func (c *checker) add(d *analysis.Diagnostic) {
	if c.byPos == nil {
		c.byPos = map[token.Pos]*analysis.Diagnostic{}
	}
	if c.byPos[d.Pos] != nil {
		return
	}
	c.byPos[d.Pos] = d
	c.pending = append(c.pending, d)
}

func (c *checker) flush() {
	for _, d := range c.pending {
		c.rep.Report(*d)
	}
}

// literal returns the composite literal that makes a client or dialer
// without a timeout, when it is in this package.
func (c *checker) literal(origins []summary.Origin) (inspector.Cursor, bool) {
	for _, o := range origins {
		if cur, ok := c.lits[o.Pos]; ok {
			return cur, true
		}
	}
	return inspector.Cursor{}, false
}

// describe names the origins of unbounded values: what and where.
func describe(os []summary.Origin) string {
	var parts []string
	for _, o := range os {
		if o.At != "" && o.At != "?" && o.Of != "call" {
			parts = append(parts, o.What+" at "+o.At)
		} else {
			parts = append(parts, o.What)
		}
	}
	return strings.Join(parts, ", ")
}

func chainText(f *summary.Finding) string {
	return f.Callee + " -> " + linksText(f.Chain)
}

func linksText(links []summary.Link) string {
	var names []string
	for _, l := range links {
		names = append(names, l.Func)
	}
	return strings.Join(names, " -> ")
}

// wrapsTwin reports whether fn is a function without a context that has
// a context-taking alternative beside it (Load and LoadContext).
func wrapsTwin(fn *types.Func) bool {
	if _, ok := knowledge.TwinOf(fn.FullName()); ok {
		return true
	}
	return summary.ContextAlternative(fn) != ""
}
