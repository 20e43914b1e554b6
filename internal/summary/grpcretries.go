package summary

import (
	"encoding/json"
	"go/constant"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/resilvet/resilvet/internal/analysisutil"
	"github.com/resilvet/resilvet/internal/knowledge"
)

// gRPC connections dialled with retries, a part of the retry module. A
// connection's retries come from its dial options: a retryPolicy in the
// service config given to grpc.WithDefaultServiceConfig (per service and
// method), or a retry interceptor (go-grpc-middleware's, with WithMax).
// A call made on the connection, through ClientConn.Invoke or a
// generated client made from it, is a layer of that many attempts. The
// connection is followed from its dial through locals, fields and
// package variables the package alone writes, generated clients' New…
// functions, and functions of any package that return it (or a client
// made from it): their ReturnsConn claim, a fact.

// connRetryOf returns the retries of the connection a value is, or of
// the connection a generated client value was made from; nil when it
// has none or cannot be followed.
func (e *engine) connRetryOf(v ssa.Value) *ConnRetry {
	if fv := loadedVar(stripIface(v)); fv != nil && fv.Pkg() != e.pass.Pkg {
		return e.importedVar(fv).Conn
	}
	made, ok := e.literalOf(stripIface(v)).(*ssa.Call)
	if !ok {
		return nil
	}
	c := made.Common()
	if from, ok := knowledge.GRPCDialOf(calleeName(c)); ok {
		cr, seen := e.dials[made]
		if !seen {
			cr = e.dialRetry(made, from)
			e.dials[made] = cr
		}
		return cr
	}
	if len(c.Args) == 1 && isGRPCConn(c.Args[0].Type()) && !c.IsInvoke() {
		// orderspb.NewOrdersClient(conn)
		return e.connRetryOf(c.Args[0])
	}
	if f := calleeFunc(c); f != nil {
		if info := e.byObj[f.Origin()]; info != nil {
			return e.returnsConn(info)
		}
		if s := e.imported(f); s != nil {
			return s.ReturnsConn
		}
	}
	return nil
}

// dialRetry reads a dial's options (from the argument at index from on).
func (e *engine) dialRetry(dial *ssa.Call, from int) *ConnRetry {
	var cr ConnRetry
	for i := from; i < len(dial.Call.Args); i++ {
		opts, ok := sliceElems(dial.Call.Args[i], map[ssa.Value]bool{})
		if !ok {
			continue
		}
		for _, o := range opts {
			oc, ok := stripIface(o).(*ssa.Call)
			if !ok {
				continue
			}
			var interceptors []ssa.Value
			switch calleeName(oc.Common()) {
			case grpcPkg + ".WithDefaultServiceConfig":
				if js, ok := e.constOf(oc.Call.Args[0]); ok && js.Kind() == constant.String {
					cr.Policies = append(cr.Policies, methodPolicies(constant.StringVal(js))...)
				}
			case grpcPkg + ".WithUnaryInterceptor":
				interceptors = oc.Call.Args
			case grpcPkg + ".WithChainUnaryInterceptor":
				interceptors, _ = sliceElems(oc.Call.Args[0], map[ssa.Value]bool{})
			}
			for _, ic := range interceptors {
				call, ok := stripIface(ic).(*ssa.Call)
				if !ok {
					continue
				}
				n, ok := knowledge.GRPCRetryInterceptorOf(calleeName(call.Common()))
				if !ok {
					continue
				}
				count := times(n)
				for _, a := range call.Call.Args {
					if t, ok := e.optionAttempts(a); ok {
						count = t
					}
				}
				if count != 1 {
					cr.Interceptor = int(times(max(cr.Interceptor, 1)).mul(count))
				}
			}
		}
	}
	if len(cr.Policies) == 0 && cr.Interceptor == 0 {
		return nil
	}
	cr.At = analysisutil.ShortPos(e.pass.Fset, dial.Pos())
	return &cr
}

// returnsConn computes (once) the ReturnsConn claim: every value the
// function returns in one result position, other than nil, is a
// connection with retries (or a client made from one), dialled at one
// place.
func (e *engine) returnsConn(info *fnInfo) *ConnRetry {
	if info.connDone {
		return info.conn
	}
	info.connDone = true
	res := info.fn.Signature.Results()
	for i := range res.Len() {
		if !connLike(res.At(i).Type()) {
			continue
		}
		if got := e.heldConn(returnedValues(info.fn, i)); got != nil {
			info.conn = got
			return got
		}
	}
	return nil
}

// varConn returns the retries of the connection an exported field or
// variable of the package holds on every store the package makes.
func (e *engine) varConn(v *types.Var) *ConnRetry {
	if !connLike(v.Type()) {
		return nil
	}
	return e.heldConn(e.stores[v])
}

// heldConn returns the retries of the connection each of the values is
// (nil ones aside), when all were dialled at one place.
func (e *engine) heldConn(values []ssa.Value) *ConnRetry {
	var got *ConnRetry
	for _, val := range values {
		if isNil(val) {
			continue
		}
		cr := e.connRetryOf(val)
		if cr == nil || got != nil && got.At != cr.At {
			return nil
		}
		got = cr
	}
	return got
}

// connLike reports whether a result can be a connection or a generated
// client: *grpc.ClientConn, grpc.ClientConnInterface, or an interface.
func connLike(t types.Type) bool {
	if isGRPCConn(t) {
		return true
	}
	_, ok := t.Underlying().(*types.Interface)
	return ok
}

// grpcLayer returns the retry layer a gRPC call gets from the connection
// it is made on.
func (e *engine) grpcLayer(info *fnInfo, c *ssa.CallCommon) (chainLink, bool) {
	target, service, method := grpcTarget(c)
	if target == nil {
		return chainLink{}, false
	}
	cr := e.connRetryOf(target)
	if cr == nil {
		return chainLink{}, false
	}
	attempts, what := cr.attempts(service, method)
	if attempts == 1 {
		return chainLink{}, false
	}
	return chainLink{RetryLink: RetryLink{
		What:     what + " of the connection dialled at " + analysisutil.LineOf(cr.At),
		Func:     funcDisplay(info.fn),
		At:       cr.At,
		Attempts: int(attempts),
		Client:   true,
	}, pos: e.dialPosOf(cr)}, true
}

// attempts returns the attempts a connection's retries give a call of
// the service and method, and which retries they are.
func (cr *ConnRetry) attempts(service, method string) (times, string) {
	attempts, what := times(1), ""
	best := 0
	for _, p := range cr.Policies {
		if p.Hedge || !p.matches(service, method) {
			continue
		}
		best = max(best, p.Attempts)
	}
	if best > 1 {
		attempts, what = times(best), "the service config's retryPolicy"
	}
	if cr.Interceptor != 0 {
		attempts, what = attempts.mul(times(cr.Interceptor)), "the retry interceptor"
	}
	return attempts, what
}

// grpcTarget returns what a gRPC call is made on, with the service and
// method it calls: the connection of ClientConn.Invoke with its method
// string ("/shop.Orders/Get"), or a generated client's interface value,
// whose service is the interface's name without "Client", matched
// against the last element of the service config's names.
func grpcTarget(c *ssa.CallCommon) (target ssa.Value, service, method string) {
	switch calleeName(c) {
	case "(*" + grpcPkg + ".ClientConn).Invoke", "(" + grpcPkg + ".ClientConnInterface).Invoke":
		cc, m := argOf(c, -1), argOf(c, 1)
		if !c.IsInvoke() {
			cc = c.Args[0]
		}
		if k, ok := m.(*ssa.Const); ok && k.Value != nil && k.Value.Kind() == constant.String {
			parts := strings.Split(strings.TrimPrefix(constant.StringVal(k.Value), "/"), "/")
			if len(parts) == 2 {
				return cc, parts[0], parts[1]
			}
		}
		return cc, "", ""
	}
	if !c.IsInvoke() {
		return nil, "", ""
	}
	iface, ok := types.Unalias(c.Value.Type()).(*types.Named)
	if !ok || !strings.HasSuffix(iface.Obj().Name(), "Client") {
		return nil, "", ""
	}
	return c.Value, strings.TrimSuffix(iface.Obj().Name(), "Client"), c.Method.Name()
}

// isGRPCConn reports whether t is *grpc.ClientConn or
// grpc.ClientConnInterface.
func isGRPCConn(t types.Type) bool {
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	n, ok := types.Unalias(t).(*types.Named)
	return ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == grpcPkg && (n.Obj().Name() == "ClientConn" || n.Obj().Name() == "ClientConnInterface")
}

// methodPolicies reads a gRPC service config's retry and hedging
// policies: each name of a methodConfig with a retryPolicy or a
// hedgingPolicy, with its maxAttempts (grpc caps it at 5). An empty
// service or method matches every one.
func methodPolicies(js string) []MethodRetry {
	type policy struct {
		MaxAttempts int `json:"maxAttempts"`
	}
	var cfg struct {
		MethodConfig []struct {
			Name []struct {
				Service string `json:"service"`
				Method  string `json:"method"`
			} `json:"name"`
			RetryPolicy   *policy `json:"retryPolicy"`
			HedgingPolicy *policy `json:"hedgingPolicy"`
		} `json:"methodConfig"`
	}
	if json.Unmarshal([]byte(js), &cfg) != nil {
		return nil
	}
	var out []MethodRetry
	for _, mc := range cfg.MethodConfig {
		for _, p := range []struct {
			policy *policy
			hedge  bool
		}{{mc.RetryPolicy, false}, {mc.HedgingPolicy, true}} {
			if p.policy == nil || p.policy.MaxAttempts < 2 {
				continue
			}
			for _, n := range mc.Name {
				out = append(out, MethodRetry{Service: n.Service, Method: n.Method, Attempts: min(p.policy.MaxAttempts, 5), Hedge: p.hedge})
			}
		}
	}
	return out
}

// dialPosOf returns where this package dials a connection it reads
// retries from, or NoPos when another package does.
func (e *engine) dialPosOf(cr *ConnRetry) token.Pos {
	for dial, c := range e.dials {
		if c == cr {
			return dial.Pos()
		}
	}
	return token.NoPos
}
