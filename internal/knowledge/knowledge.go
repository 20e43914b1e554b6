// Package knowledge holds what resilvet knows about Go APIs that types alone
// cannot tell: which calls reach the network, which have a context-taking
// twin, which create root contexts, which consume a context only for its
// values, and (for the later analyzers) which retry, hedge or have
// non-idempotent effects.
//
// Every table is keyed by the full name of a function or method in the
// format of (*types.Func).FullName, for example
// "(*database/sql.DB).QueryContext" or "net/http.Get". Lookups are total:
// a name not in a table yields the zero value and false.
//
// The tables are data only; the rules that derive the same knowledge from
// types (a method M whose type also has MContext) live in the analyzers'
// shared summary package, which consults these tables first.
package knowledge

import (
	"fmt"
	"path"
	"sort"
	"strings"
	"unicode"
)

// Rewrite says how a call to a non-context function is turned into a call
// to its context-taking twin. The rewrites are mechanical: each produces an
// expression of the same type from the same arguments.
type Rewrite int

const (
	// NoRewrite means there is no mechanical rewrite (the twin returns a
	// different type or needs new statements); the finding has no fix.
	NoRewrite Rewrite = iota
	// RenameInsertCtx renames the function or method to the twin and
	// inserts the context as the first argument: db.Query(q) becomes
	// db.QueryContext(ctx, q).
	RenameInsertCtx
	// RenameInsertCtxAppendNil is RenameInsertCtx plus a trailing nil
	// argument: db.Begin() becomes db.BeginTx(ctx, nil).
	RenameInsertCtxAppendNil
	// NetDialer rewrites net.Dial(n, a) to (&net.Dialer{}).DialContext(ctx, n, a)
	// and net.DialTimeout(n, a, t) to (&net.Dialer{Timeout: t}).DialContext(ctx, n, a).
	NetDialer
	// DefaultResolver rewrites net.LookupX(args) to
	// net.DefaultResolver.LookupX(ctx, args); Extra is prepended to the
	// arguments after ctx (net.LookupIP needs the network "ip").
	DefaultResolver
)

// Twin describes the context-taking counterpart of a call that takes none.
type Twin struct {
	// Name is the full name of the twin, for messages.
	Name string
	// Display is how the twin is named in messages and fix titles,
	// in source form ("db.QueryContext", "(*net.Dialer).DialContext").
	Display string
	// Rewrite says how to produce the twin call mechanically.
	Rewrite Rewrite
	// Method is the twin's own name, used by the rename rewrites.
	Method string
	// Extra are literal arguments inserted after ctx (DefaultResolver).
	Extra string
	// Bounded is set when the plain call takes a timeout of its own
	// (net.DialTimeout): without the context it loses cancellation, not
	// its bound, so a helper that calls it drops nothing that matters.
	Bounded bool
}

// OutboundKind classifies the work a call performs outside the process.
type OutboundKind int

const (
	NotOutbound OutboundKind = iota
	HTTP
	SQL
	Net
	DNS
	TLS
	GRPC
	Exec
	Redis
	Mongo
	AWS
	NATS
	Elasticsearch
	Kubernetes
	Custom
)

var outboundKindNames = [...]string{"none", "http", "sql", "net", "dns", "tls", "grpc", "exec", "redis", "mongo", "aws", "nats", "elasticsearch", "kubernetes", "custom"}

func (k OutboundKind) String() string {
	if int(k) < len(outboundKindNames) {
		return outboundKindNames[k]
	}
	return fmt.Sprintf("OutboundKind(%d)", int(k))
}

// Outbound describes a call that leaves the process.
type Outbound struct {
	Kind OutboundKind
	// DefaultClient is set for the net/http helpers that use
	// http.DefaultClient, which has no timeout.
	DefaultClient bool
	// CtxParam is the index of the context parameter, or -1 when the call
	// takes none (its deadline must come from elsewhere).
	CtxParam int
	// Bound says what bounds the call in time, for notimeout. The zero
	// value, Unchecked, means notimeout has nothing to say about it.
	Bound Bound
}

// Bound says what bounds an outbound call in time.
type Bound int

const (
	// Unchecked calls are outbound work (for ctxdrop and the summaries)
	// that notimeout does not judge: lookups with the resolver's own
	// timeouts, child processes, lazy dials, clients with a default
	// timeout of their own.
	Unchecked Bound = iota
	// ByContext calls are bounded when the context at CtxParam has a
	// deadline.
	ByContext
	// ByClientOrRequest is (*http.Client).Do: bounded when the client has
	// a Timeout or the request's context has a deadline.
	ByClientOrRequest
	// ByClient calls build their request with context.Background(): only
	// the client's Timeout bounds them ((*http.Client).Get).
	ByClient
	// Never calls have no timeout and take no context: http.Get uses
	// http.DefaultClient, net.Dial has no dial timeout.
	Never
	// ByDialer calls are bounded by the Timeout or Deadline of their
	// *net.Dialer receiver (or argument, for tls.DialWithDialer), or, when
	// CtxParam >= 0, by a context deadline.
	ByDialer
	// ByTwinContext are the database/sql methods without a context: they
	// use context.Background(). Inside a function with a context in scope
	// they are ctxdrop's findings; elsewhere notimeout's.
	ByTwinContext
)

// RetryLayer describes a library call that retries: the function it is
// given, or, for a retrying client's method, its own request.
type RetryLayer struct {
	// DefaultAttempts is the number of attempts with default options
	// (the first included); 0 means unbounded by count (bounded only by
	// time or the context).
	DefaultAttempts int
	// FuncArg is the index of the argument holding the retried function,
	// or -1 when the call retries its own work (retryablehttp's Do).
	FuncArg int
	// OptionsFrom is the index of the first argument that can change the
	// count (a backoff value, variadic options, a policy), or -1.
	OptionsFrom int
	// Policy is set when the argument at OptionsFrom is a
	// *runtime/retry.Policy: its MaxAttempts (0 for the default) and
	// AllowNested fields decide.
	Policy bool
	// RetriesField names the receiver's field that holds the retries
	// after the first attempt (retryablehttp's RetryMax), for a retrying
	// client's method: attempts are its value plus one.
	RetriesField string
	// OptionsField names the field of the constructor's options struct
	// (its first argument) that holds the retries after the first
	// attempt (go-redis's Options.MaxRetries), for a retrying client's
	// method: attempts are its value plus one; 0 keeps the default and
	// -1 means none.
	OptionsField string
	// ContextOption is the option, or the wrapper of the backoff value,
	// that gives the layer the caller's context (retry-go's Context,
	// backoff v4's WithContext), and ContextMethod the executor's method
	// that does (failsafe-go's WithContext): without it the layer goes on
	// retrying after the caller gave up. ContextHint says how, for the
	// message. Layers taking the context as an argument leave them empty.
	ContextOption, ContextMethod, ContextHint string
	// CountVar names the package variable of the layer's package that
	// holds the count (minio-go's MaxRetry): a constant the analysed
	// package stores there replaces the default.
	CountVar string
	// Retryer is set for an SDK client's method whose count comes from
	// the retryer the client was built with (RetryerConfigOf) and the
	// option functions the call is given, from OptionsFrom.
	Retryer bool
	// Policies is set for an executor's method (failsafe-go's Run, Get):
	// the receiver was made from a list of policies, and its retry
	// policies decide the count (RetryPolicyOf); without one it makes a
	// single attempt.
	Policies bool
	// ConstructorOptions is set for an SDK client's method whose client
	// value was constructed by a call given variadic options
	// (openai.NewClient(option.WithMaxRetries(n))): those options set
	// the count, then the request's own (the arguments from
	// OptionsFrom).
	ConstructorOptions bool
	// BackOffObject is set when the argument at OptionsFrom is a backoff
	// object (cenkalti/backoff v4): layers drawing on one object share
	// its budget, so they do not multiply.
	BackOffObject bool
	// YieldsWhenNested is true for layers that make a single attempt when
	// they run inside another such layer that tells them so (resilvet's
	// runtime: the attempt in the context): nested inside each other they
	// do not multiply, unless the inner one's policy sets AllowNested.
	YieldsWhenNested bool
}

// RetryOption says how a retry library's option, or a wrapper of its
// backoff value, changes a layer's attempt count.
type RetryOption struct {
	// Arg is the argument holding the count, or -1.
	Arg int
	// Add is added to the argument's value: WithMaxRetries counts
	// retries, so attempts are n+1.
	Add int
	// ZeroUnbounded is set when a count of 0 means no limit
	// (retry-go's Attempts(0), backoff v5's WithMaxTries(0)).
	ZeroUnbounded bool
	// Unbounded is set for options that lift the limit (UntilSucceeded).
	Unbounded bool
	// PassThrough is set for wrappers whose count is their argument
	// Arg's (backoff.WithContext(b, ctx)).
	PassThrough bool
	// WrapsBackOff is set for wrappers of the backoff object given as
	// their first argument (WithMaxRetries(b, n), WithContext(b, ctx)):
	// the result draws on that object's budget.
	WrapsBackOff bool
}

// NextBackOff reports whether the named function hands out a backoff
// object's next delay (cenkalti/backoff's NextBackOff methods): a loop
// calling it draws on that object's budget.
func NextBackOff(fullName string) bool {
	i := strings.LastIndexByte(fullName, '.')
	if i < 0 || fullName[i+1:] != "NextBackOff" {
		return false
	}
	recv := strings.TrimLeft(fullName[:i], "(*")
	j := strings.LastIndexByte(recv, '.')
	return j >= 0 && backOffPackages[recv[:j]]
}

// RetryerConfig describes an SDK whose clients take their retries from a
// retryer set where they are built (the AWS SDK v2): the shared config's
// options, the client's option functions, and the call's own. Fields
// name functions and types by their full names.
type RetryerConfig struct {
	// Packages is the prefix of the clients' import paths.
	Packages string
	// FromConfig is the constructor taking the shared config first, and
	// FromOptions the one taking the options struct; option functions
	// follow in both.
	FromConfig, FromOptions string
	// LoadConfig builds the shared config from option functions.
	LoadConfig string
	// ConfigMaxAttempts and ConfigRetryer are LoadConfig's options that set
	// the count (0 keeps the default) and the retryer (given a function
	// returning it).
	ConfigMaxAttempts, ConfigRetryer string
	// MaxAttemptsField and RetryerField are the client options' fields
	// for the same.
	MaxAttemptsField, RetryerField string
	// NoRetries is the retryer type that makes one attempt.
	NoRetries string
	// WithMaxAttempts wraps a retryer with a count (its second argument).
	WithMaxAttempts string
	// Standard builds the default retryer from option functions setting
	// StandardField; it makes StandardAttempts without them.
	Standard, StandardField string
	StandardAttempts        int
}

// RetryerConfigOf returns the retryer description of the clients of the
// package at path, if they take a retryer.
func RetryerConfigOf(path string) (RetryerConfig, bool) {
	for _, c := range retryerConfigs {
		if strings.HasPrefix(path, c.Packages) {
			return c, true
		}
	}
	return RetryerConfig{}, false
}

// CallOptionRetries describes clients generated with per-method default
// call options, one of which turns on the retries of the library every
// method calls through (Google Cloud's clients and gax-go's Invoke): a
// method whose defaults hold the retry option retries until the call's
// deadline, and a call passing the option turns it on or off.
type CallOptionRetries struct {
	// Packages is the prefix of the clients' import paths.
	Packages string
	// Option is the variadic call option type every method takes last.
	Option string
	// Retry is the option that sets the retries, given a function that
	// returns the retryer (nil: no retries).
	Retry string
	// OptionsField is the client's field holding the per-method options,
	// a pointer to a struct with a field per method.
	OptionsField string
	// DefaultsPrefix begins the name of the functions returning that
	// struct's defaults; REST marks a transport's second set, read when
	// no other is found.
	DefaultsPrefix, REST string
}

// CallOptionRetriesOf returns the description of the generated clients
// of the package at path, if its clients are such clients.
func CallOptionRetriesOf(path string) (CallOptionRetries, bool) {
	for _, c := range callOptionRetries {
		if strings.HasPrefix(path, c.Packages) {
			return c, true
		}
	}
	return CallOptionRetries{}, false
}

// TwinOf reports the context-taking twin of the named function, from the
// table only. Analyzers also apply the general naming rule (see summary).
func TwinOf(fullName string) (Twin, bool) {
	t, ok := twins[fullName]
	return t, ok
}

// OutboundOf reports whether the named function performs outbound I/O,
// from the exact table, then the patterns (whose methods take a context
// first: the caller checks the signature). Extensions.OutboundOf adds the
// user's names.
func OutboundOf(fullName string) (Outbound, bool) {
	o, ok := outbound[fullName]
	if ok {
		return o, true
	}
	for _, p := range outboundPatterns {
		if !strings.HasPrefix(fullName, p.prefix) {
			continue
		}
		if m, _ := path.Match(p.pattern, fullName); m {
			return p.Outbound, true
		}
	}
	return Outbound{}, false
}

// TimeoutInterceptorOf reports whether the named function builds a gRPC
// client interceptor that puts a deadline on every call without one.
func TimeoutInterceptorOf(fullName string) bool { return timeoutInterceptors[fullName] }

// IsRootContext reports whether the named function returns a context that
// never expires and carries no request values (context.Background, TODO).
func IsRootContext(fullName string) bool { return rootContexts[fullName] }

// IsValueOnlyContextSink reports whether the named function uses its
// context only for values, never for cancellation (log/slog), so passing a
// root context to it drops nothing that matters for resilience.
func IsValueOnlyContextSink(fullName string) bool { return valueOnlySinks[fullName] }

// IsLocalRead reports whether calling the method on a value of the named
// type ("sigs.k8s.io/controller-runtime/pkg/cache.Cache") reads a local
// copy of remote state and waits on no peer.
func IsLocalRead(typeName, method string) bool { return localReads[typeName+"."+method] }

// IsMetricOption reports whether the named type is a metric API's option
// for recording a measurement ("go.opentelemetry.io/otel/metric.AddOption"):
// a method taking them records a metric and reads its context for values.
func IsMetricOption(typeName string) bool { return metricOptions[typeName] }

// IsContextDerivation reports whether the named function returns a
// context derived from the one it is given and does nothing else with it
// (context.WithValue, a tracer's Start): a context handed to it matters
// only as much as the derived one does.
func IsContextDerivation(fullName string) bool { return derivations[fullName] }

// AddsOnlyValues reports whether the named derivation adds values to the
// context it is given and no deadline or cancellation
// (context.WithValue, a span or metadata attached): what it returns
// lives exactly as long as its parent.
func AddsOnlyValues(fullName string) bool { return valueDerivations[fullName] }

// MakesRootRequest reports whether the named function returns an
// *http.Request whose context is context.Background() (http.ReadRequest,
// http.NewRequest): no caller's context travels in it.
func MakesRootRequest(fullName string) bool { return rootRequests[fullName] }

// IsServerDirectedGate reports whether the named method gates the rounds
// of a loop that retries only when the server asks it to
// ("(k8s.io/client-go/rest.WithRetry).Before").
func IsServerDirectedGate(fullName string) bool { return serverDirectedGates[fullName] }

// Hijacks reports whether the named function takes a served request's
// connection over from the server (Hijack, a websocket upgrade): after
// it, the request's context ends only when the handler returns.
func Hijacks(fullName string) bool { return hijackers[fullName] }

// IsLoggingOrMetricsName reports whether a function or method name says
// it logs, traces or records metrics (Printf, Infof, Debug, LogAttrs,
// recordConnectionMetrics…). Third-party loggers and metrics callbacks
// take a context for its values (trace IDs, exemplars), not for
// cancellation, so a root context passed to them drops nothing that
// matters for resilience. The rule only ever silences findings; it never
// creates one.
func IsLoggingOrMetricsName(name string) bool {
	for _, p := range []string{"Log", "Print", "Debug", "Info", "Warn", "Error", "Trace", "Fatal", "Panic"} {
		if rest, ok := strings.CutPrefix(name, p); ok && (rest == "" || rest == "f" || rest == "ln" || rest == "w" || rest == "Context" || rest == "Attrs" || rest == "Ctx") {
			return true
		}
	}
	return strings.Contains(name, "Metric")
}

// IsCleanupFuncName reports whether a function is, by its conventional
// name, the release of a resource (io.Closer, servers' Shutdown and
// Stop). Such functions make a fresh context on purpose: the caller's may
// already be done. Like IsLoggingOrMetricsName it only ever silences.
func IsCleanupFuncName(name string) bool {
	switch name {
	case "Close", "Shutdown", "Stop", "GracefulStop":
		return true
	}
	return false
}

// Waits reports whether the named standard-library function blocks
// until something happens (a sleep, a wait for other goroutines): with
// outbound calls and channel operations, what makes a plain function the
// variant without a context of one that takes one.
func Waits(fullName string) bool { return waits[fullName] }

// JoinsGoroutines reports whether the named function waits for a group
// of goroutines its caller started (sync.WaitGroup's Wait, errgroup's).
func JoinsGoroutines(fullName string) bool { return goroutineJoins[fullName] }

// StartsGroupGoroutine reports whether the named function runs the
// function it is given on a goroutine of a group the caller can wait for
// (sync.WaitGroup's Go, errgroup's).
func StartsGroupGoroutine(fullName string) bool { return goroutineStarts[fullName] }

// IsMigrationName reports whether a function or method name says it
// migrates a schema (Migrate, RunMigrations, Migrator.Up's type is
// checked by its caller) or sets one up (EnsureSchema, initSchema,
// SetSchemaVersion, IsSchemaUpToDate; a qualified name is judged by its
// last element): start-up work whose statements are
// left unbounded on purpose. "Schema" alone is not enough: a schema
// registry's FetchSchema is a request like any other. Like
// IsCleanupFuncName it only ever silences.
func IsMigrationName(name string) bool {
	lower := strings.ToLower(name)
	if strings.Contains(lower, "migrat") {
		return true
	}
	// The function's own name, not its package's or type's: every
	// function of a package named schemasetup is not set-up.
	lower = lower[strings.LastIndexByte(lower, '.')+1:]
	if !strings.Contains(lower, "schema") {
		return false
	}
	for _, w := range schemaSetUpWords {
		if strings.Contains(lower, w) {
			return true
		}
	}
	return false
}

// schemaSetUpWords are the words that, beside "schema" in a name, say the
// function creates, upgrades or checks the database's own schema.
var schemaSetUpWords = []string{"ensure", "init", "create", "setup", "apply", "upgrade", "version", "uptodate", "bootstrap"}

// IsStartupName reports whether a function or method name says it runs
// once while a program starts: main and init, constructors and set-up
// (NewAPI, Open, Init, Setup, Configure, Bootstrap). Work such a function
// does once, with a context it makes itself, is start-up: a hang fails the start and the readiness check, with no
// request or caller deadline to carry. Like IsMigrationName it only ever
// silences, and only straight-line work: a loop or a goroutine started
// there outlives the start.
func IsStartupName(name string) bool {
	if name == "main" || name == "init" {
		return true
	}
	for _, p := range []string{"New", "Open", "Init", "Setup", "SetUp", "Configure", "Bootstrap"} {
		if rest, ok := strings.CutPrefix(name, p); ok && (rest == "" || unicode.IsUpper(rune(rest[0])) || rest[0] == '_') {
			return true
		}
	}
	return false
}

// IsSchemaStatement reports whether an SQL statement, past blank lines
// and line comments, is schema set-up a service runs at start-up or in a
// migration: it starts with a schema keyword (CREATE, ALTER, DROP,
// PRAGMA, GRANT, REVOKE, COMMENT), or it is a SELECT that reads the
// database's own catalog (information_schema, pg_catalog, sqlite_master,
// SELECT version()), which set-up code runs to decide what to create.
func IsSchemaStatement(q string) bool {
	for {
		q = strings.TrimLeft(q, " \t\r\n;")
		if !strings.HasPrefix(q, "--") {
			break
		}
		i := strings.IndexByte(q, '\n')
		if i < 0 {
			return false
		}
		q = q[i+1:]
	}
	fields := strings.FieldsFunc(q, func(r rune) bool { return r == ' ' || r == '\t' || r == '\n' || r == '\r' || r == '(' })
	if len(fields) == 0 {
		return false
	}
	switch strings.ToUpper(fields[0]) {
	case "CREATE", "ALTER", "DROP", "PRAGMA", "GRANT", "REVOKE", "COMMENT":
		return true
	case "SELECT":
		return readsCatalog(strings.ToLower(q))
	}
	return false
}

// readsCatalog reports whether a lower-cased SELECT reads the database's
// catalog: its FROM names a catalog schema or table, or it asks for the
// server's version.
func readsCatalog(q string) bool {
	if strings.HasPrefix(strings.Join(strings.Fields(q), ""), "selectversion()") {
		return true
	}
	_, from, ok := strings.Cut(q, " from ")
	if !ok {
		return false
	}
	fields := strings.Fields(from)
	if len(fields) == 0 {
		return false
	}
	table := strings.Trim(fields[0], "`\"(")
	for _, c := range catalogTables {
		if table == c || strings.HasPrefix(table, c+".") {
			return true
		}
	}
	return false
}

// IsSQLPrepare reports whether the named function prepares a statement.
func IsSQLPrepare(fullName string) bool {
	switch fullName {
	case "(*database/sql.DB).Prepare", "(*database/sql.DB).PrepareContext",
		"(*database/sql.Conn).PrepareContext", "(*database/sql.Tx).Prepare", "(*database/sql.Tx).PrepareContext":
		return true
	}
	return false
}

// IsCleanupSink reports whether the named function is meant to be called
// with a fresh context after the request context is done (graceful
// shutdown), so a root context passed to it is deliberate. Besides the
// table, a name that says it stops, shuts down, closes, tears down or
// rolls back or exits (StopAndAwaitTerminated, ShutdownWithTimeout,
// Rollback, exitProcess) qualifies: cleanup after a failed start, or on
// the way out, runs when the caller's context may be done.
func IsCleanupSink(fullName string) bool {
	if cleanupSinks[fullName] {
		return true
	}
	name := fullName[strings.LastIndex(fullName, ".")+1:]
	for _, p := range []string{"Stop", "Shutdown", "Close", "Terminate", "Teardown", "TearDown", "Cleanup", "CleanUp", "Rollback", "Drain", "Exit"} {
		lower := strings.ToLower(p[:1]) + p[1:] // unexported helpers too: exitProcess
		for _, q := range []string{p, lower} {
			if rest, ok := strings.CutPrefix(name, q); ok && (rest == "" || rest[0] >= 'A' && rest[0] <= 'Z') {
				return true
			}
		}
	}
	return false
}

// RetainsContext reports whether the named function keeps its context
// for the lifetime of what it builds (an authenticated transport, a token
// source): a request's context there would break the client when the
// request ends, so a fresh context is the right one.
func RetainsContext(fullName string) bool { return retainingContext[fullName] }

// IsServe reports whether the named function starts a server: a package
// main that calls one is a service, not a one-shot tool.
func IsServe(fullName string) bool { return serves[fullName] }

// IsTestFramework reports whether an import path is a test framework:
// a package whose ordinary (non-_test.go) files import one is a test
// harness or an end-to-end suite, test code whatever its path. The
// standard "testing" package is not one here: a package may import it
// for a helper or two beside production code, and the functions that
// take a testing parameter are test code by their signature instead.
func IsTestFramework(path string) bool {
	for _, p := range testFrameworks {
		if path == p || strings.HasPrefix(path, p+"/") {
			return true
		}
	}
	return false
}

// IsEmbeddedSQLDriver reports whether an import path is a database/sql
// driver for an in-process database (SQLite, DuckDB): its calls do not
// wait on a remote peer.
func IsEmbeddedSQLDriver(path string) bool { return embeddedSQLDrivers[path] }

// IsRemoteSQLDriver reports whether an import path is (in) a driver of a
// networked database.
func IsRemoteSQLDriver(path string) bool {
	for _, p := range remoteSQLDrivers {
		if path == p || strings.HasPrefix(path, p+"/") {
			return true
		}
	}
	return false
}

// IsEmbeddedSQLDriverName reports whether a driver name given to sql.Open
// names an in-process database.
func IsEmbeddedSQLDriverName(name string) bool { return embeddedSQLDriverNames[name] }

// IsCLIFramework reports whether an import path is a CLI framework whose
// commands run once per invocation (cobra, urfave/cli).
func IsCLIFramework(path string) bool { return cliFrameworks[path] }

// IsCLICommandType reports whether a type, by full name, is a CLI
// framework's command or app.
func IsCLICommandType(name string) bool { return cliCommandTypes[name] }

// IsServerCommandName reports whether a CLI command's name says it runs
// a long-lived process (run, serve, start, daemon, agent, server).
func IsServerCommandName(name string) bool { return serverCommandNames[name] }

// NeverReturns reports whether a call of the named function never
// returns to its caller (os.Exit, log.Fatal, t.Fatal).
func NeverReturns(fullName string) bool { return neverReturn[fullName] }

// RetryLayerOf reports whether the named function is a retry layer, from
// the exact table, then the patterns of retrying clients (whose methods
// take a context first: the caller checks the signature).
func RetryLayerOf(fullName string) (RetryLayer, bool) {
	if r, ok := retryLayers[fullName]; ok {
		return r, true
	}
	for _, p := range retryLayerPatterns {
		if !strings.HasPrefix(fullName, p.prefix) {
			continue
		}
		if m, _ := path.Match(p.pattern, fullName); m && !retryLayerExcluded[fullName[strings.LastIndexByte(fullName, '.')+1:]] {
			return p.RetryLayer, true
		}
	}
	return RetryLayer{}, false
}

// RetryLayerPattern reports whether the named function's layer comes from
// a pattern, whose methods count only when they take a context first.
func RetryLayerPattern(fullName string) bool {
	if _, ok := retryLayers[fullName]; ok {
		return false
	}
	_, ok := RetryLayerOf(fullName)
	return ok
}

// RetryPolicy describes how a retry library builds a policy: the
// builder's constructor, the methods that set the count, and the
// method that builds it.
type RetryPolicy struct {
	// DefaultAttempts is the count of a policy built with no option.
	DefaultAttempts int
	// Retries names the builder method that sets the retries after the
	// first attempt, Attempts the one that sets the attempts; -1 means
	// no limit for both.
	Retries, Attempts string
	// Classifiers name the builder methods that choose which failures
	// are retried (HandleErrors, AbortOnErrors, AbortIf, …): a policy
	// built with none retries every failure.
	Classifiers []string
}

// BreakerPolicyOf reports whether the named function builds a circuit
// breaker policy for an executor (failsafe-go's), and the error its
// executions fail with while it is open.
func BreakerPolicyOf(fullName string) (openError string, ok bool) {
	openError, ok = breakerPolicies[fullName]
	return openError, ok
}

// RetryPolicyOf reports whether the named function builds a retry policy
// (a builder's Build, or a constructor of a policy with defaults), and
// how; builder methods are found by name on the way back to the builder's
// constructor.
func RetryPolicyOf(fullName string) (RetryPolicy, bool) {
	r, ok := retryPolicies[fullName]
	return r, ok
}

// ExecutorFrom reports whether the named function makes an executor from
// the policies it is given (failsafe.With), and which argument is the
// first of them.
func ExecutorFrom(fullName string) (int, bool) {
	i, ok := executors[fullName]
	return i, ok
}

// RetryingHTTPClientOf reports whether the named function returns an
// *http.Client whose sends retry (retryablehttp's StandardClient): every
// call made with that client is a layer, counted as the layer describes
// (its RetriesField is the retrying client's, the call's receiver).
func RetryingHTTPClientOf(fullName string) (RetryLayer, bool) {
	l, ok := retryingHTTPClients[fullName]
	return l, ok
}

// SendsThroughInterface reports whether the named interface method sends
// by contract, whatever implements it (http.RoundTripper's RoundTrip).
func SendsThroughInterface(fullName string) bool { return sendingInterfaceMethods[fullName] }

// RetryingClientType reports whether the named type (package path and
// name) is a retrying client whose methods are layers, with its default
// count and the field holding its retries.
func RetryingClientType(fullName string) (RetryLayer, bool) {
	l, ok := retryingClientTypes[fullName]
	return l, ok
}

// GRPCDialOf reports whether the named function dials a gRPC connection,
// and the index of its first dial option.
func GRPCDialOf(fullName string) (int, bool) {
	i, ok := grpcDials[fullName]
	return i, ok
}

// GRPCRetryInterceptorOf reports whether the named function builds a gRPC
// client interceptor that retries, and how many attempts it makes with no
// option (its options are RetryOptionOf's, from its first argument on).
func GRPCRetryInterceptorOf(fullName string) (int, bool) {
	n, ok := grpcRetryInterceptors[fullName]
	return n, ok
}

// Breaker describes a circuit breaker's call: it runs the function it is
// given unless the circuit is open, and then fails at once with one of
// OpenErrors (full names of the package variables).
type Breaker struct {
	FuncArg    int
	OpenErrors []string
}

// BreakerOf reports whether the named function is a circuit breaker's
// call.
func BreakerOf(fullName string) (Breaker, bool) {
	b, ok := breakers[fullName]
	return b, ok
}

// RetryOptionOf reports how the named function, an option or backoff
// wrapper of a retry library, changes a layer's attempt count.
func RetryOptionOf(fullName string) (RetryOption, bool) {
	r, ok := retryOptions[fullName]
	return r, ok
}

// NonIdempotentHTTPMethods are the HTTP methods that are not idempotent by
// RFC 9110 §9.2.2 unless the request carries an idempotency key.
var NonIdempotentHTTPMethods = map[string]bool{"POST": true, "PATCH": true, "CONNECT": true}

// IdempotencyKeyHeaders are request headers by which servers commonly
// deduplicate repeated non-idempotent requests.
var IdempotencyKeyHeaders = map[string]bool{"Idempotency-Key": true, "X-Idempotency-Key": true}

// Extensions are the names a user adds to the tables through the
// options (-resilvet.outbound, -resilvet.timeout-interceptors, or the
// plugin's settings). They are a value the options build, not a change
// to the tables, so analyzers with different options can run in one
// process. The nil *Extensions adds nothing.
type Extensions struct {
	outbound     map[string]Outbound
	interceptors map[string]bool
}

// NewExtensions validates the full names of extra outbound functions and
// of extra timeout-interceptor constructors, and returns them as
// Extensions; nothing is returned when a name is malformed.
func NewExtensions(outbound, interceptors []string) (*Extensions, error) {
	x := &Extensions{outbound: map[string]Outbound{}, interceptors: map[string]bool{}}
	for _, name := range outbound {
		if err := ValidFullName(name); err != nil {
			return nil, fmt.Errorf("outbound: %w", err)
		}
		// Unknown kind, bounded by a context argument if it takes one.
		x.outbound[name] = Outbound{Kind: Custom, CtxParam: -1, Bound: ByContext}
	}
	for _, name := range interceptors {
		if err := ValidFullName(name); err != nil {
			return nil, fmt.Errorf("timeout-interceptors: %w", err)
		}
		x.interceptors[name] = true
	}
	return x, nil
}

// OutboundOf is the package's OutboundOf, then the user's names.
func (x *Extensions) OutboundOf(fullName string) (Outbound, bool) {
	if o, ok := OutboundOf(fullName); ok {
		return o, true
	}
	if x == nil {
		return Outbound{}, false
	}
	o, ok := x.outbound[fullName]
	return o, ok
}

// TimeoutInterceptorOf is the package's TimeoutInterceptorOf, then the
// user's names.
func (x *Extensions) TimeoutInterceptorOf(fullName string) bool {
	return TimeoutInterceptorOf(fullName) || x != nil && x.interceptors[fullName]
}

// SplitNames splits a comma-separated list of full function names (a
// flag's value), dropping blanks, and validates each.
func SplitNames(list string) ([]string, error) {
	var names []string
	for _, name := range strings.Split(list, ",") {
		name = strings.TrimSpace(name)
		if name == "" {
			continue
		}
		if err := ValidFullName(name); err != nil {
			return nil, err
		}
		names = append(names, name)
	}
	return names, nil
}

// ValidFullName checks that name has the shape of (*types.Func).FullName:
// "pkg/path.Func", "(pkg/path.T).M" or "(*pkg/path.T).M".
func ValidFullName(name string) error {
	bad := func() error {
		return fmt.Errorf("invalid function name %q: want pkg/path.Func, (pkg/path.T).M or (*pkg/path.T).M", name)
	}
	if strings.HasPrefix(name, "(") {
		end := strings.Index(name, ")")
		if end < 0 || end+2 > len(name) || name[end+1] != '.' {
			return bad()
		}
		recv := strings.TrimPrefix(name[1:end], "*")
		if !strings.Contains(recv, ".") || strings.HasSuffix(recv, ".") || !isIdent(name[end+2:]) {
			return bad()
		}
		return nil
	}
	dot := strings.LastIndex(name, ".")
	if dot <= 0 || !isIdent(name[dot+1:]) || strings.ContainsAny(name, " ()*") {
		return bad()
	}
	return nil
}

func isIdent(s string) bool {
	if s == "" {
		return false
	}
	for i, r := range s {
		if r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || i > 0 && r >= '0' && r <= '9' {
			continue
		}
		return false
	}
	return true
}

// Names returns every key of every table, sorted, for tests that check
// the keys against real packages.
func Names() []string {
	seen := map[string]bool{}
	for k := range twins {
		seen[k] = true
	}
	for _, t := range twins {
		seen[t.Name] = true
	}
	for k := range outbound {
		seen[k] = true
	}
	for k := range rootContexts {
		seen[k] = true
	}
	for k := range valueOnlySinks {
		seen[k] = true
	}
	for k := range cleanupSinks {
		seen[k] = true
	}
	for k := range derivations {
		seen[k] = true
	}
	for k := range valueDerivations {
		seen[k] = true
	}
	for k := range rootRequests {
		seen[k] = true
	}
	for k := range serverDirectedGates {
		seen[k] = true
	}
	for k := range hijackers {
		seen[k] = true
	}
	for k := range retryLayers {
		seen[k] = true
	}
	for k := range retryOptions {
		seen[k] = true
	}
	for k := range retryPolicies {
		seen[k] = true
	}
	for k := range executors {
		seen[k] = true
	}
	for k := range breakers {
		seen[k] = true
	}
	for k := range grpcDials {
		seen[k] = true
	}
	for k := range retryingHTTPClients {
		seen[k] = true
	}
	for k := range grpcRetryInterceptors {
		seen[k] = true
	}
	for k := range serves {
		seen[k] = true
	}
	for k := range retainingContext {
		seen[k] = true
	}
	for k := range neverReturn {
		seen[k] = true
	}
	for _, table := range []map[string]bool{publishes, mails, requestCopies, hedgePolicies} {
		for k := range table {
			seen[k] = true
		}
	}
	for k := range httpEffects {
		seen[k] = true
	}
	for k := range requestBuilders {
		seen[k] = true
	}
	for k := range hedgingClients {
		seen[k] = true
	}
	// The tables the map, the breaker and hedge claims and the goroutine
	// rules read: keyed the same way, checked the same way.
	for _, table := range []map[string]bool{timeoutInterceptors, sendingInterfaceMethods, waits, goroutineJoins, goroutineStarts, idempotentByProtocol, periodicStarts} {
		for k := range table {
			seen[k] = true
		}
	}
	for k := range breakerPolicies {
		seen[k] = true
	}
	for k := range routes {
		seen[k] = true
	}
	for k := range scheduledFuncs {
		seen[k] = true
	}
	var names []string
	for k := range seen {
		names = append(names, k)
	}
	sort.Strings(names)
	return names
}
