package summary

import (
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/resilvet/resilvet/internal/analysisutil"
	"github.com/resilvet/resilvet/internal/knowledge"
)

// Library layers, the retry module's knowledge of retry libraries at the
// call: which calls are layers (the knowledge tables, patterns checked
// against the signature), and the attempts the arguments give them: a
// backoff value and its wrappers, variadic options, resilvet's runtime
// policy literal, a retrying client's retries field or constructor
// options, and an executor's retry policies followed back through their
// builders.

// libraryLink describes a library layer at call c, with its attempts
// from the options given; false when the options disable it (one
// attempt).
func (e *engine) libraryLink(info *fnInfo, c *ssa.CallCommon, l knowledge.RetryLayer) (chainLink, bool) {
	attempts := times(l.DefaultAttempts)
	if l.DefaultAttempts == 0 {
		attempts = timesUnbounded
	}
	nested := false
	switch {
	case l.Policy:
		attempts, nested = e.policyAttempts(argOf(c, l.OptionsFrom), attempts)
	case l.RetriesField != "":
		attempts = e.clientAttempts(argOf(c, -1), l.RetriesField, attempts)
	case l.OptionsField != "":
		attempts = e.constructorAttempts(argOf(c, -1), l.OptionsField, attempts)
	case l.Policies:
		attempts = e.executorAttempts(argOf(c, -1))
		e.openPolicy(c)
	case l.Retryer:
		attempts = e.retryerAttempts(c, l.OptionsFrom, attempts)
	case l.CountVar != "":
		attempts = e.countVarAttempts(c, l.CountVar, attempts)
	case l.OptionsFrom >= 0:
		if l.ConstructorOptions {
			if made := e.sdkConstruction(argOf(c, -1)); made != nil {
				for _, a := range made.Call.Args {
					if t, ok := e.optionAttempts(a); ok {
						attempts = t
					}
				}
			}
		}
		for i := l.OptionsFrom; ; i++ {
			v := argOf(c, i)
			if v == nil {
				break
			}
			if t, ok := e.optionAttempts(v); ok {
				attempts = t
			}
		}
	}
	if attempts == 1 {
		return chainLink{}, false
	}
	link := chainLink{RetryLink: RetryLink{
		What:     libraryName(c),
		Func:     funcDisplay(info.fn),
		At:       analysisutil.ShortPos(e.pass.Fset, c.Pos()),
		Attempts: int(attempts),
		Runtime:  l.YieldsWhenNested,
		Nested:   nested,
		Client:   l.FuncArg < 0,
	}, pos: c.Pos()}
	if l.BackOffObject {
		link.backoff = backOffOf(argOf(c, l.OptionsFrom))
	}
	return link, true
}

// countVarAttempts reads the package variable holding a library's count
// where this package stores constants into it (minio.MaxRetry = 3, in
// main or an init): the largest; an unknown value makes the count one
// set at run time. Stores made by other packages are not seen.
func (e *engine) countVarAttempts(c *ssa.CallCommon, name string, def times) times {
	f := calleeFunc(c)
	if f == nil || f.Pkg() == nil {
		return def
	}
	v, ok := f.Pkg().Scope().Lookup(name).(*types.Var)
	if !ok {
		return def
	}
	stores := e.stores[v]
	if len(stores) == 0 {
		return def
	}
	var most int64
	for _, s := range stores {
		n, ok := e.intOf(s)
		if !ok {
			return timesUnknown
		}
		most = max(most, n)
	}
	return attemptsOf(most)
}

// libraryName is a library layer's name as messages show it
// ("backoff.Retry", "retryablehttp.Client.Do").
func libraryName(c *ssa.CallCommon) string {
	if name, ok := promotedName(c); ok {
		return name
	}
	f := calleeFunc(c)
	if f == nil {
		return "retry"
	}
	name := f.Pkg().Name() + "." + f.Name()
	if sig, ok := f.Type().(*types.Signature); ok && sig.Recv() != nil {
		t := sig.Recv().Type()
		if p, ok := t.(*types.Pointer); ok {
			t = p.Elem()
		}
		if n, ok := types.Unalias(t).(*types.Named); ok {
			name = f.Pkg().Name() + "." + n.Obj().Name() + "." + f.Name()
		}
	}
	return name
}

// optionAttempts returns the attempts an option argument sets: a call of
// an option of the table, a backoff wrapper, or the variadic slice of
// options (the last one that sets a count wins).
func (e *engine) optionAttempts(v ssa.Value) (times, bool) {
	switch v := v.(type) {
	case *ssa.Call:
		o, ok := knowledge.RetryOptionOf(calleeName(&v.Call))
		if !ok {
			return e.returnedOptions(v)
		}
		switch {
		case o.Unbounded:
			return timesUnbounded, true
		case o.PassThrough:
			return e.optionAttempts(argOf(&v.Call, o.Arg))
		}
		n, ok := e.intArg(&v.Call, o.Arg)
		if !ok {
			return timesUnknown, true
		}
		n += int64(o.Add)
		if n <= 0 && o.ZeroUnbounded && o.Add == 0 {
			return timesUnbounded, true
		}
		return attemptsOf(n), true
	case *ssa.MakeInterface:
		return e.optionAttempts(v.X)
	case *ssa.ChangeInterface:
		return e.optionAttempts(v.X)
	case *ssa.Slice:
		arr, ok := v.X.(*ssa.Alloc)
		if !ok || arr.Referrers() == nil {
			return 0, false
		}
		var out times
		found := false
		for _, r := range *arr.Referrers() {
			ia, ok := r.(*ssa.IndexAddr)
			if !ok {
				continue
			}
			for _, rr := range *ia.Referrers() {
				if st, ok := rr.(*ssa.Store); ok && st.Addr == ia {
					if t, ok := e.optionAttempts(st.Val); ok {
						out, found = t, true
					}
				}
			}
		}
		return out, found
	}
	return 0, false
}

// returnedOptions reads the options a function of this package returns
// as a list (exporterhelperOptions(cfg)...), where every return gives
// the same count.
func (e *engine) returnedOptions(call *ssa.Call) (times, bool) {
	if _, ok := call.Type().Underlying().(*types.Slice); !ok {
		return 0, false
	}
	fn := call.Call.StaticCallee()
	if fn == nil || e.local[fn] == nil {
		return 0, false
	}
	if fn.Signature.Results().Len() != 1 {
		return 0, false
	}
	var got times
	found := false
	for _, r := range returnedValues(fn, 0) {
		t, ok := e.optionAttempts(r)
		if !ok || found && t != got {
			return 0, false
		}
		got, found = t, true
	}
	return got, found
}

// policyAttempts reads a runtime policy's MaxAttempts (0: the default)
// and AllowNested where the policy is a literal of this package (a
// local, or a package variable this package alone writes).
func (e *engine) policyAttempts(v ssa.Value, def times) (times, bool) {
	if c, ok := v.(*ssa.Const); ok && c.IsNil() {
		return def, false
	}
	alloc := e.literalOf(v)
	if alloc == nil {
		return timesUnknown, false
	}
	attempts, nested := def, false
	for _, st := range fieldStores(alloc) {
		switch st.field {
		case "MaxAttempts":
			if n, ok := e.intOf(st.val); ok {
				if n > 0 {
					attempts = attemptsOf(n)
				}
			} else {
				attempts = timesUnknown
			}
		case "AllowNested":
			if k, ok := e.constOf(st.val); ok && k.String() == "true" {
				nested = true
			}
		}
	}
	return attempts, nested
}

// clientAttempts reads a retrying client's retries field (RetryMax) where
// the client is made in this package from the library's constructor or
// a literal: its default unless a constant is stored there.
func (e *engine) clientAttempts(v ssa.Value, field string, def times) times {
	return e.clientAttemptsDepth(v, field, def, 0)
}

func (e *engine) clientAttemptsDepth(v ssa.Value, field string, def times, depth int) times {
	if depth > 4 {
		return timesUnknown
	}
	if phi, ok := v.(*ssa.Phi); ok {
		// The client one of several: the same count on every edge.
		var got times
		for i, edge := range phi.Edges {
			t := e.clientAttemptsDepth(edge, field, def, depth+1)
			if i > 0 && t != got {
				return timesUnknown
			}
			got = t
		}
		return got
	}
	if fv := loadedVar(stripIface(v)); fv != nil && fv.Pkg() != e.pass.Pkg {
		// Another package's field or variable: its fact.
		if c := e.importedVar(fv).Client; len(c) == 1 {
			return times(c[0].Attempts)
		}
		return timesUnknown
	}
	alloc := e.literalOf(v)
	if alloc == nil {
		return timesUnknown
	}
	attempts := def
	switch x := alloc.(type) {
	case *ssa.Alloc:
		attempts = 1 // a literal's RetryMax is 0 unless set
	case *ssa.Call:
		if made := e.returnedClient(x.Common()); len(made) == 1 {
			// A client another function made: its claim's count.
			attempts = times(made[0].Attempts)
		} else if f := calleeFunc(x.Common()); f == nil || f.Pkg() == nil || f.Pkg() != typePkg(v.Type()) {
			// Not the library's own constructor: set who knows where.
			return timesUnknown
		}
	}
	for _, st := range fieldStores(alloc) {
		if st.field != field {
			continue
		}
		if from, ok := copiedField(st.val, field); ok {
			// RetryMax: c.client.RetryMax, a copy of another client's.
			attempts = e.clientAttemptsDepth(from, field, def, depth+1)
			continue
		}
		n, ok := e.intOf(st.val)
		if !ok {
			return timesUnknown
		}
		attempts = attemptsOf(n + 1)
	}
	return attempts
}

// copiedField returns the value whose field of that name v loads
// (c.client.RetryMax: c.client).
func copiedField(v ssa.Value, field string) (ssa.Value, bool) {
	ld, ok := v.(*ssa.UnOp)
	if !ok || ld.Op != token.MUL {
		return nil, false
	}
	fa, ok := ld.X.(*ssa.FieldAddr)
	if !ok {
		return nil, false
	}
	st, ok := structOf(fa.X.Type())
	if !ok || st.Field(fa.Field).Name() != field {
		return nil, false
	}
	return fa.X, true
}

// literalOf returns the allocation a pointer value comes from: a local
// composite literal or constructor call, or the single value stored in a
// package variable or field this package alone writes.
func (e *engine) literalOf(v ssa.Value) ssa.Value {
	for range 4 {
		switch x := v.(type) {
		case *ssa.Alloc:
			return x
		case *ssa.Call:
			return x
		case *ssa.Extract:
			v = x.Tuple // conn, err := grpc.NewClient(…)
		case *ssa.UnOp:
			fv := loadedVar(x)
			if fv == nil || !e.soleWriter(fv) || len(e.stores[fv]) != 1 {
				return nil
			}
			v = e.stores[fv][0]
		default:
			return nil
		}
	}
	return nil
}

type fieldStore struct {
	field string
	val   ssa.Value
}

// fieldStores lists the stores into fields of the value a literal or
// constructor made (p.MaxAttempts = 5, or a literal's fields).
func fieldStores(v ssa.Value) []fieldStore {
	var out []fieldStore
	refs := v.Referrers()
	if refs == nil {
		return nil
	}
	for _, r := range *refs {
		fa, ok := r.(*ssa.FieldAddr)
		if !ok || fa.X != v {
			continue
		}
		st, ok := structOf(fa.X.Type())
		if !ok {
			continue
		}
		name := st.Field(fa.Field).Name()
		for _, rr := range *fa.Referrers() {
			if s, ok := rr.(*ssa.Store); ok && s.Addr == fa {
				out = append(out, fieldStore{name, s.Val})
			}
		}
	}
	return out
}

// retryLayerOf returns the retry layer a call is, from the knowledge
// tables: a pattern's method counts only when it takes a context first
// (go-redis's commands, not its Options or Close); a circuit breaker's
// call is a layer of one attempt around the function it runs.
func retryLayerOf(c *ssa.CallCommon) (knowledge.RetryLayer, bool) {
	name := calleeName(c)
	if c.IsInvoke() {
		name = c.Method.Origin().FullName() // generic executors by their origin
	}
	if br, ok := knowledge.BreakerOf(name); ok {
		// A circuit breaker runs the function it is given once: a layer
		// of one attempt, which adds nothing but carries what the
		// function retries and whether it does outbound work.
		return knowledge.RetryLayer{DefaultAttempts: 1, FuncArg: br.FuncArg, OptionsFrom: -1}, true
	}
	l, ok := knowledge.RetryLayerOf(name)
	if !ok {
		return l, false
	}
	if knowledge.RetryLayerPattern(name) {
		sig := c.Signature()
		if sig.Params().Len() == 0 || !analysisutil.IsContext(sig.Params().At(0).Type()) {
			return l, false
		}
		if f := calleeFunc(c); f != nil && !f.Exported() {
			return l, false // the client's own plumbing, not a command
		}
	}
	return l, true
}

// retryLayerAt returns the retry layer a call is, except in the library
// that implements it: inside go-redis, a loop around its own Process is
// how MaxRetries is kept, not a layer on top of it.
func (e *engine) retryLayerAt(c *ssa.CallCommon) (knowledge.RetryLayer, bool) {
	l, ok := retryLayerOf(c)
	if !ok {
		return l, false
	}
	if f := calleeFunc(c); f != nil && f.Pkg() == e.pass.Pkg {
		return l, false
	}
	return l, true
}

// constructorAttempts reads the retries a client was made with, from the
// options literal given to its constructor in this package
// (redis.NewClient(&redis.Options{MaxRetries: 5})): the field's value
// plus one, the default when it is 0 or not set, one attempt for -1.
func (e *engine) constructorAttempts(v ssa.Value, field string, def times) times {
	if ld, ok := v.(*ssa.UnOp); ok && ld.Op == token.MUL {
		// A command of a func type the client embeds (go-redis's
		// cmdable): the client is what the field is loaded from.
		if fa, ok := ld.X.(*ssa.FieldAddr); ok {
			if st, ok := structOf(fa.X.Type()); ok && st.Field(fa.Field).Embedded() {
				v = fa.X
			}
		}
	}
	made, ok := e.literalOf(v).(*ssa.Call)
	if !ok || len(made.Call.Args) == 0 {
		return timesUnknown
	}
	opts := e.literalOf(made.Call.Args[0])
	if opts == nil {
		return timesUnknown
	}
	attempts := def
	for _, st := range fieldStores(opts) {
		if st.field != field {
			continue
		}
		n, ok := e.intOf(st.val)
		switch {
		case !ok:
			return timesUnknown
		case n < 0:
			attempts = 1
		case n > 0:
			attempts = attemptsOf(n + 1)
		}
	}
	return attempts
}

// sdkConstruction returns the call that constructed the SDK client a
// service value belongs to: from &client.Chat.Completions through the
// SDK's own struct fields to the client value, then to the single value
// stored where it is held (a local, or a field or package variable this
// package alone writes). Nil when it cannot be followed.
func (e *engine) sdkConstruction(v ssa.Value) *ssa.Call {
	sdk := typePkg(v.Type())
	if sdk == nil {
		return nil
	}
	for range 8 {
		switch x := v.(type) {
		case *ssa.Call:
			return x
		case *ssa.FieldAddr:
			if typePkg(x.X.Type()) == sdk {
				v = x.X // a service inside the client
				continue
			}
			st, ok := structOf(x.X.Type())
			if !ok {
				return nil
			}
			fv := st.Field(x.Field) // a field holding the client
			if !e.soleWriter(fv) || len(e.stores[fv]) != 1 {
				return nil
			}
			v = e.stores[fv][0]
		case *ssa.Alloc:
			var stored ssa.Value
			for _, r := range *x.Referrers() {
				if st, ok := r.(*ssa.Store); ok && st.Addr == x {
					if stored != nil {
						return nil
					}
					stored = st.Val
				}
			}
			if stored == nil {
				return nil
			}
			v = stored
		case *ssa.UnOp:
			if x.Op != token.MUL {
				return nil
			}
			v = x.X
		case *ssa.Extract:
			v = x.Tuple // cl, err := kgo.NewClient(…)
		default:
			return nil
		}
	}
	return nil
}

// typePkg returns the package declaring the named type t is, or points
// to.
func typePkg(t types.Type) *types.Package {
	if p, ok := t.Underlying().(*types.Pointer); ok {
		t = p.Elem()
	}
	if n, ok := types.Unalias(t).(*types.Named); ok {
		return n.Obj().Pkg()
	}
	return nil
}

// executorAttempts returns the attempts an executor makes: the product of
// its retry policies' counts (failsafe.With(retryPolicy, breaker)), one
// when it has none, unknown when a policy or the executor cannot be
// followed.
func (e *engine) executorAttempts(v ssa.Value) times {
	made, from, ok := e.executorOf(v)
	if !ok {
		return timesUnknown
	}
	attempts := times(1)
	for i := from; i < len(made.Call.Args); i++ {
		policies, ok := sliceElems(made.Call.Args[i], map[ssa.Value]bool{})
		if !ok {
			return timesUnknown
		}
		for _, p := range policies {
			if n, ok := e.policyCount(p); ok {
				attempts = attempts.mul(n)
			}
		}
	}
	return attempts
}

// policyCount returns the attempts of a retry policy, walking its
// builder's calls back to its constructor; false when the value is not a
// retry policy (a circuit breaker, a timeout).
func (e *engine) policyCount(v ssa.Value) (times, bool) {
	built, ok := e.literalOf(stripIface(v)).(*ssa.Call)
	if !ok {
		return timesUnknown, false
	}
	name := calleeName(built.Common())
	if built.Common().IsInvoke() {
		name = built.Common().Method.Origin().FullName()
	}
	p, ok := knowledge.RetryPolicyOf(name)
	if !ok {
		return 0, false
	}
	if !built.Common().IsInvoke() {
		return times(p.DefaultAttempts), true
	}
	b := built.Common().Value
	for range 16 {
		call, ok := stripIface(b).(*ssa.Call)
		if !ok {
			return timesUnknown, true
		}
		c := call.Common()
		if !c.IsInvoke() {
			return times(p.DefaultAttempts), true // the builder's constructor
		}
		switch c.Method.Name() {
		case p.Retries, p.Attempts:
			n, ok := e.intArg(c, 0)
			switch {
			case !ok:
				return timesUnknown, true
			case n < 0:
				return timesUnbounded, true
			case c.Method.Name() == p.Retries:
				return attemptsOf(n + 1), true
			}
			return attemptsOf(n), true
		}
		b = c.Value
	}
	return timesUnknown, true
}

// promotedName names a method called through a field the receiver embeds
// by the type the code calls it on (rdb.Get, go-redis's cmdable.Get, is
// "redis.Client.Get"), as the code reads.
func promotedName(c *ssa.CallCommon) (string, bool) {
	f := calleeFunc(c)
	if c.IsInvoke() || f == nil || len(c.Args) == 0 {
		return "", false
	}
	ld, ok := c.Args[0].(*ssa.UnOp)
	if !ok || ld.Op != token.MUL {
		return "", false
	}
	fa, ok := ld.X.(*ssa.FieldAddr)
	if !ok {
		return "", false
	}
	st, ok := structOf(fa.X.Type())
	if !ok || !st.Field(fa.Field).Embedded() {
		return "", false
	}
	t := fa.X.Type()
	if p, ok := t.Underlying().(*types.Pointer); ok {
		t = p.Elem()
	}
	n, ok := types.Unalias(t).(*types.Named)
	if !ok || n.Obj().Pkg() == nil {
		return "", false
	}
	return n.Obj().Pkg().Name() + "." + n.Obj().Name() + "." + f.Name(), true
}

// retryCallName names a call as retrystack's messages show it.
func retryCallName(c *ssa.CallCommon) string {
	if name, ok := promotedName(c); ok {
		return name
	}
	return calleeDisplay(c)
}
