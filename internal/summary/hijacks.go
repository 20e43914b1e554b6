package summary

import (
	"go/token"

	"github.com/resilvet/resilvet/internal/knowledge"
)

// Hijacked connections: the calls a function makes after it took the
// served request's connection over from the server (Hijack, a websocket
// upgrade; see knowledge.Hijacks). From there on the server no longer
// watches the connection, and the request's context ends when the
// handler returns, not when the client goes away: passing it to work
// changes nothing for a client that left. Read by ctxdrop, which leaves
// such calls to notimeout.

// hijackedCalls returns the opening parentheses of the calls that run
// only after a hijack in the same function: in a block the hijack's
// block dominates, or later in the same block.
func (e *engine) hijackedCalls() map[token.Pos]bool {
	var out map[token.Pos]bool
	for _, fn := range e.funcs {
		calls := e.local[fn].ix.calls
		for _, h := range calls {
			if !knowledge.Hijacks(calleeName(h.Common())) {
				continue
			}
			for _, c := range calls {
				if c != h && before(h, c) {
					if out == nil {
						out = map[token.Pos]bool{}
					}
					out[c.Common().Pos()] = true
				}
			}
		}
	}
	return out
}
