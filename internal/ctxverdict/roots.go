package ctxverdict

import (
	"go/ast"
	"strings"

	"golang.org/x/tools/go/ast/inspector"

	"github.com/resilvet/resilvet/internal/analysisutil"
	"github.com/resilvet/resilvet/internal/knowledge"
	"github.com/resilvet/resilvet/internal/summary"
)

// rootVerdict decides rule 1 for a root-context creation: the context in
// scope and the sinks where the root drops it (none: no verdict).
func (j *judge) rootVerdict(cur inspector.Cursor, rootCall *ast.CallExpr, u *summary.RootUse) (*Scope, []summary.Sink) {
	owner, ok := enclosingFunc(cur)
	if !ok {
		return nil, nil
	}
	sc := j.ctxOf(owner)
	if sc == nil || j.isCleanup(cur, owner) || explainsDetachment(j.comments.Near(rootCall.Pos())) || j.explainedEarlier(owner, rootCall) || j.hijacked(sc, rootCall) {
		return nil, nil
	}
	if u.InGoroutine {
		// Made inside a goroutine nobody waits for: the context in scope
		// would be cancelled under it, so a fresh one is deliberate, and
		// what it lacks is a deadline of its own (notimeout's finding).
		return nil, nil
	}
	if u.Bounded && !j.servesRequest(owner, sc) {
		// context.WithTimeout(context.Background(), 5*time.Second) where
		// the context in scope is not a request's (start-up, a health
		// probe, a background loop): a deliberate detachment with its
		// own bound.
		return nil, nil
	}
	var sinks []summary.Sink
	for _, s := range u.Sinks {
		if s.Kind == summary.SinkDefer || j.sum.DropsNothing(s) || s.InDeferredClosure || s.BuildsContext || s.StoresCancel || s.Unsent {
			continue
		}
		if s.Kind == summary.SinkStore && s.Outlives {
			// Kept in the receiver or a package variable: it serves
			// something that outlives the call, and the context in scope
			// would be cancelled under it.
			continue
		}
		if (s.Kind == summary.SinkGo || s.InGoroutine) && !u.Joins {
			// A goroutine the function does not wait for outlives it: the
			// caller's context would be cancelled under it, so a fresh
			// one is deliberate, and what it lacks is a deadline of its
			// own, which is notimeout's finding.
			continue
		}
		sinks = append(sinks, s)
	}
	return sc, sinks
}

// explainsDetachment reports whether a comment on the root context's
// line or just above it gives the reason for a fresh context ("the
// checker is given a fresh background context because the Start context
// is cancelled when Start returns"): it speaks of the context, gives a
// reason, and does not call it a mistake. The finding would tell the
// author what they already know.
func explainsDetachment(text string) bool {
	// "should still wait" states the intent; a bare "should" (we should
	// pass ctx) calls the code wrong.
	text = strings.ReplaceAll(text, "should still", "still")
	if text == "" || containsAny(text, "mistake", "bug", "todo", "fixme", "wrong", "should") {
		return false
	}
	return containsAny(text, "context", "ctx", "detach") &&
		containsAny(text, "because", "since ", "so that", "so it", "must ", "needs to", "on purpose", "deliberately", "intentionally", "otherwise", "outlive",
			"therefore", "still wait", "even when", "even if", "regardless", "do not want", "don't want", "avoid", "so the ", "so a ", "so we ", "so they ")
}

// explainedEarlier reports whether the comment nearest above the root in
// its function that speaks of a background or fresh context, not of
// contexts in general, explains it ("use a background context so the
// declaration isn't abandoned if this caller disconnects"), however far
// above the call it is, as long as no other root context is made between
// the two: the comment is about this one.
func (j *judge) explainedEarlier(owner inspector.Cursor, rootCall *ast.CallExpr) bool {
	var file *ast.File
	for f := range owner.Enclosing((*ast.File)(nil)) {
		file = f.Node().(*ast.File)
	}
	if file == nil {
		return false
	}
	var nearest *ast.CommentGroup
	var text string
	for _, cg := range file.Comments {
		if cg.Pos() < owner.Node().Pos() || cg.End() > rootCall.Pos() {
			continue
		}
		t := strings.ToLower(strings.Join(strings.Fields(cg.Text()), " "))
		if containsAny(t, "background context", "context.background", "detached context", "fresh context", "new context") {
			nearest, text = cg, t
		}
	}
	if nearest == nil || !explainsDetachment(text) {
		return false
	}
	for call := range owner.Preorder((*ast.CallExpr)(nil)) {
		n := call.Node().(*ast.CallExpr)
		if n == rootCall || n.Pos() < nearest.End() || n.Pos() > rootCall.Pos() {
			continue
		}
		if fn := analysisutil.CalleeFunc(j.pass.TypesInfo, n); fn != nil && knowledge.IsRootContext(fn.FullName()) {
			return false
		}
	}
	return true
}

func containsAny(s string, words ...string) bool {
	for _, w := range words {
		if strings.Contains(s, w) {
			return true
		}
	}
	return false
}
