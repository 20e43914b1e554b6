package ctxdrop

import (
	"fmt"
	"go/ast"
	"go/types"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/resilvet/resilvet/internal/analysisutil"
	"github.com/resilvet/resilvet/internal/ctxverdict"
	"github.com/resilvet/resilvet/internal/report"
	"github.com/resilvet/resilvet/internal/summary"
)

const name = "ctxdrop"

// Config holds ctxdrop's options. The zero value is the default.
type Config struct {
	// IncludeTests reports findings in _test.go files too.
	IncludeTests bool
}

// Analyzer reports request contexts dropped on the way to outbound work,
// with the default configuration.
var Analyzer = New(summary.Analyzer, func() Config { return Config{} })

// New returns a ctxdrop analyzer that reads the summaries of sum (a
// summary analyzer) and whose configuration is config(), read when each
// package's run starts. Drivers build their analyzers through
// analyzers.Suite, which fills both from one options struct. The rules
// are decided by the verdict analyzer of sum (ctxverdict.For), which
// notimeout shares; ctxdrop words, places and fixes the findings.
func New(sum *analysis.Analyzer, config func() Config) *analysis.Analyzer {
	verdicts := ctxverdict.For(sum)
	return &analysis.Analyzer{
		Name:     name,
		Doc:      doc.Render(),
		URL:      analysisutil.URL(name),
		Requires: []*analysis.Analyzer{verdicts, sum},
		Run:      func(pass *analysis.Pass) (any, error) { return run(pass, verdicts, sum, config()) },
	}
}

// Categories of findings, one per rule.
const (
	categoryRoot = "rootctx"  // rule 1
	categoryTwin = "twin"     // rule 2
	categoryDrop = "dropsctx" // rule 3
	maxRelated   = 4
)

type checker struct {
	pass     *analysis.Pass
	sum      *summary.Result
	verdicts *ctxverdict.Result
	rep      *report.Reporter
	fixes    *fixer
}

func run(pass *analysis.Pass, verdicts, summaries *analysis.Analyzer, cfg Config) (any, error) {
	// Fast path, as the verdicts': a function can only have a context in
	// scope if its package names context.Context or *http.Request.
	if !analysisutil.Imports(pass, "context", "net/http") {
		return nil, nil
	}
	c := &checker{
		pass:     pass,
		sum:      pass.ResultOf[summaries].(*summary.Result),
		verdicts: pass.ResultOf[verdicts].(*ctxverdict.Result),
		rep:      report.New(pass, name, cfg.IncludeTests, "contextcheck"),
		fixes:    newFixer(pass),
	}
	for _, v := range c.verdicts.Calls() {
		switch v := v.(type) {
		case *ctxverdict.Root:
			c.reportRoot(v)
		case *ctxverdict.Twin:
			c.reportTwin(v)
		}
	}
	c.reportDrops(c.verdicts.Drops())
	return nil, nil
}

// reportRoot reports a verdict of rule 1.
func (c *checker) reportRoot(v *ctxverdict.Root) {
	rootCall, u, sc := v.Call, v.Use, v.Scope
	// A directive on the line the root flows to (ctx := context.Background()
	// … use(ctx) //nolint:contextcheck) marks that detachment as the
	// author's choice.
	var sinks []summary.Sink
	for _, s := range v.Sinks {
		if !c.rep.Marked(s.Pos) {
			sinks = append(sinks, s)
		}
	}
	if len(sinks) == 0 {
		return
	}
	root := shortRoot(u.Root)
	var msg string
	switch s := sinks[0]; {
	case u.Maker != "":
		// A helper's fresh root (ctx, cancel := httpx.Detached(d)): the
		// fix is in what the helper is given, not a one-token swap.
		target := "its work"
		if s.Kind == summary.SinkCall && s.Callee != nil {
			target = analysisutil.FuncName(s.Callee)
		}
		msg = fmt.Sprintf("%s makes a fresh context from %s, used for %s while %s is available, so the call ignores the caller's deadline and cancellation; derive the context from %s instead", u.Maker, root, target, sc.Expr, sc.Expr)
	case s.Kind == summary.SinkCall:
		target := "a call"
		if s.Callee != nil {
			target = analysisutil.FuncName(s.Callee)
		}
		msg = fmt.Sprintf("%s passed to %s while %s is available, so the call ignores the caller's deadline and cancellation; pass %s instead", root, target, sc.Expr, sc.Expr)
	case s.Kind == summary.SinkGo:
		msg = fmt.Sprintf("%s passed to a goroutine while %s is available, so its work ignores the caller's deadline and cancellation; pass %s, or context.WithoutCancel(%s) if it must outlive the request", root, sc.Expr, sc.Expr, sc.Expr)
	default:
		msg = fmt.Sprintf("%s stored while %s is available, so work using it later ignores the caller's deadline and cancellation; store %s instead", root, sc.Expr, sc.Expr)
	}
	var related []analysis.RelatedInformation
	for i, s := range sinks {
		if i == maxRelated {
			break
		}
		ri := analysis.RelatedInformation{Pos: s.Pos, Message: "the root context flows here"}
		if call := c.verdicts.CallAt(s.Pos); call != nil {
			ri.Pos, ri.End = call.Pos(), call.End()
		}
		related = append(related, ri)
	}
	d := analysis.Diagnostic{
		Pos:      rootCall.Pos(),
		End:      rootCall.End(),
		Category: categoryRoot,
		Message:  msg,
		Related:  related,
	}
	if fix, ok := c.fixes.replaceRoot(rootCall, sc, root); ok && u.Maker == "" {
		d.SuggestedFixes = []analysis.SuggestedFix{fix}
	}
	c.rep.Report(d)
}

// reportTwin reports a verdict of rule 2.
func (c *checker) reportTwin(v *ctxverdict.Twin) {
	call, sc := v.Call, v.Scope
	d := analysis.Diagnostic{
		Pos:      call.Fun.Pos(),
		End:      call.End(),
		Category: categoryTwin,
		Message: fmt.Sprintf("%s ignores the caller's context while %s is available, so its work outlives the caller's deadline and cancellation; use %s with %s",
			analysisutil.FuncName(v.Callee), sc.Expr, v.Twin.Display, sc.Expr),
	}
	if fix, ok := c.fixes.callTwin(call, v.Twin, sc); ok {
		d.SuggestedFixes = []analysis.SuggestedFix{fix}
	}
	c.rep.Report(d)
}

// reportDrops reports rule 3 once per callee: the fix is in the callee
// (a context parameter), not at each of its call sites, so the first call
// that is not silenced carries the finding and the others are counted in
// the message and listed as related positions. A storage layer without
// contexts called from a hundred handlers is one finding per storage
// method, not per handler.
func (c *checker) reportDrops(drops []*ctxverdict.Drop) {
	byCallee := map[*types.Func][]*ctxverdict.Drop{}
	var order []*types.Func
	for _, d := range drops {
		if c.rep.Silenced(d.Call.Pos()) {
			continue
		}
		if byCallee[d.Callee] == nil {
			order = append(order, d.Callee)
		}
		byCallee[d.Callee] = append(byCallee[d.Callee], d)
	}
	for _, callee := range order {
		ds := byCallee[callee]
		first := ds[0]
		var more []*ast.CallExpr
		for _, d := range ds[1:] {
			more = append(more, d.Call)
		}
		c.reportDrop(first.Call, callee, first.Drop, first.Scope, more)
	}
}

// reportDrop reports a verdict of rule 3, with the other calls of its
// callee in the package.
func (c *checker) reportDrop(call *ast.CallExpr, callee *types.Func, drop *summary.Drop, sc *ctxverdict.Scope, more []*ast.CallExpr) {
	fname := analysisutil.FuncName(callee)
	own := analysisutil.ModulePath(c.pass)
	if drop.Module != "" && own != "" && drop.Module != own {
		// The root context is made inside a dependency: adding a
		// parameter to the user's own helper would not reach it. Report
		// only when a call on the way has a context-taking alternative,
		// and name it.
		// The user can change their own call and the calls made in their
		// own module on the way, not the dependency's.
		chain := append([]summary.Link{{Func: fname, Alt: c.sum.ContextAlternative(callee), Module: own}}, drop.Chain...)
		for _, l := range chain {
			if l.Alt == "" || l.Module != own {
				continue
			}
			c.rep.Report(analysis.Diagnostic{
				Pos:      call.Fun.Pos(),
				End:      call.End(),
				Category: categoryDrop,
				Message: fmt.Sprintf("call to %s drops the caller's context: %s makes its own %s in %s (%s); call %s with %s instead",
					fname, l.Func, shortRoot(drop.Root), drop.Module, drop.At, l.Alt, sc.Expr),
				Related: []analysis.RelatedInformation{{Pos: callee.Pos(), Message: fname + " takes no context"}},
			})
			return
		}
		return
	}
	where := drop.At
	if len(drop.Chain) > 0 {
		var via []string
		for _, l := range drop.Chain {
			via = append(via, l.Func)
		}
		where += " via " + strings.Join(via, " -> ")
	}
	related := []analysis.RelatedInformation{{Pos: callee.Pos(), Message: fname + " takes no context"}}
	for i, p := range c.sum.DropPositions(callee) {
		if i == maxRelated {
			break
		}
		related = append(related, analysis.RelatedInformation{Pos: p, Message: "on the way to the root context"})
	}
	msg := fmt.Sprintf("call to %s drops the caller's context: it makes its own %s for context-taking work (%s); add a context.Context parameter to %s and pass %s",
		fname, shortRoot(drop.Root), where, fname, sc.Expr)
	if drop.Via != "" {
		msg = fmt.Sprintf("call to %s drops the caller's context: it calls %s, which takes none (%s); add a context.Context parameter to %s and call %s with it",
			fname, drop.Via, where, fname, drop.Twin)
	}
	if len(more) > 0 {
		if len(more) == 1 {
			msg += " (1 more call in this package)"
		} else {
			msg += fmt.Sprintf(" (%d more calls in this package)", len(more))
		}
		for i, m := range more {
			if i == maxRelated {
				break
			}
			related = append(related, analysis.RelatedInformation{Pos: m.Fun.Pos(), End: m.End(), Message: "another call to " + fname})
		}
	}
	c.rep.Report(analysis.Diagnostic{
		Pos:      call.Fun.Pos(),
		End:      call.End(),
		Category: categoryDrop,
		Message:  msg,
		Related:  related,
	})
}

// shortRoot turns "context.Background" into "context.Background()".
func shortRoot(full string) string { return full + "()" }
