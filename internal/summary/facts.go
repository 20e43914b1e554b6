package summary

import (
	"fmt"
	"strings"
)

// FuncSummary is the fact exported on a package-level function or method
// that has something to say. It is designed for all four analyzers; each
// part names the analyzer that reads it. Parts not computed yet are
// documented as such and stay zero, which every reader treats as "no
// claim".
//
// Facts travel between packages through gob in go vet and in editors, so
// every field is exported, plain data, deterministic (sorted, capped) and
// free of token.Pos (positions are meaningless outside their file set):
// evidence is "file.go:line:col" text.
type FuncSummary struct {
	// DropsCtx is set when the function takes no context but creates a
	// root context (context.Background or TODO) that reaches
	// context-taking or outbound work synchronously, directly or through
	// the callees in the chain. Read by ctxdrop (rule 3).
	DropsCtx *Drop

	// IgnoresCtx is set when the function takes a context and never uses
	// it (or only logs with it): passing it a root context drops
	// nothing. Read by ctxdrop.
	IgnoresCtx bool

	// Outbound lists the kinds of outbound I/O (knowledge.OutboundKind
	// names: "http", "sql", …) the function performs directly, sorted.
	// Read by notimeout; computed now because ctxdrop needs "outbound
	// work" too.
	Outbound []string

	// UnboundedCtxParam is reserved for notimeout: the index+1 of a
	// context parameter that reaches outbound I/O with no deadline added
	// on the way (0 = no claim). Not computed yet.
	UnboundedCtxParam int

	// Retry is reserved for retrystack: the function is a retry layer
	// with this many attempts, and the largest product of nested layers
	// reachable through it. Not computed yet.
	Retry *Retry

	// Effects is reserved for hedgeidem: non-idempotent effects the
	// function performs or reaches, with evidence. Not computed yet.
	Effects []Effect
}

// Drop is the evidence that a function drops its caller's context.
type Drop struct {
	// Root is the root-context constructor, "context.Background" or
	// "context.TODO".
	Root string
	// At is where the root context is created.
	At string
	// Chain lists the callees from the summarised function to the one
	// that creates the root context, in call order (empty when the
	// function creates it itself). Capped at maxChain links.
	Chain []Link
}

// Link is one hop of a call chain.
type Link struct {
	Func string // source-form name, "lib.Client.load"
	At   string // where the call to Func is
}

// Retry describes a retry layer (reserved for retrystack).
type Retry struct {
	Attempts int    // attempts of this layer; 0 = unbounded or unknown
	Product  int    // largest product of nested layers through this function
	Chain    []Link // the layers, outermost first
}

// Effect is a non-idempotent effect (reserved for hedgeidem).
type Effect struct {
	What string
	At   string
}

const maxChain = 6

func (*FuncSummary) AFact() {}

// String renders the fact for analysistest `// want fn:"…"` expectations
// and for debugging; it is stable and compact.
func (s *FuncSummary) String() string {
	var parts []string
	if d := s.DropsCtx; d != nil {
		var via []string
		for _, l := range d.Chain {
			via = append(via, l.Func)
		}
		if len(via) > 0 {
			parts = append(parts, fmt.Sprintf("dropsCtx(%s via %s)", d.Root, strings.Join(via, " -> ")))
		} else {
			parts = append(parts, fmt.Sprintf("dropsCtx(%s)", d.Root))
		}
	}
	if s.IgnoresCtx {
		parts = append(parts, "ignoresCtx")
	}
	if len(s.Outbound) > 0 {
		parts = append(parts, "outbound("+strings.Join(s.Outbound, ",")+")")
	}
	if s.UnboundedCtxParam > 0 {
		parts = append(parts, fmt.Sprintf("unboundedCtx(%d)", s.UnboundedCtxParam-1))
	}
	if s.Retry != nil {
		parts = append(parts, fmt.Sprintf("retry(%d,%d)", s.Retry.Attempts, s.Retry.Product))
	}
	for _, e := range s.Effects {
		parts = append(parts, "effect("+e.What+")")
	}
	return strings.Join(parts, " ")
}

// empty reports whether the summary carries no claim, so that no fact is
// exported for it (fact size is build-artifact size in go vet).
func (s *FuncSummary) empty() bool {
	return s.DropsCtx == nil && !s.IgnoresCtx && len(s.Outbound) == 0 && s.UnboundedCtxParam == 0 && s.Retry == nil && len(s.Effects) == 0
}
