package resilmap

import (
	"fmt"
	"maps"
	"path"
	"slices"
	"sort"
	"strings"

	"github.com/resilvet/resilvet/internal/summary"
)

// Source is what the map is built from: the summary engine's map claims
// of every package of the module (summary.Result.MapFuncs, MapEntries,
// from a run in map mode) and the analyzers' findings.
type Source struct {
	Module string // the module's path
	// Root is the module's directory: positions are made relative to it.
	Root    string
	Funcs   []*summary.MapFunc
	Entries []*summary.MapEntry
	// Impls are the module's methods implementing its interfaces: an
	// interface call reaches each.
	Impls    []summary.MapImpl
	Findings []Finding // Pos with the file's full path, as the engine's
	// NotLoaded are the packages that did not load, for the map to say.
	NotLoaded []LoadError
}

// maxDepth caps how many calls deep a path goes from its entry.
const maxDepth = 24

// Build joins the engine's claims into the map: from each entry point,
// breadth first through the calls of functions the engine has claims
// for, each callee's parameters bound by what its caller passes, it
// records every outbound call reached, once per entry, by the shortest
// way, with what bounds it on that way. An entry whose handler it cannot
// follow says why; a finding on no path is listed apart.
func Build(src Source) *Map {
	b := &builder{src: src, funcs: map[string]*summary.MapFunc{}, callIDs: map[string]string{}, entryFuncs: map[string]bool{}, handlerFuncs: map[string]bool{}, impls: map[string][]string{}}
	for _, f := range src.Funcs {
		b.funcs[f.Key] = f
	}
	for _, im := range src.Impls {
		if !slices.Contains(b.impls[im.Iface], im.Method) {
			b.impls[im.Iface] = append(b.impls[im.Iface], im.Method)
		}
	}
	handlers := make([]*handler, len(src.Entries))
	for i, en := range src.Entries {
		handlers[i] = b.entryHandler(en)
		b.entryFuncs[handlers[i].key] = true
		handlers[i].keys(b.handlerFuncs)
	}
	b.m = &Map{Version: Version, Module: src.Module, Entries: []Entry{}, Calls: []Call{}, Paths: []Path{}, NotLoaded: src.NotLoaded}
	seen := map[string]bool{}
	for i, en := range src.Entries {
		h := handlers[i]
		name := en.Name
		if en.Kind == EntryPeriodic && en.Handler != nil && h.why == "" {
			name = b.display(h.inner().key) // the job, not its adapter
		}
		k := en.Kind + "\x00" + name + "\x00" + h.key
		if h.key == "" {
			k += "\x00" + en.At // two handlers the map cannot name are two entries
		}
		if seen[k] {
			continue
		}
		seen[k] = true
		id := fmt.Sprintf("e%d", len(b.m.Entries)+1)
		entry := Entry{ID: id, Kind: en.Kind, Name: name, Func: b.display(h.inner().key), Pos: b.rel(en.At)}
		if h.why != "" {
			entry.NotFollowed = "the handler " + h.why
		} else {
			entry.NotFollowed = b.walk(id, en, h)
		}
		b.m.Entries = append(b.m.Entries, entry)
	}
	sort.SliceStable(b.m.Paths, func(i, j int) bool {
		if b.m.Paths[i].Entry != b.m.Paths[j].Entry {
			return idLess(b.m.Paths[i].Entry, b.m.Paths[j].Entry)
		}
		return idLess(b.m.Paths[i].Call, b.m.Paths[j].Call)
	})
	b.m.Unmapped = b.unmapped()
	return b.m
}

type builder struct {
	src     Source
	funcs   map[string]*summary.MapFunc
	m       *Map
	callIDs map[string]string // by the call's position and name
	// entryFuncs are the entries' functions: a walk does not go into
	// another entry (main registers the handlers, and starts the jobs,
	// that are entries of their own).
	entryFuncs map[string]bool
	// handlerFuncs are the functions the entries' handlers run (an
	// adapter's closure and the handler it was given): a func value of
	// one made on another entry's walk (main's h.List handed to
	// withLogging) is that entry's, and not followed there. A call of
	// one is (a handler calling another's function).
	handlerFuncs map[string]bool
	// impls are the methods implementing each interface method, by its
	// key.
	impls map[string][]string
}

// param names a function's parameter in an environment.
type param struct {
	owner string
	index int
}

// step is a function reached from an entry: what bounds its parameters
// (and those of the functions it is a closure in), the functions on the
// way and the call sites that led there.
type step struct {
	fn   *summary.MapFunc
	env  map[param]summary.MapBound
	idem map[param]summary.MapIdem // what the requests passed may do
	// targets are the URLs of the requests passed, where known.
	targets map[param]string
	via     []string
	sites   []string
	// layers are the retry layers and breakers the function runs in,
	// outermost first.
	layers []summary.MapLayer
	// captured are the func values the function, a closure, captured
	// (an adapter's handler), where the walk knows them.
	captured map[int]*handler
}

// requestBound stands for the incoming request's deadline in an entry's
// environment.
const requestBound = "request"

// walk records the paths of an entry that runs h. It returns why the
// walk could not follow the entry into its handler, if it could not: an
// adapter's closure calls a handler the map cannot name.
func (b *builder) walk(entryID string, en *summary.MapEntry, h *handler) (notFollowed string) {
	start := b.funcs[h.key]
	if start == nil {
		return ""
	}
	env := map[param]summary.MapBound{}
	if en.Request != -2 {
		env[param{h.key, en.Request}] = summary.MapBound{State: requestBound}
	}
	queue := []step{{fn: start, env: env, idem: map[param]summary.MapIdem{}, targets: map[param]string{}, via: []string{start.Display}, sites: []string{en.At}, captured: h.captured}}
	visited := map[string]bool{start.Key: true}
	// A handler is walked once, whatever function runs it: the same
	// adapter may wrap another of its closures (withLogging(withLogging(h))).
	walked := map[*handler]bool{h: true}
	reached := map[string]bool{}
	for len(queue) > 0 {
		s := queue[0]
		queue = queue[1:]
		for _, c := range s.fn.Calls {
			if c.Through != "" && b.funcs[c.Through] != nil {
				continue // the module's own function: its claims show the call
			}
			id := b.callID(s.fn, c)
			if reached[id] {
				continue
			}
			reached[id] = true
			bound := resolve(c.Bound, s.env)
			layers := append(append([]summary.MapLayer(nil), s.layers...), c.Layers...)
			p := Path{
				Entry:      entryID,
				Call:       id,
				Via:        append([]string(nil), s.via...),
				Deadline:   b.deadline(bound),
				Retry:      b.retry(layers),
				Breaker:    b.innermost("breaker", layers),
				Hedge:      b.innermost("hedge", layers),
				Idempotent: idempotent(resolveIdem(c.Idem, s.idem)),
				Findings:   b.findings(append(append(append([]string(nil), s.sites...), layerSites(layers)...), c.At, bound.At)),
			}
			b.m.Paths = append(b.m.Paths, p)
			if c.Target == "" && c.Idem.State == summary.IdemParam {
				b.setTarget(id, s.targets[param{c.Idem.Owner, c.Idem.Param}])
			}
		}
		if len(s.via) >= maxDepth {
			continue
		}
		for _, e := range s.fn.Edges {
			if e.Callee == "" {
				// The captured handler is this entry's own: no other
				// entry's function, whatever entryFuncs says.
				c := s.captured[e.Captured]
				switch {
				case c == nil:
				case c.why != "":
					if notFollowed == "" {
						notFollowed = s.fn.Display + " calls a handler that " + c.why
					}
				case b.funcs[c.key] != nil && !walked[c]:
					walked[c], visited[c.key] = true, true
					n := s.next(callee{fn: b.funcs[c.key]}, e)
					n.captured = c.captured
					queue = append(queue, n)
				}
				continue
			}
			for _, t := range b.callees(e.Callee) {
				if visited[t.fn.Key] || b.entryFuncs[t.fn.Key] || e.Made && b.handlerFuncs[t.fn.Key] {
					continue
				}
				visited[t.fn.Key] = true
				n := s.next(t, e)
				n.captured = b.capturedBy(e.With, s.captured)
				queue = append(queue, n)
			}
		}
	}
	return notFollowed
}

// callee is a function an edge reaches: the callee itself, or for a call
// of an interface method, a method implementing it (as names the
// interface, for the path).
type callee struct {
	fn *summary.MapFunc
	as string
}

// callees returns the functions with claims that an edge to key reaches.
func (b *builder) callees(key string) []callee {
	if fn := b.funcs[key]; fn != nil {
		return []callee{{fn: fn}}
	}
	var out []callee
	for _, m := range b.impls[key] {
		if fn := b.funcs[m]; fn != nil {
			out = append(out, callee{fn: fn, as: ifaceDisplay(key)})
		}
	}
	return out
}

// ifaceDisplay shortens an interface method's key for people:
// (example.com/notify.Notifier).Notify is notify.Notifier.Notify.
func ifaceDisplay(key string) string {
	recv, method, ok := strings.Cut(strings.TrimPrefix(key, "("), ").")
	if !ok {
		return key
	}
	return path.Base(recv) + "." + method
}

// next is the step into the callee t of edge e: the callee's parameters
// bound by what s passes.
func (s step) next(t callee, e summary.MapEdge) step {
	env, idem, targets := maps.Clone(s.env), maps.Clone(s.idem), maps.Clone(s.targets)
	for _, a := range e.Args {
		p := param{t.fn.Key, a.Param}
		env[p] = resolve(a.Bound, s.env)
		if a.Target != "" {
			targets[p] = a.Target
		}
		if a.Idem != nil {
			idem[p] = resolveIdem(*a.Idem, s.idem)
		}
	}
	display := t.fn.Display
	if t.as != "" {
		display += " (as " + t.as + ")"
	}
	return step{
		fn:      t.fn,
		env:     env,
		idem:    idem,
		targets: targets,
		via:     append(append([]string(nil), s.via...), display),
		sites:   append(append([]string(nil), s.sites...), e.At),
		layers:  append(append([]summary.MapLayer(nil), s.layers...), e.Layers...),
	}
}

// resolve replaces a parameter's bound by what the environment says the
// caller passed; a parameter the walk knows nothing of is unknown.
//
// Where several of the caller's values decide (a context and a client),
// any that is bounded bounds the call; then the request's deadline; then
// an unknown one; the call is unbounded only when every one is.
func resolve(bd summary.MapBound, env map[param]summary.MapBound) summary.MapBound {
	if bd.State != summary.MapParam {
		return bd
	}
	rank := map[string]int{summary.MapBounded: 0, requestBound: 1, summary.MapUnknown: 2, summary.MapUnbounded: 3}
	var best summary.MapBound
	for i, alt := range append([]summary.MapBound{bd}, bd.Either...) {
		v, ok := env[param{alt.Owner, alt.Param}]
		if !ok {
			v = summary.MapBound{State: summary.MapUnknown, Of: alt.Of}
		}
		if i == 0 || rank[v.State] < rank[best.State] {
			best = v
		}
	}
	if bd.Weak && best.State == summary.MapUnbounded {
		// The call may bound itself: nothing on the way bounds it.
		return summary.MapBound{State: summary.MapUnknown, Of: bd.Of}
	}
	return best
}

// setTarget gives a call the target a path found for it, the first one
// found: the request a helper sends is made by its callers.
func (b *builder) setTarget(id, target string) {
	if target == "" {
		return
	}
	for i := range b.m.Calls {
		if b.m.Calls[i].ID == id && b.m.Calls[i].Target == "" {
			b.m.Calls[i].Target = target
		}
	}
}

// resolveIdem replaces a request parameter's idempotence by what the
// caller passed; unknown when the walk knows nothing of it.
func resolveIdem(id summary.MapIdem, env map[param]summary.MapIdem) summary.MapIdem {
	if id.State != summary.IdemParam {
		return id
	}
	return env[param{id.Owner, id.Param}]
}

func idempotent(id summary.MapIdem) *bool {
	switch id.State {
	case summary.IdemYes:
		t := true
		return &t
	case summary.IdemNo:
		f := false
		return &f
	}
	return nil
}

// retry returns the retry layers on a path and their product, or nil
// when there are none. A runtime layer inside another runtime layer
// makes one attempt (it finds the outer attempt in its context) unless
// its policy allows nesting.
func (b *builder) retry(layers []summary.MapLayer) *Retry {
	var r Retry
	product, unbounded, unknown := 1, false, false
	runtimeAbove := false
	for _, l := range layers {
		if l.Kind != "retry" {
			continue
		}
		r.Layers = append(r.Layers, Layer{What: l.What, Attempts: attemptsText(l.Attempts), Pos: b.rel(l.At)})
		yields := l.Runtime && runtimeAbove && !l.Nested
		runtimeAbove = runtimeAbove || l.Runtime
		switch {
		case yields:
		case l.Attempts < 0:
			unbounded = true
		case l.Attempts == 0:
			unknown = true
		default:
			product *= l.Attempts
		}
	}
	if len(r.Layers) == 0 {
		return nil
	}
	switch {
	case unbounded:
		r.Product = AttemptsUnbounded
	case unknown:
		r.Product = AttemptsUnknown
	default:
		r.Product = fmt.Sprint(product)
	}
	return &r
}

func attemptsText(n int) string {
	switch {
	case n < 0:
		return AttemptsUnbounded
	case n == 0:
		return AttemptsUnknown
	}
	return fmt.Sprint(n)
}

// innermost returns the innermost layer of a kind on a path ("breaker",
// "hedge"), if any.
func (b *builder) innermost(kind string, layers []summary.MapLayer) *Layer {
	for i := len(layers) - 1; i >= 0; i-- {
		if layers[i].Kind == kind {
			return &Layer{What: layers[i].What, Pos: b.rel(layers[i].At)}
		}
	}
	return nil
}

// callID returns the id of the call, adding it to the map on first use.
func (b *builder) callID(fn *summary.MapFunc, c summary.MapCall) string {
	k := c.At + "\x00" + c.Call
	if id, ok := b.callIDs[k]; ok {
		return id
	}
	id := fmt.Sprintf("c%d", len(b.m.Calls)+1)
	b.callIDs[k] = id
	// A call inside a dependency is shown where the module's code calls
	// into it: the reader's code, which the reader can change.
	through := ""
	if c.Through != "" {
		through = c.ThroughName
	}
	b.m.Calls = append(b.m.Calls, Call{ID: id, Kind: callKind(c.Kind), Target: c.Target, Callee: c.Call, Func: fn.Display, Pos: b.rel(c.At), Through: through})
	return id
}

// callKind maps the engine's outbound kinds to the map's.
func callKind(k string) string {
	switch k {
	case "http", "grpc", "sql":
		return k
	case "net", "tls", "dns":
		return CallDial
	case "redis":
		return CallCache
	case "nats":
		return CallQueue
	}
	return CallOther
}

// deadline says what bounds a call, from its resolved bound.
func (b *builder) deadline(bd summary.MapBound) Deadline {
	switch bd.State {
	case requestBound:
		return Deadline{Source: DeadlineRequest, What: "the incoming request's context"}
	case summary.MapBounded:
		src := DeadlineTimeout
		switch bd.Of {
		case "client", "dialer", "transport", "conn":
			src = DeadlineClient
		}
		return Deadline{Source: src, What: bd.What, Pos: b.rel(bd.At)}
	case summary.MapUnbounded:
		// The engine's words are made for its messages ("…, which
		// drops the deadline,"): the map shows them without the comma.
		return Deadline{Source: DeadlineNone, What: strings.TrimSuffix(bd.What, ","), Pos: b.rel(bd.At)}
	}
	return Deadline{Source: DeadlineUnknown}
}

// display names a function by key for people: its source form when the
// engine has claims for it, else the key.
func (b *builder) display(key string) string {
	if f := b.funcs[key]; f != nil {
		return f.Display
	}
	return key
}

// rel makes a position relative to the module's directory.
func (b *builder) rel(pos string) string {
	if b.src.Root == "" {
		return pos
	}
	return strings.TrimPrefix(pos, strings.TrimSuffix(b.src.Root, "/")+"/")
}

// idLess orders "e2" before "e10".
func idLess(a, b string) bool {
	if len(a) != len(b) {
		return len(a) < len(b)
	}
	return a < b
}
