package resilmap

import "strconv"

// level rates how well a path protects its call. It colours the path's
// edge and row; the page's legend says what each colour means.
type level int

const (
	levelGreen level = iota // bounded, and not run twice unless that is safe
	levelAmber              // runs more than once though not idempotent, or its bound is unknown
	levelRed                // nothing bounds it, or resilvet reports a finding on the path
)

func (l level) String() string {
	switch l {
	case levelRed:
		return "red"
	case levelAmber:
		return "amber"
	default:
		return "green"
	}
}

// pathLevel rates p. A deadline the engine could not find is amber, not
// green: green says the engine saw the call bounded, not that it saw
// nothing wrong.
func pathLevel(p *Path) level {
	if p.Deadline.Source == DeadlineNone || len(p.Findings) > 0 {
		return levelRed
	}
	notIdempotent := p.Idempotent != nil && !*p.Idempotent
	if notIdempotent && (p.Hedge != nil || retriesMoreThanOnce(p.Retry)) {
		return levelAmber
	}
	if p.Deadline.Source == DeadlineUnknown {
		return levelAmber
	}
	return levelGreen
}

// retriesMoreThanOnce reports whether the layers of r may make more than
// one attempt. An unknown product with layers counts: a retry layer is
// there to try again.
func retriesMoreThanOnce(r *Retry) bool {
	if r == nil {
		return false
	}
	if n, err := strconv.Atoi(r.Product); err == nil {
		return n > 1
	}
	if r.Product == AttemptsUnbounded {
		return true
	}
	return len(r.Layers) > 0
}
