// Package resilmap is the resilience map of a service: for each entry
// point (an HTTP handler, a gRPC method, main, a goroutine started at
// start-up, a periodic job), the outbound calls it reaches and what
// protects each one on that path: the deadline that bounds it and where
// it comes from, the retry layers around it and their product, hedging
// and whether the operation is idempotent, a breaker, and the findings on
// the path. The map is built from the summary engine's claims; this
// package holds its data model (map-json) and renders it as one
// self-contained HTML page.
package resilmap

import (
	"encoding/json"
	"fmt"
	"io"
)

// Version is the map-json format version this package writes and reads.
const Version = 1

// Map is a service's resilience map. Entries, Calls and Paths are sorted
// (by position, then name) so that the output is stable.
type Map struct {
	Version int    `json:"version"`
	Module  string `json:"module"`
	// Entries are the service's entry points.
	Entries []Entry `json:"entries"`
	// Calls are the outbound calls reached from at least one entry.
	Calls []Call `json:"calls"`
	// Paths join an entry to a call it reaches, with what protects the
	// call on that path: the same call can be bounded from one entry
	// (a request context) and not from another (main's Background).
	Paths []Path `json:"paths"`
	// Unmapped are the findings that lie on no path: in code no entry
	// reaches as far as the map sees, or at no call site on the way. With
	// the paths' findings, they are every finding of a plain run.
	Unmapped []Finding `json:"unmappedFindings,omitempty"`
	// NotLoaded are the packages that did not load: the map leaves out
	// their entries and calls.
	NotLoaded []LoadError `json:"notLoaded,omitempty"`
}

// LoadError is a package that did not load, and why.
type LoadError struct {
	Package string `json:"package,omitempty"` // its import path, when the loader says it
	Message string `json:"message"`
}

// Entry kinds.
const (
	EntryHTTP      = "http"      // a handler registered on a mux or router
	EntryGRPC      = "grpc"      // a method of a registered gRPC service
	EntryMain      = "main"      // func main
	EntryGoroutine = "goroutine" // a goroutine started at start-up
	EntryPeriodic  = "periodic"  // a job run on a ticker, timer or schedule
)

// Entry is an entry point of the service.
type Entry struct {
	ID   string `json:"id"`   // "e1", unique in the map
	Kind string `json:"kind"` // one of the Entry* kinds
	// Name is what the entry answers to: "GET /orders/{id}" for HTTP,
	// "/shop.Orders/Create" for gRPC, "main", or the started function.
	Name string `json:"name"`
	Func string `json:"func"` // the entry's function, by full name
	Pos  string `json:"pos"`  // where it is registered or started: file:line:col
	// NotFollowed says why the map could not follow the entry into its
	// handler ("the handler is chosen at run time among several"); its
	// paths, if any, stop there.
	NotFollowed string `json:"notFollowed,omitempty"`
}

// Call kinds.
const (
	CallHTTP  = "http"
	CallGRPC  = "grpc"
	CallSQL   = "sql"
	CallDial  = "dial"
	CallQueue = "queue"
	CallCache = "cache" // redis, memcached
	CallOther = "other"
)

// Call is an outbound call site.
type Call struct {
	ID   string `json:"id"`   // "c1", unique in the map
	Kind string `json:"kind"` // one of the Call* kinds
	// Target is what the call reaches when the code says: an HTTP host
	// or URL, a gRPC method, a SQL statement's verb and table, an
	// address; empty when it is not known.
	Target string `json:"target,omitempty"`
	Callee string `json:"callee"` // the API called, by full name: "(*net/http.Client).Do"
	Func   string `json:"func"`   // the function that makes the call
	Pos    string `json:"pos"`
	// Through is set for a call made inside a dependency: the
	// dependency's function that Func calls at Pos, the module's own
	// code ("sqlx.DB.GetContext").
	Through string `json:"through,omitempty"`
}

// Deadline sources.
const (
	DeadlineRequest = "request" // the incoming request's context
	DeadlineTimeout = "timeout" // a context deadline set on the way (WithTimeout)
	DeadlineClient  = "client"  // the client's own timeout (http.Client.Timeout, an interceptor)
	DeadlineNone    = "none"    // nothing bounds the call
	DeadlineUnknown = "unknown" // the engine could not tell
)

// Deadline is what bounds a call on a path, and where that is set.
type Deadline struct {
	Source string `json:"source"`         // one of the Deadline* sources
	What   string `json:"what,omitempty"` // "context.WithTimeout(3s)", "http.Client{Timeout: 5s}"
	Pos    string `json:"pos,omitempty"`
}

// The counts of Retry.Product and Layer.Attempts that are not numbers.
const (
	AttemptsUnbounded = "unbounded" // the layer retries until it succeeds or its context ends
	AttemptsUnknown   = "unknown"   // the count is not a constant the engine can see
)

// Layer is one retry layer, hedge or breaker on a path.
type Layer struct {
	What     string `json:"what"`               // "retry.Do", "loop", "hedgedhttp client", "breaker.Do"
	Attempts string `json:"attempts,omitempty"` // "3", AttemptsUnbounded or AttemptsUnknown; retry layers only
	Pos      string `json:"pos"`
}

// Retry is the retry layers around a call on a path, outermost first, and
// the attempts they multiply to.
type Retry struct {
	Product string  `json:"product"` // "9", AttemptsUnbounded or AttemptsUnknown
	Layers  []Layer `json:"layers"`
}

// Finding is a resilvet diagnostic on a path.
type Finding struct {
	Analyzer string `json:"analyzer"`
	Message  string `json:"message"`
	Pos      string `json:"pos"`
}

// Path is an entry reaching a call, with what protects the call there.
type Path struct {
	Entry string `json:"entry"` // an Entry.ID
	Call  string `json:"call"`  // a Call.ID
	// Via lists the functions from the entry's to the call's, by full
	// name, both included.
	Via      []string `json:"via"`
	Deadline Deadline `json:"deadline"`
	Retry    *Retry   `json:"retry,omitempty"`
	// Hedge is the hedge that may send the call twice, if any.
	Hedge *Layer `json:"hedge,omitempty"`
	// Idempotent says whether the operation can safely run twice: nil
	// when not known (reads and writes the engine does not classify).
	Idempotent *bool     `json:"idempotent,omitempty"`
	Breaker    *Layer    `json:"breaker,omitempty"`
	Findings   []Finding `json:"findings,omitempty"`
}

// WriteJSON writes m as map-json, indented.
func WriteJSON(w io.Writer, m *Map) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(m)
}

// ReadJSON reads map-json and checks that every path names an entry and
// a call of the map.
func ReadJSON(r io.Reader) (*Map, error) {
	var m Map
	if err := json.NewDecoder(r).Decode(&m); err != nil {
		return nil, fmt.Errorf("resilience map: %v", err)
	}
	if m.Version != Version {
		return nil, fmt.Errorf("resilience map: version %d, this resilvet reads version %d", m.Version, Version)
	}
	if err := m.Check(); err != nil {
		return nil, err
	}
	return &m, nil
}

// Check reports the first inconsistency in m: an ID used twice, or a
// path naming an entry or a call the map does not have.
func (m *Map) Check() error {
	entries, calls := map[string]bool{}, map[string]bool{}
	for _, e := range m.Entries {
		if e.ID == "" {
			return fmt.Errorf("resilience map: entry %q has no id", e.Name)
		}
		if entries[e.ID] {
			return fmt.Errorf("resilience map: entry id %q used twice", e.ID)
		}
		entries[e.ID] = true
	}
	for _, c := range m.Calls {
		if c.ID == "" {
			return fmt.Errorf("resilience map: the call at %s has no id", c.Pos)
		}
		if calls[c.ID] {
			return fmt.Errorf("resilience map: call id %q used twice", c.ID)
		}
		calls[c.ID] = true
	}
	for _, p := range m.Paths {
		if !entries[p.Entry] {
			return fmt.Errorf("resilience map: a path names entry %q, which the map does not have", p.Entry)
		}
		if !calls[p.Call] {
			return fmt.Errorf("resilience map: a path names call %q, which the map does not have", p.Call)
		}
	}
	return nil
}
