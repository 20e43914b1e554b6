package hedgeidem

import (
	"fmt"
	"go/ast"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/resilvet/resilvet/internal/analysisutil"
	"github.com/resilvet/resilvet/internal/fixedit"
	"github.com/resilvet/resilvet/internal/report"
	"github.com/resilvet/resilvet/internal/summary"
)

const name = "hedgeidem"

// Retries modes: which retry layers are reported.
const (
	RetriesAll   = "all"
	RetriesBlind = "blind"
	RetriesOff   = "off"
)

// Config holds hedgeidem's options. The zero value is the default.
type Config struct {
	// IncludeTests reports findings in _test.go files too.
	IncludeTests bool
	// Retries says which retry layers around an effect are reported:
	// "all" (or ""), "blind" (only clients retrying every request
	// whatever its method) or "off".
	Retries string
	// KeyHeader is the idempotency key header the fix sets ("" for
	// Idempotency-Key).
	KeyHeader string
}

// Analyzer reports hedged and retried operations that are not
// idempotent, with the default configuration.
var Analyzer = New(summary.Analyzer, func() Config { return Config{} })

// New returns a hedgeidem analyzer that reads the summaries of sum (a
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
	categoryHedge     = "hedge"
	categoryRetry     = "retry"
	categoryDeclared  = "declared"
	categoryDirective = "directive"
)

func run(pass *analysis.Pass, summaries *analysis.Analyzer, cfg Config) (any, error) {
	if !cfg.IncludeTests && report.TestSupportPath(pass.Pkg.Path()) {
		return nil, nil
	}
	rep := report.New(pass, name, cfg.IncludeTests)
	unexplainedDirectives(pass, rep)
	sum := pass.ResultOf[summaries].(*summary.Result)
	dups := sum.Duplicates()
	if len(dups) == 0 {
		return nil, nil
	}
	calls := analysisutil.CallsByLparen(pass)
	ed := &fixedit.Editor{Pass: pass}
	for _, d := range dups {
		if !d.Hedge && (cfg.Retries == RetriesOff || cfg.Retries == RetriesBlind && !d.Blind) {
			continue
		}
		diag := diagnostic(pass, d)
		if call := calls[diag.Pos]; call != nil {
			diag.Pos, diag.End = call.Pos(), call.End()
		}
		if d.Request.IsValid() && d.Effect.Kind == "http" {
			if fix := keyFix(ed, d.Request, cfg.KeyHeader); fix != nil {
				diag.SuggestedFixes = []analysis.SuggestedFix{*fix}
			}
		}
		rep.Report(diag)
	}
	return nil, nil
}

// diagnostic renders a duplicate: the layer, what it runs, why that is
// not idempotent and where, what can happen, and the fix.
func diagnostic(pass *analysis.Pass, d *summary.Duplicate) analysis.Diagnostic {
	ef := d.Effect
	where := ""
	if n := len(ef.Chain); n > 0 {
		where = " (" + analysisutil.LineOf(ef.Chain[n-1].At) + ")"
	}
	op := "it"
	if len(ef.Chain) > 0 {
		op = ef.Chain[0].Func
	}
	var msg, category string
	switch {
	case d.Declared:
		category = categoryDeclared
		msg = fmt.Sprintf("hedge.Idempotent declares idempotent an operation that %s%s, so hedged copies may each take effect; %s, or do not hedge it", ef.Why, where, remedy(ef.Kind))
	case d.Hedge:
		category = categoryHedge
		msg = fmt.Sprintf("%s hedges %s, which %s%s, so every copy may take effect; %s", d.Layer, op, ef.Why, where, remedy(ef.Kind))
		if ef.Kind == "http" {
			msg += ", or send it through a client that does not hedge"
		}
	case d.Blind && strings.HasPrefix(d.Layer, op+" ("):
		// A retrying client's own send: the layer is the call.
		category = categoryRetry
		msg = fmt.Sprintf("%s retries the request it sends whatever its method, and it %s%s; an attempt that failed or timed out may already have taken effect; %s, or do not retry it", d.Layer, ef.Why, where, remedy(ef.Kind))
	default:
		category = categoryRetry
		msg = fmt.Sprintf("%s retries %s, which %s%s, and an attempt that failed or timed out may already have taken effect; %s, or do not retry it", d.Layer, op, ef.Why, where, remedy(ef.Kind))
	}
	diag := analysis.Diagnostic{Pos: d.Pos, Category: category, Message: msg}
	layer := "the retry layer"
	if d.Hedge {
		layer = "the hedge"
	}
	if d.LayerPos.IsValid() && d.LayerPos != d.Pos && !slices.Contains(d.EffectPos, d.LayerPos) {
		diag.Related = append(diag.Related, analysis.RelatedInformation{Pos: d.LayerPos, Message: layer})
	}
	for i, p := range d.EffectPos {
		if !p.IsValid() || p == d.Pos {
			continue
		}
		msg := "calls " + ef.Chain[i].Func
		if i == len(d.EffectPos)-1 {
			msg = "the effect: " + strings.TrimSpace(ef.What)
		}
		if p == d.LayerPos {
			msg = layer + ", around " + msg
		}
		diag.Related = append(diag.Related, analysis.RelatedInformation{Pos: p, Message: msg})
	}
	return diag
}

// remedy says how to make an effect of the kind idempotent.
func remedy(kind string) string {
	switch kind {
	case "http":
		return "set an idempotency key header on the request, made once per operation, before the first send"
	case "sql":
		return "make the statement an upsert on an operation id"
	case "publish":
		return "give the message an id its consumers deduplicate on"
	case "mail":
		return "record the send and skip it when it is done"
	case "grpc":
		return "send an idempotency key in the request (or list the method in -hedgeidem.idempotent-methods if the server deduplicates)"
	}
	return "make it idempotent"
}

// unexplainedDirectives reports //resilvet:idempotent directives that give
// no reason (a vouch a reviewer cannot check), at the function's name.
func unexplainedDirectives(pass *analysis.Pass, rep *report.Reporter) {
	for _, f := range pass.Files {
		for _, decl := range f.Decls {
			fd, ok := decl.(*ast.FuncDecl)
			if !ok || fd.Doc == nil {
				continue
			}
			for _, c := range fd.Doc.List {
				if c.Text == summary.IdempotentDirective || strings.TrimSpace(c.Text) == summary.IdempotentDirective {
					rep.Report(analysis.Diagnostic{
						Pos:      fd.Name.Pos(),
						End:      fd.Name.End(),
						Category: categoryDirective,
						Message:  "//resilvet:idempotent gives no reason, so reviewers cannot check why the function is safe to hedge and retry; say why after the directive",
					})
				}
			}
		}
	}
}
