package summary

import (
	"fmt"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/resilvet/resilvet/internal/analysisutil"
)

// The resilience map's bounds (map mode): what bounds an outbound call
// where it is made, and each argument that carries a deadline to a
// callee (a context, a request, a client), as a MapBound the map driver
// resolves from each entry down.

// mapArgs returns the bounds of the arguments of a call given for the
// parameters of sig that carry a deadline.
func (e *engine) mapArgs(info *fnInfo, instr ssa.CallInstruction, sig *types.Signature) []MapArg {
	if sig == nil {
		return nil
	}
	c := instr.Common()
	var out []MapArg
	for i, p := range paramsOf(sig) {
		d, ok := deadlineDomain(p.Type())
		if !ok {
			continue
		}
		a := argOf(c, i)
		if a == nil {
			continue
		}
		arg := MapArg{Param: i, Bound: e.mapBound([]part{{d: d, v: e.evalAt(d, a, instr)}}, instr)}
		if d == domRequest {
			if idem := e.requestIdem(info, instr, a); idem.State != "" {
				arg.Idem = &idem
			}
			arg.Target = e.requestTarget(a)
		}
		out = append(out, arg)
	}
	if recv := sig.Recv(); recv != nil {
		if d, ok := deadlineDomain(recv.Type()); ok {
			if a := argOf(c, -1); a != nil {
				out = append(out, MapArg{Param: -1, Bound: e.mapBound([]part{{d: d, v: e.evalAt(d, a, instr)}}, instr)})
			}
		}
	}
	return out
}

// takesDuration reports whether sig has a time.Duration parameter.
func takesDuration(sig *types.Signature) bool {
	for _, p := range paramsOf(sig) {
		if analysisutil.IsDuration(p.Type()) {
			return true
		}
	}
	return false
}

// ctxArg returns the context a call is given, if any.
func ctxArg(c *ssa.CallCommon) ssa.Value {
	for _, a := range c.Args {
		if analysisutil.IsContext(a.Type()) {
			return a
		}
	}
	return nil
}

// paramsOf returns sig's parameters, receiver excluded.
func paramsOf(sig *types.Signature) []*types.Var {
	out := make([]*types.Var, sig.Params().Len())
	for i := range out {
		out[i] = sig.Params().At(i)
	}
	return out
}

// deadlineDomain returns the domain of a parameter type that carries a
// deadline: a context, a request (by its context), a client (by its
// Timeout).
func deadlineDomain(t types.Type) (domain, bool) {
	d, ok := domainOfType(t)
	return d, ok && d != domTransport
}

// mapBound decides what bounds a call from the values that could: the
// first bounded one; else unknown if one cannot be followed; else the
// caller's parameter; else the unbounded one.
func (e *engine) mapBound(parts []part, instr ssa.Instruction) MapBound {
	for _, p := range parts {
		if p.v.state() != stBounded {
			continue
		}
		b := MapBound{State: MapBounded, Of: p.d.String()}
		for _, s := range p.v {
			if s.kind == srcBounded && s.what != "" {
				b.What, b.At = s.what, e.fullPos(e.callStart(s.pos))
				break
			}
		}
		return b
	}
	var params []MapBound
	for _, p := range parts {
		switch p.v.state() {
		case stUnknown:
			return MapBound{State: MapUnknown, Of: p.d.String()}
		case stParam:
			s := p.v.params()[0]
			params = append(params, MapBound{State: MapParam, Of: p.d.String(), Owner: MapKey(s.fn), Param: sigIndex(s.fn, s.fn.Params[s.param])})
		}
	}
	switch len(params) {
	case 0:
	case 1:
		return params[0]
	default:
		// Two of the caller's values decide (a context and a client):
		// either bounds the call.
		b := params[0]
		b.Either = params[1:]
		return b
	}
	for _, p := range parts {
		if us := p.v.unbounded(); len(us) > 0 {
			of := p.d.String()
			if us[0].fn != nil && us[0].pos == instr.Pos() {
				of = "call"
			}
			return MapBound{State: MapUnbounded, Of: of, What: us[0].what, At: e.srcAtFull(us[0])}
		}
	}
	return MapBound{State: MapUnknown}
}

// srcAtFull is where an unbounded value is made, with its file's path.
func (e *engine) srcAtFull(s src) string {
	if s.at != "" {
		return s.at
	}
	return e.fullPos(e.callStart(s.pos))
}

// fullPos is a position as file:line:col with the file's full path,
// which the map driver makes relative to the module; "" when unknown.
func (e *engine) fullPos(pos token.Pos) string {
	if !pos.IsValid() {
		return ""
	}
	p := e.pass.Fset.Position(pos)
	return fmt.Sprintf("%s:%d:%d", p.Filename, p.Line, p.Column)
}
