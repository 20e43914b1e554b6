// Package recursive has a recursive func type and nothing any claim is
// about: the summary builds no SSA for it, and deciding so terminates.
package recursive

// The import puts context in the import closure, so the summary gets as
// far as looking at the package's types.
import _ "context"

type lexer struct{ pos int }

type stateFn func(*lexer) stateFn

func lexStart(l *lexer) stateFn {
	l.pos++
	return nil
}

func Run(l *lexer) {
	for state := stateFn(lexStart); state != nil; {
		state = state(l)
	}
}
