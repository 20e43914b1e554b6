package summary

import (
	"go/token"
	"slices"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/resilvet/resilvet/internal/knowledge"
)

// An executor runs its policies outermost first (failsafe.With(retry,
// breaker)). A retry policy outside a circuit breaker, built to retry
// every failure (no HandleErrors, AbortOnErrors, AbortIf or the like),
// retries the breaker's open-circuit error, which rejects every attempt
// at once: the retry hammers a breaker that is there to shed this load.
// retrystack reports it (category open) at the executor's call, as it
// does a hand-written loop around a breaker.

// OpenPolicy is an executor call whose retry policy retries its circuit
// breaker's open-circuit error.
type OpenPolicy struct {
	// Pos is the executor's call; Retry and Breaker are where the two
	// policies are built.
	Pos, Retry, Breaker token.Pos
	// OpenError names the breaker's open error as code spells it
	// ("circuitbreaker.ErrOpen").
	OpenError string
}

// OpenPolicies lists the package's executor calls whose retry policy
// retries an open circuit, in source order.
func (r *Result) OpenPolicies() []*OpenPolicy { r.ready(); return r.openPolicies }

// openPolicy records the executor call c when a retry policy retrying
// every failure runs outside a circuit breaker.
func (e *engine) openPolicy(c *ssa.CallCommon) {
	made, from, ok := e.executorOf(argOf(c, -1))
	if !ok {
		return
	}
	var retryAt token.Pos
	for i := from; i < len(made.Call.Args); i++ {
		policies, ok := sliceElems(made.Call.Args[i], map[ssa.Value]bool{})
		if !ok {
			return
		}
		for _, p := range policies {
			built, ok := e.literalOf(stripIface(p)).(*ssa.Call)
			if !ok {
				continue
			}
			name := calleeName(built.Common())
			if built.Common().IsInvoke() {
				name = built.Common().Method.Origin().FullName()
			}
			if rp, ok := knowledge.RetryPolicyOf(name); ok && !classified(built, rp.Classifiers) && !retryAt.IsValid() {
				retryAt = built.Pos()
			}
			if open, ok := knowledge.BreakerPolicyOf(name); ok && retryAt.IsValid() {
				e.addOpenPolicy(&OpenPolicy{Pos: c.Pos(), Retry: retryAt, Breaker: built.Pos(), OpenError: shortName(open)})
				return
			}
		}
	}
}

func (e *engine) addOpenPolicy(p *OpenPolicy) {
	for _, q := range e.res.openPolicies {
		if q.Pos == p.Pos {
			return // the call is visited again in each round
		}
	}
	e.res.openPolicies = append(e.res.openPolicies, p)
}

// executorOf returns the call that made the executor v is, and the index
// of its first policy argument.
func (e *engine) executorOf(v ssa.Value) (*ssa.Call, int, bool) {
	for range 8 {
		made, ok := e.literalOf(stripIface(v)).(*ssa.Call)
		if !ok {
			return nil, 0, false
		}
		c := made.Common()
		if c.IsInvoke() {
			v = c.Value // WithContext and the listeners return the executor
			continue
		}
		from, ok := knowledge.ExecutorFrom(calleeName(c))
		return made, from, ok
	}
	return nil, 0, false
}

// classified reports whether a policy's builder calls one of the methods
// that choose which failures it handles, on its way back to the
// builder's constructor.
func classified(built *ssa.Call, classifiers []string) bool {
	if !built.Common().IsInvoke() {
		return false
	}
	b := built.Common().Value
	for range 16 {
		call, ok := stripIface(b).(*ssa.Call)
		if !ok || !call.Common().IsInvoke() {
			return false
		}
		if slices.Contains(classifiers, call.Common().Method.Name()) {
			return true
		}
		b = call.Common().Value
	}
	return false
}

// shortName turns a full name into what code spells: the package's last
// path element and the name ("circuitbreaker.ErrOpen").
func shortName(full string) string {
	if i := strings.LastIndexByte(full, '/'); i >= 0 {
		return full[i+1:]
	}
	return full
}
