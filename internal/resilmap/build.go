package resilmap

import (
	"fmt"
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
	Root     string
	Funcs    []*summary.MapFunc
	Entries  []*summary.MapEntry
	Findings []Finding // Pos with the file's full path, as the engine's
}

// maxDepth caps how many calls deep a path goes from its entry.
const maxDepth = 24

// Build joins the engine's claims into the map: from each entry point,
// breadth first through the calls of functions the engine has claims
// for, each callee's parameters bound by what its caller passes, it
// records every outbound call reached, once per entry, by the shortest
// way, with what bounds it on that way.
func Build(src Source) *Map {
	b := &builder{src: src, funcs: map[string]*summary.MapFunc{}, callIDs: map[string]string{}, entryFuncs: map[string]bool{}}
	for _, f := range src.Funcs {
		b.funcs[f.Key] = f
	}
	for _, en := range src.Entries {
		b.entryFuncs[en.Func] = true
	}
	b.m = &Map{Version: Version, Module: src.Module, Entries: []Entry{}, Calls: []Call{}, Paths: []Path{}}
	seen := map[string]bool{}
	for _, en := range src.Entries {
		k := en.Kind + "\x00" + en.Name + "\x00" + en.Func
		if seen[k] {
			continue
		}
		seen[k] = true
		id := fmt.Sprintf("e%d", len(b.m.Entries)+1)
		b.m.Entries = append(b.m.Entries, Entry{ID: id, Kind: en.Kind, Name: en.Name, Func: b.display(en.Func), Pos: b.rel(en.At)})
		b.walk(id, en)
	}
	sort.SliceStable(b.m.Paths, func(i, j int) bool {
		if b.m.Paths[i].Entry != b.m.Paths[j].Entry {
			return idLess(b.m.Paths[i].Entry, b.m.Paths[j].Entry)
		}
		return idLess(b.m.Paths[i].Call, b.m.Paths[j].Call)
	})
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
	fn    *summary.MapFunc
	env   map[param]summary.MapBound
	via   []string
	sites []string
}

// requestBound stands for the incoming request's deadline in an entry's
// environment.
const requestBound = "request"

func (b *builder) walk(entryID string, en *summary.MapEntry) {
	start := b.funcs[en.Func]
	if start == nil {
		return
	}
	env := map[param]summary.MapBound{}
	if en.Request != -2 {
		env[param{en.Func, en.Request}] = summary.MapBound{State: requestBound}
	}
	queue := []step{{fn: start, env: env, via: []string{start.Display}, sites: []string{en.At}}}
	visited := map[string]bool{start.Key: true}
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
			b.m.Paths = append(b.m.Paths, Path{
				Entry:    entryID,
				Call:     id,
				Via:      append([]string(nil), s.via...),
				Deadline: b.deadline(bound),
				Findings: b.findings(append(append([]string(nil), s.sites...), c.At, bound.At)),
			})
		}
		if len(s.via) >= maxDepth {
			continue
		}
		for _, e := range s.fn.Edges {
			callee := b.funcs[e.Callee]
			if callee == nil || visited[callee.Key] || b.entryFuncs[callee.Key] {
				continue
			}
			visited[callee.Key] = true
			env := make(map[param]summary.MapBound, len(s.env)+len(e.Args))
			for k, v := range s.env {
				env[k] = v
			}
			for _, a := range e.Args {
				env[param{callee.Key, a.Param}] = resolve(a.Bound, s.env)
			}
			queue = append(queue, step{
				fn:    callee,
				env:   env,
				via:   append(append([]string(nil), s.via...), callee.Display),
				sites: append(append([]string(nil), s.sites...), e.At),
			})
		}
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
	return best
}

// callID returns the id of the call, adding it to the map on first use.
func (b *builder) callID(fn *summary.MapFunc, c summary.MapCall) string {
	k := c.At + "\x00" + c.Call
	if id, ok := b.callIDs[k]; ok {
		return id
	}
	id := fmt.Sprintf("c%d", len(b.m.Calls)+1)
	b.callIDs[k] = id
	owner := fn.Display
	if c.Through != "" {
		owner = b.display(c.Through)
	}
	b.m.Calls = append(b.m.Calls, Call{ID: id, Kind: callKind(c.Kind), Callee: c.Call, Func: owner, Pos: b.rel(c.At)})
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

// findings returns the findings at the given positions: the call sites
// on the way, the outbound call, and where its unbounded value is made.
func (b *builder) findings(at []string) []Finding {
	var out []Finding
	for _, f := range b.src.Findings {
		for _, p := range at {
			// By line: the engine keeps a call's parenthesis, the
			// analyzers report where the expression starts.
			if p != "" && fileLine(f.Pos) == fileLine(p) {
				out = append(out, Finding{Analyzer: f.Analyzer, Message: f.Message, Pos: b.rel(f.Pos)})
				break
			}
		}
	}
	return out
}

// fileLine drops the column of a file:line:col position.
func fileLine(pos string) string {
	if i := strings.LastIndexByte(pos, ':'); i > 0 {
		return pos[:i]
	}
	return pos
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
