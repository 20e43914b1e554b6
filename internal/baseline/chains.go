package baseline

import (
	"regexp"
	"strings"
)

// blank stands for the names a message's chain phrases spell out.
const blank = "…"

// The phrases below name functions on a finding's chain: the helpers
// between the flagged code and what the finding is about. A rename of
// one of them, anywhere in the module, rewrites the message without
// touching the flagged code, so the identity leaves their names out.
// What the finding is about stays: the library call a chain reaches (its
// last link), the call or layer named outside a chain phrase, and the
// counts. A name is a Go-qualified identifier as the analyzers print it,
// with " (closure)" after a function literal's maker.
const chainName = `[\w.$]+(?: \(closure\))?`

var (
	// notimeout's value origins: "a client without Timeout (from
	// lib.NewBareClient)", "context.Background() (from lib.Background)".
	fromHelper = regexp.MustCompile(`\(from ` + chainName + `\)`)
	// retrystack's inner layers of other functions: "wraps
	// api.API.GetAccount, which retries 3× (…) around
	// store.Store.LoadAccount, which retries 3×".
	innerLayer = regexp.MustCompile(`\b(wraps|around) ` + chainName + `, which retries`)
	// retrystack's outer layers in another function: "retry loop in
	// retryutil.Do (2 attempts)".
	outerLayer = regexp.MustCompile(` in ` + chainName + ` (\((?:\d+ attempts|unbounded|attempts set at run time)\))`)
	// ctxdrop's drop made inside a dependency, at a helper of the module
	// on the way that has a context-taking alternative: the helper and
	// its alternative are chain names unless the helper is the callee.
	moduleDrop = regexp.MustCompile(`^call to (\S+) drops the caller's context: (\S+) makes its own (.+); call (\S+) with (.+) instead$`)
)

// blankChains returns msg with the names of the functions on its
// finding's chain replaced by blank.
func blankChains(msg string) string {
	msg = viaGroups(msg)
	msg = fromHelper.ReplaceAllString(msg, "(from "+blank+")")
	msg = innerLayer.ReplaceAllString(msg, "$1 "+blank+", which retries")
	msg = outerLayer.ReplaceAllString(msg, " in "+blank+" $1")
	if m := moduleDrop.FindStringSubmatch(msg); m != nil && m[2] != m[1] {
		msg = "call to " + m[1] + " drops the caller's context: " + blank + " makes its own " + m[3] + "; call " + blank + " with " + m[5] + " instead"
	}
	return msg
}

// viaGroups rewrites the parenthesised "via" chains of msg:
//
//   - notimeout's "(via A -> B -> sql.DB.ExecContext)", the helpers and
//     then the call reached, keeps the call reached: "(via … ->
//     sql.DB.ExecContext)"; a chain of the call alone stays as it is;
//   - ctxdrop's "(store.go:14:28 via lib.Load -> lib.inner)", the helpers
//     on the way to where the root context is made, keeps none: "(… via
//     …)".
//
// However many helpers a chain has, it becomes one blank: splitting or
// inlining a helper elsewhere is no more a change to the finding than
// renaming it.
func viaGroups(msg string) string {
	var b strings.Builder
	for {
		open := strings.IndexByte(msg, '(')
		if open < 0 {
			break
		}
		end := closing(msg, open)
		if end < 0 {
			break
		}
		b.WriteString(msg[:open+1])
		group := msg[open+1 : end]
		if links, ok := strings.CutPrefix(group, "via "); ok {
			if i := strings.LastIndex(links, " -> "); i >= 0 {
				group = "via " + blank + links[i:]
			}
		} else if before, _, ok := strings.Cut(group, " via "); ok {
			group = before + " via " + blank
		}
		b.WriteString(group)
		b.WriteByte(')')
		msg = msg[end+1:]
	}
	b.WriteString(msg)
	return b.String()
}

// closing returns the index of the parenthesis closing the one at open,
// or -1.
func closing(s string, open int) int {
	depth := 0
	for i := open; i < len(s); i++ {
		switch s[i] {
		case '(':
			depth++
		case ')':
			depth--
			if depth == 0 {
				return i
			}
		}
	}
	return -1
}
