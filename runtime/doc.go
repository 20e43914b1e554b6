// Package runtime is the root of resilvet's companion runtime: the
// breaker, retry budget, retry, hedge and deadline packages that
// resilvet's suggested fixes rewrite code to use.
//
// It is a module of its own, github.com/resilvet/resilvet/runtime, that
// depends on the standard library only, so a service adopting the fixes
// pulls in nothing else (in particular not golang.org/x/tools, which the
// analyzers need). The packages themselves are not written yet.
package runtime
