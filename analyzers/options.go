package analyzers

import (
	"encoding/json"
	"flag"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/resilvet/resilvet/analyzers/hedgeidem"
	"github.com/resilvet/resilvet/analyzers/notimeout"
	"github.com/resilvet/resilvet/internal/knowledge"
	"github.com/resilvet/resilvet/internal/summary"
)

// Options are the settings of every resilvet analyzer, in one struct that
// each driver fills: the command line's flags (Flags), the golangci-lint
// plugin's settings, nogo's analyzer_flags. The zero value is the
// default. Nothing in the analyzers is configured any other way, so
// analyzers with different options can run in one process.
type Options struct {
	// Shared by every analyzer (-resilvet.<name> on the command line).

	// IncludeTests reports findings in _test.go files too.
	IncludeTests bool
	// Outbound lists extra outbound functions by full name, e.g.
	// "(*example.com/kv.Client).Get".
	Outbound []string
	// TimeoutInterceptors lists the functions that build gRPC client
	// interceptors setting a deadline, e.g. "example.com/rpc.Timeout".
	TimeoutInterceptors []string
	// IgnoreTransportTimeouts stops counting an http.Transport with
	// ResponseHeaderTimeout and a dialer with Timeout as bounding its
	// client (-resilvet.transport-timeouts=false).
	IgnoreTransportTimeouts bool

	// notimeout's (-notimeout.<name>): see notimeout.Config.

	Edge          bool
	Main          bool
	ClientTimeout time.Duration

	// retrystack's (-retrystack.<name>): see retrystack.Config.

	MinProduct int

	// hedgeidem's (-hedgeidem.<name>): see hedgeidem.Config; the lists
	// change the facts and go to the summary.

	// HedgeRetries is hedgeidem's retries mode: "all" (or ""), "blind"
	// or "off".
	HedgeRetries string
	// KeyHeaders lists the idempotency key headers (default
	// Idempotency-Key, X-Idempotency-Key); the first is the one fixes set.
	KeyHeaders []string
	// GRPCPrefixes lists the gRPC method-name prefixes of methods that
	// are not idempotent (default Create, Charge, Send, …).
	GRPCPrefixes []string
	// IdempotentMethods lists gRPC methods that are idempotent whatever
	// their names ("/shop.Orders/CreateOrder").
	IdempotentMethods []string

	// Map is set by the resilience map's driver (-f html, -f map-json),
	// not by a flag: the summary records the map's claims too. MapModule
	// is the path of the module mapped, when the driver knows it.
	Map       bool
	MapModule string
}

// Validate reports the first option a run could not use.
func (o *Options) Validate() error {
	if _, err := knowledge.NewExtensions(o.Outbound, o.TimeoutInterceptors); err != nil {
		return err
	}
	if err := validClientTimeout(o.ClientTimeout); err != nil {
		return err
	}
	switch o.HedgeRetries {
	case "", hedgeidem.RetriesAll, hedgeidem.RetriesBlind, hedgeidem.RetriesOff:
	default:
		return fmt.Errorf("hedgeidem retries must be all, blind or off, got %q", o.HedgeRetries)
	}
	for _, h := range o.KeyHeaders {
		if !validHeaderName(h) {
			return fmt.Errorf("key-headers: %q is not an HTTP header name", h)
		}
	}
	for _, p := range o.GRPCPrefixes {
		if p == "" || strings.ToUpper(p[:1]) != p[:1] {
			return fmt.Errorf("grpc-prefixes: %q must start with an upper-case letter, as Go method names do", p)
		}
	}
	for _, m := range o.IdempotentMethods {
		svc, meth, ok := strings.Cut(strings.TrimPrefix(m, "/"), "/")
		if !ok || svc == "" || meth == "" || strings.Contains(meth, "/") {
			return fmt.Errorf("idempotent-methods: %q must be a gRPC method name, /package.Service/Method", m)
		}
	}
	if o.MinProduct < 0 {
		return fmt.Errorf("min-product must be 0 (report any nesting) or a positive number of attempts, got %d", o.MinProduct)
	}
	return nil
}

func validClientTimeout(d time.Duration) error {
	if d < 0 || d%time.Millisecond != 0 {
		return fmt.Errorf("client-timeout must be a positive whole number of milliseconds (or 0 for the default), got %s", d)
	}
	return nil
}

// validHeaderName reports whether s is an HTTP header field name (a
// token).
func validHeaderName(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if r <= ' ' || r >= 0x7f || strings.ContainsRune("\"(),/:;<=>?@[\\]{}", r) {
			return false
		}
	}
	return true
}

// summaryConfig is the part of the options the summary analyzer reads.
func (o *Options) summaryConfig() summary.Config {
	return summary.Config{
		Outbound: o.Outbound, TimeoutInterceptors: o.TimeoutInterceptors, IgnoreTransportTimeouts: o.IgnoreTransportTimeouts,
		KeyHeaders: o.KeyHeaders, GRPCPrefixes: o.GRPCPrefixes, IdempotentMethods: o.IdempotentMethods,
		Map: o.Map, MapModule: o.MapModule,
	}
}

// SummaryKey identifies the options that change the summaries (and so
// the facts): analyzers whose keys are equal can share one summary
// analyzer. Lists are compared as sets: an empty list is no list, and
// order and repeats do not matter.
func (o *Options) SummaryKey() string {
	c := o.summaryConfig()
	c.Outbound, c.TimeoutInterceptors = asSet(c.Outbound), asSet(c.TimeoutInterceptors)
	c.GRPCPrefixes, c.IdempotentMethods = asSet(c.GRPCPrefixes), asSet(c.IdempotentMethods)
	return encode(c)
}

// Key identifies every option's value, for caches of findings, with
// lists compared as sets as in SummaryKey.
func (o *Options) Key() string {
	c := *o
	c.Outbound, c.TimeoutInterceptors = asSet(c.Outbound), asSet(c.TimeoutInterceptors)
	c.GRPCPrefixes, c.IdempotentMethods = asSet(c.GRPCPrefixes), asSet(c.IdempotentMethods)
	return encode(c)
}

// asSet returns names sorted without repeats, or nil when there are none.
func asSet(names []string) []string {
	if len(names) == 0 {
		return nil
	}
	set := slices.Clone(names)
	slices.Sort(set)
	return slices.Compact(set)
}

func encode(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic("internal error: options do not encode: " + err.Error())
	}
	return string(b)
}

// SharedFlags registers the shared options on fs as prefix+name
// (include-tests, outbound, timeout-interceptors, transport-timeouts),
// filling o. The command line's prefix is "resilvet.".
func (o *Options) SharedFlags(fs *flag.FlagSet, prefix string) {
	fs.BoolVar(&o.IncludeTests, prefix+"include-tests", o.IncludeTests, "report findings in _test.go files too")
	fs.Var(namesFlag{&o.Outbound}, prefix+"outbound", "comma-separated full names of extra outbound functions, e.g. (*example.com/kv.Client).Get")
	fs.Var(namesFlag{&o.TimeoutInterceptors}, prefix+"timeout-interceptors", "comma-separated full names of functions that build gRPC client interceptors setting a deadline, e.g. example.com/rpc.Timeout")
	fs.Var(notFlag{&o.IgnoreTransportTimeouts}, prefix+"transport-timeouts", "count an http.Transport with ResponseHeaderTimeout and a dialer with Timeout as bounding its client (default true; false: only a client Timeout or a deadline bounds a call)")
}

// AnalyzerFlags registers the named analyzer's own options on fs as
// prefix+name, filling o. The command line's prefix is the analyzer's
// name and a dot (-notimeout.edge), as x/tools' checker names them.
func (o *Options) AnalyzerFlags(fs *flag.FlagSet, analyzer, prefix string) {
	switch analyzer {
	case "notimeout":
	case "hedgeidem":
		fs.Var(choiceFlag{&o.HedgeRetries, []string{hedgeidem.RetriesAll, hedgeidem.RetriesBlind, hedgeidem.RetriesOff}}, prefix+"retries", "which retry layers around effects that are not idempotent to report: all, blind (only clients retrying every request whatever its method) or off")
		fs.Var(listFlag{&o.KeyHeaders}, prefix+"key-headers", "comma-separated idempotency key headers (default Idempotency-Key,X-Idempotency-Key); fixes set the first")
		fs.Var(listFlag{&o.GRPCPrefixes}, prefix+"grpc-prefixes", "comma-separated gRPC method-name prefixes of methods that are not idempotent (default "+strings.Join(knowledge.DefaultGRPCPrefixes, ",")+")")
		fs.Var(listFlag{&o.IdempotentMethods}, prefix+"idempotent-methods", "comma-separated gRPC methods that are idempotent whatever their names, e.g. /shop.Orders/CreateOrder")
		return
	case "retrystack":
		fs.Var(minProductFlag{&o.MinProduct}, prefix+"min-product", "report nested retry layers only when they multiply to more than this many attempts (0: any nesting)")
		return
	default:
		return
	}
	fs.BoolVar(&o.Edge, prefix+"edge", o.Edge, "report HTTP handlers whose r.Context() reaches an outbound call with no deadline")
	fs.BoolVar(&o.Main, prefix+"main", o.Main, "report in package main of one-shot tools too")
	fs.Var(durationFlag{&o.ClientTimeout}, prefix+"client-timeout", "the timeout the suggested fixes write (default "+notimeout.DefaultClientTimeout.String()+")")
}

// namesFlag is a comma-separated list of full function names, validated
// as it is set, so a typo fails at start-up. Each use of the flag adds
// to the list.
type namesFlag struct{ names *[]string }

func (f namesFlag) String() string {
	if f.names == nil {
		return ""
	}
	return strings.Join(*f.names, ",")
}

func (f namesFlag) Set(v string) error {
	names, err := knowledge.SplitNames(v)
	if err != nil {
		return err
	}
	*f.names = append(*f.names, names...)
	return nil
}

// durationFlag accepts only durations a fix can write.
type durationFlag struct{ d *time.Duration }

func (f durationFlag) String() string {
	if f.d == nil || *f.d == 0 {
		return notimeout.DefaultClientTimeout.String()
	}
	return f.d.String()
}

func (f durationFlag) Set(s string) error {
	d, err := time.ParseDuration(s)
	if err != nil {
		return err
	}
	if d <= 0 || validClientTimeout(d) != nil {
		return fmt.Errorf("client-timeout must be a positive whole number of milliseconds, got %s", s)
	}
	*f.d = d
	return nil
}

// minProductFlag accepts 0 or a positive count.
type minProductFlag struct{ n *int }

func (f minProductFlag) String() string {
	if f.n == nil {
		return "0"
	}
	return strconv.Itoa(*f.n)
}

func (f minProductFlag) Set(s string) error {
	n, err := strconv.Atoi(s)
	if err != nil || n < 0 {
		return fmt.Errorf("min-product must be 0 or a positive number of attempts, got %q", s)
	}
	*f.n = n
	return nil
}

// listFlag is a comma-separated list of words, validated with the other
// options (Validate). Each use of the flag adds to the list.
type listFlag struct{ list *[]string }

func (f listFlag) String() string {
	if f.list == nil {
		return ""
	}
	return strings.Join(*f.list, ",")
}

func (f listFlag) Set(v string) error {
	for _, s := range strings.Split(v, ",") {
		if s = strings.TrimSpace(s); s != "" {
			*f.list = append(*f.list, s)
		}
	}
	return nil
}

// choiceFlag is one of a few words.
type choiceFlag struct {
	v       *string
	choices []string
}

func (f choiceFlag) String() string {
	if f.v == nil || *f.v == "" {
		if len(f.choices) > 0 {
			return f.choices[0]
		}
		return ""
	}
	return *f.v
}

func (f choiceFlag) Set(s string) error {
	if !slices.Contains(f.choices, s) {
		return fmt.Errorf("want one of %s, got %q", strings.Join(f.choices, ", "), s)
	}
	*f.v = s
	return nil
}

var (
	_ flag.Value = listFlag{}
	_ flag.Value = choiceFlag{}
	_ flag.Value = namesFlag{}
	_ flag.Value = durationFlag{}
	_ flag.Value = minProductFlag{}
)

// notFlag is a boolean flag that sets the negation of its field, so that
// an option whose default is on keeps a zero value that means default.
type notFlag struct{ off *bool }

func (f notFlag) String() string {
	if f.off == nil {
		return "true"
	}
	return strconv.FormatBool(!*f.off)
}

func (f notFlag) Set(s string) error {
	v, err := strconv.ParseBool(s)
	if err != nil {
		return fmt.Errorf("want true or false, got %q", s)
	}
	*f.off = !v
	return nil
}

// IsBoolFlag lets -name stand for -name=true.
func (f notFlag) IsBoolFlag() bool { return true }
