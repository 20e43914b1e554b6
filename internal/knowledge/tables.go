package knowledge

// Data only. Keys are (*types.Func).FullName strings; knowledge_test.go
// checks that every key is well formed, that every standard-library key
// names a real function or method (Names lists every table's keys), and
// that each standard-library twin takes a context first, so a typo fails
// CI. Third-party keys are checked for shape only: a fixture that goes
// through one (a stub at its real import path) is what proves it.

var rootContexts = map[string]bool{
	"context.Background": true,
	"context.TODO":       true,
}

// valueOnlySinks consume a context for its values (trace IDs, request
// attributes), never for cancellation: handing them a root context loses
// log correlation, not a deadline. Flagging them was the most reported
// false positive of the peer linters.
var valueOnlySinks = map[string]bool{
	"(*log/slog.JSONHandler).Enabled":  true,
	"(*log/slog.JSONHandler).Handle":   true,
	"(*log/slog.Logger).DebugContext":  true,
	"(*log/slog.Logger).Enabled":       true,
	"(*log/slog.Logger).ErrorContext":  true,
	"(*log/slog.Logger).InfoContext":   true,
	"(*log/slog.Logger).Log":           true,
	"(*log/slog.Logger).LogAttrs":      true,
	"(*log/slog.Logger).WarnContext":   true,
	"(*log/slog.TextHandler).Enabled":  true,
	"(*log/slog.TextHandler).Handle":   true,
	"(log/slog.Handler).Enabled":       true,
	"(log/slog.Handler).Handle":        true,
	"log/slog.DebugContext":            true,
	"log/slog.ErrorContext":            true,
	"log/slog.InfoContext":             true,
	"log/slog.Log":                     true,
	"log/slog.LogAttrs":                true,
	"log/slog.WarnContext":             true,
	"runtime/pprof.Do":                 true, // labels only
	"runtime/pprof.SetGoroutineLabels": true,
	"runtime/trace.Log":                true, // execution-trace annotations only
	"runtime/trace.Logf":               true,
	"runtime/trace.StartRegion":        true,
	"runtime/trace.WithRegion":         true,
	// Kubernetes' error and crash handlers read the context for the
	// contextual logger only: logging, and a rate limit of a millisecond
	// between errors. HandleError's own context.Background() drops
	// nothing that bounds work.
	"k8s.io/apimachinery/pkg/util/runtime.HandleErrorWithContext": true,
	"k8s.io/apimachinery/pkg/util/runtime.HandleCrashWithContext": true,
	"k8s.io/apimachinery/pkg/util/runtime.handleError":            true, // what HandleError calls with its own context
	"k8s.io/apimachinery/pkg/util/runtime.handleCrash":            true,
	// OpenTelemetry's metric instruments read the context for exemplars
	// and baggage only.
	"(go.opentelemetry.io/otel/metric.Float64Counter).Add":       true,
	"(go.opentelemetry.io/otel/metric.Float64Gauge).Record":      true,
	"(go.opentelemetry.io/otel/metric.Float64Histogram).Record":  true,
	"(go.opentelemetry.io/otel/metric.Float64UpDownCounter).Add": true,
	"(go.opentelemetry.io/otel/metric.Int64Counter).Add":         true,
	"(go.opentelemetry.io/otel/metric.Int64Gauge).Record":        true,
	"(go.opentelemetry.io/otel/metric.Int64Histogram).Record":    true,
	"(go.opentelemetry.io/otel/metric.Int64UpDownCounter).Add":   true,
	// The AWS SDK's configuration loader reads the environment and shared
	// files; credentials are fetched later, with each request's context,
	// so the context it is given bounds nothing that matters (a client
	// constructor's own context.Background() there drops nothing).
	"github.com/aws/aws-sdk-go-v2/config.LoadDefaultConfig": true,
	// OpenCensus's stats read the context for its tags.
	"go.opencensus.io/stats.Record":            true,
	"go.opencensus.io/stats.RecordWithOptions": true,
	"go.opencensus.io/stats.RecordWithTags":    true,
	// Sentry's spans read the parent span and hub from the context and
	// keep it for Span.Context(): a root context loses trace correlation.
	"github.com/getsentry/sentry-go.StartSpan":        true,
	"github.com/getsentry/sentry-go.StartTransaction": true,
}

// metricOptions are the option types of metric instruments' recording
// methods, by full type name.
var metricOptions = map[string]bool{
	"go.opentelemetry.io/otel/metric.AddOption":    true,
	"go.opentelemetry.io/otel/metric.RecordOption": true,
}

// derivations return a context made from the one they are given, adding
// values, a span or a deadline and nothing else: what the result is used
// for is what the given context is used for.
var derivations = map[string]bool{
	"context.WithValue":                                       true,
	"context.WithCancel":                                      true,
	"context.WithCancelCause":                                 true,
	"context.WithTimeout":                                     true,
	"context.WithTimeoutCause":                                true,
	"context.WithDeadline":                                    true,
	"context.WithDeadlineCause":                               true,
	"context.WithoutCancel":                                   true,
	"(go.opentelemetry.io/otel/trace.Tracer).Start":           true,
	"go.opentelemetry.io/otel/trace.ContextWithSpan":          true,
	"go.opentelemetry.io/otel/trace.ContextWithSpanContext":   true,
	"go.opentelemetry.io/otel/baggage.ContextWithBaggage":     true,
	"google.golang.org/grpc/metadata.NewOutgoingContext":      true,
	"google.golang.org/grpc/metadata.AppendToOutgoingContext": true,
}

// valueDerivations are the derivations that add values to a context and
// nothing else: the derived context ends when its parent does, with no
// deadline or cancellation of its own. A root context through them is
// still a root. Each is also in derivations.
var valueDerivations = map[string]bool{
	"context.WithValue": true,
	"go.opentelemetry.io/otel/trace.ContextWithSpan":          true,
	"go.opentelemetry.io/otel/trace.ContextWithSpanContext":   true,
	"go.opentelemetry.io/otel/baggage.ContextWithBaggage":     true,
	"google.golang.org/grpc/metadata.NewOutgoingContext":      true,
	"google.golang.org/grpc/metadata.AppendToOutgoingContext": true,
}

// rootRequests return a request (their first result) whose context is
// context.Background(): one read off a connection, one built without a
// context.
var rootRequests = map[string]bool{
	"net/http.ReadRequest": true,
	"net/http.NewRequest":  true,
}

// serverDirectedGates are retrier methods called at the top of each
// round of a loop, whose error ends the loop; the retrier goes round
// again only when the server answered with Retry-After (or the
// connection broke on a read), up to a configured count. client-go's
// loops around the API server's requests are gated this way
// (rest.Request's maxRetries, 10 by default).
var serverDirectedGates = map[string]bool{
	"(k8s.io/client-go/rest.WithRetry).Before": true,
}

// hijackers take a served request's connection over from the server
// (http.Hijacker, a websocket upgrade). The server stops watching the
// connection, so the request's context no longer ends when the client
// goes away, only when the handler returns.
var hijackers = map[string]bool{
	"(net/http.Hijacker).Hijack":                       true,
	"(*net/http.ResponseController).Hijack":            true,
	"(*github.com/gorilla/websocket.Upgrader).Upgrade": true,
	"github.com/coder/websocket.Accept":                true,
	"nhooyr.io/websocket.Accept":                       true,
}

// localReads are methods that read a process-local copy of remote state
// when called on a value of the named type, keyed by "type.Method": the
// same method of the interface it embeds goes to the server when called
// on a client. controller-runtime's cache serves Get and List from its
// informers' indexers (an informer already started; GetInformer, which
// starts one and waits for it to sync, is not here).
var localReads = map[string]bool{
	"sigs.k8s.io/controller-runtime/pkg/cache.Cache.Get":  true,
	"sigs.k8s.io/controller-runtime/pkg/cache.Cache.List": true,
}

// cleanupSinks are meant to receive a fresh context after the request
// context is done: graceful shutdown bounded by its own timeout is the
// known false positive of context linters (contextcheck#2).
var cleanupSinks = map[string]bool{
	"(*net/http.Server).Shutdown": true,
	// Waiting for a stopped service to finish (dskit's services and
	// Cortex's copy): the stop has been asked for already.
	"(github.com/grafana/dskit/services.Service).AwaitTerminated":                       true,
	"(*github.com/grafana/dskit/services.BasicService).AwaitTerminated":                 true,
	"(github.com/cortexproject/cortex/pkg/util/services.Service).AwaitTerminated":       true,
	"(*github.com/cortexproject/cortex/pkg/util/services.BasicService).AwaitTerminated": true,
}

var twins = map[string]Twin{
	// database/sql: every non-context method forwards context.Background().
	"(*database/sql.DB).Begin":      {Name: "(*database/sql.DB).BeginTx", Display: "BeginTx", Method: "BeginTx", Rewrite: RenameInsertCtxAppendNil},
	"(*database/sql.DB).Exec":       {Name: "(*database/sql.DB).ExecContext", Display: "ExecContext", Method: "ExecContext", Rewrite: RenameInsertCtx},
	"(*database/sql.DB).Ping":       {Name: "(*database/sql.DB).PingContext", Display: "PingContext", Method: "PingContext", Rewrite: RenameInsertCtx},
	"(*database/sql.DB).Prepare":    {Name: "(*database/sql.DB).PrepareContext", Display: "PrepareContext", Method: "PrepareContext", Rewrite: RenameInsertCtx},
	"(*database/sql.DB).Query":      {Name: "(*database/sql.DB).QueryContext", Display: "QueryContext", Method: "QueryContext", Rewrite: RenameInsertCtx},
	"(*database/sql.DB).QueryRow":   {Name: "(*database/sql.DB).QueryRowContext", Display: "QueryRowContext", Method: "QueryRowContext", Rewrite: RenameInsertCtx},
	"(*database/sql.Tx).Exec":       {Name: "(*database/sql.Tx).ExecContext", Display: "ExecContext", Method: "ExecContext", Rewrite: RenameInsertCtx},
	"(*database/sql.Tx).Prepare":    {Name: "(*database/sql.Tx).PrepareContext", Display: "PrepareContext", Method: "PrepareContext", Rewrite: RenameInsertCtx},
	"(*database/sql.Tx).Query":      {Name: "(*database/sql.Tx).QueryContext", Display: "QueryContext", Method: "QueryContext", Rewrite: RenameInsertCtx},
	"(*database/sql.Tx).QueryRow":   {Name: "(*database/sql.Tx).QueryRowContext", Display: "QueryRowContext", Method: "QueryRowContext", Rewrite: RenameInsertCtx},
	"(*database/sql.Tx).Stmt":       {Name: "(*database/sql.Tx).StmtContext", Display: "StmtContext", Method: "StmtContext", Rewrite: RenameInsertCtx},
	"(*database/sql.Stmt).Exec":     {Name: "(*database/sql.Stmt).ExecContext", Display: "ExecContext", Method: "ExecContext", Rewrite: RenameInsertCtx},
	"(*database/sql.Stmt).Query":    {Name: "(*database/sql.Stmt).QueryContext", Display: "QueryContext", Method: "QueryContext", Rewrite: RenameInsertCtx},
	"(*database/sql.Stmt).QueryRow": {Name: "(*database/sql.Stmt).QueryRowContext", Display: "QueryRowContext", Method: "QueryRowContext", Rewrite: RenameInsertCtx},

	// net/http: the helpers build their request with context.Background();
	// the twin is a request built with the context, which needs statements,
	// so no rewrite is offered.
	"net/http.NewRequest":          {Name: "net/http.NewRequestWithContext", Display: "http.NewRequestWithContext", Method: "NewRequestWithContext", Rewrite: RenameInsertCtx},
	"net/http.Get":                 {Name: "net/http.NewRequestWithContext", Display: "http.NewRequestWithContext and Client.Do"},
	"net/http.Head":                {Name: "net/http.NewRequestWithContext", Display: "http.NewRequestWithContext and Client.Do"},
	"net/http.Post":                {Name: "net/http.NewRequestWithContext", Display: "http.NewRequestWithContext and Client.Do"},
	"net/http.PostForm":            {Name: "net/http.NewRequestWithContext", Display: "http.NewRequestWithContext and Client.Do"},
	"(*net/http.Client).Get":       {Name: "net/http.NewRequestWithContext", Display: "http.NewRequestWithContext and Client.Do"},
	"(*net/http.Client).Head":      {Name: "net/http.NewRequestWithContext", Display: "http.NewRequestWithContext and Client.Do"},
	"(*net/http.Client).Post":      {Name: "net/http.NewRequestWithContext", Display: "http.NewRequestWithContext and Client.Do"},
	"(*net/http.Client).PostForm":  {Name: "net/http.NewRequestWithContext", Display: "http.NewRequestWithContext and Client.Do"},
	"net/http/httptest.NewRequest": {Name: "net/http/httptest.NewRequestWithContext", Display: "httptest.NewRequestWithContext", Method: "NewRequestWithContext", Rewrite: RenameInsertCtx},

	"os/exec.Command": {Name: "os/exec.CommandContext", Display: "exec.CommandContext", Method: "CommandContext", Rewrite: RenameInsertCtx},

	"net.Dial":        {Name: "(*net.Dialer).DialContext", Display: "(*net.Dialer).DialContext", Rewrite: NetDialer},
	"net.DialTimeout": {Name: "(*net.Dialer).DialContext", Display: "(*net.Dialer).DialContext", Rewrite: NetDialer, Bounded: true},
	// A zero dns.Client times out its dial, write and read at 2 s each.
	"(*github.com/miekg/dns.Client).Exchange": {Name: "(*github.com/miekg/dns.Client).ExchangeContext", Display: "ExchangeContext", Method: "ExchangeContext", Rewrite: RenameInsertCtx, Bounded: true},
	// net.Listen is deliberately absent: its context would bound only the
	// bind, never the listener's life, so the finding would mislead.

	// The resolver bounds each lookup on its own (resolv.conf's timeout
	// and attempts, 5 s and 2 by default; the system resolver's likewise):
	// a helper calling one loses cancellation, not a bound.
	"net.LookupAddr":  {Name: "(*net.Resolver).LookupAddr", Display: "net.DefaultResolver.LookupAddr", Method: "LookupAddr", Rewrite: DefaultResolver, Bounded: true},
	"net.LookupCNAME": {Name: "(*net.Resolver).LookupCNAME", Display: "net.DefaultResolver.LookupCNAME", Method: "LookupCNAME", Rewrite: DefaultResolver, Bounded: true},
	"net.LookupHost":  {Name: "(*net.Resolver).LookupHost", Display: "net.DefaultResolver.LookupHost", Method: "LookupHost", Rewrite: DefaultResolver, Bounded: true},
	"net.LookupIP":    {Name: "(*net.Resolver).LookupIP", Display: "net.DefaultResolver.LookupIP", Method: "LookupIP", Rewrite: DefaultResolver, Extra: `"ip"`, Bounded: true},
	"net.LookupMX":    {Name: "(*net.Resolver).LookupMX", Display: "net.DefaultResolver.LookupMX", Method: "LookupMX", Rewrite: DefaultResolver, Bounded: true},
	"net.LookupNS":    {Name: "(*net.Resolver).LookupNS", Display: "net.DefaultResolver.LookupNS", Method: "LookupNS", Rewrite: DefaultResolver, Bounded: true},
	"net.LookupPort":  {Name: "(*net.Resolver).LookupPort", Display: "net.DefaultResolver.LookupPort", Method: "LookupPort", Rewrite: DefaultResolver, Bounded: true},
	"net.LookupSRV":   {Name: "(*net.Resolver).LookupSRV", Display: "net.DefaultResolver.LookupSRV", Method: "LookupSRV", Rewrite: DefaultResolver, Bounded: true},
	"net.LookupTXT":   {Name: "(*net.Resolver).LookupTXT", Display: "net.DefaultResolver.LookupTXT", Method: "LookupTXT", Rewrite: DefaultResolver, Bounded: true},

	// tls.Dial returns *tls.Conn but (*tls.Dialer).DialContext returns
	// net.Conn: not mechanical, no rewrite.
	"crypto/tls.Dial":           {Name: "(*crypto/tls.Dialer).DialContext", Display: "(*tls.Dialer).DialContext"},
	"crypto/tls.DialWithDialer": {Name: "(*crypto/tls.Dialer).DialContext", Display: "(*tls.Dialer).DialContext"},
}

var outbound = map[string]Outbound{
	"net/http.Get":                         {Kind: HTTP, DefaultClient: true, CtxParam: -1, Bound: Never},
	"net/http.Head":                        {Kind: HTTP, DefaultClient: true, CtxParam: -1, Bound: Never},
	"net/http.Post":                        {Kind: HTTP, DefaultClient: true, CtxParam: -1, Bound: Never},
	"net/http.PostForm":                    {Kind: HTTP, DefaultClient: true, CtxParam: -1, Bound: Never},
	"(*net/http.Client).Do":                {Kind: HTTP, CtxParam: -1, Bound: ByClientOrRequest}, // ctx travels in the request
	"(*net/http.Client).Get":               {Kind: HTTP, CtxParam: -1, Bound: ByClient},
	"(*net/http.Client).Head":              {Kind: HTTP, CtxParam: -1, Bound: ByClient},
	"(*net/http.Client).Post":              {Kind: HTTP, CtxParam: -1, Bound: ByClient},
	"(*net/http.Client).PostForm":          {Kind: HTTP, CtxParam: -1, Bound: ByClient},
	"(*net/http.Transport).RoundTrip":      {Kind: HTTP, CtxParam: -1},
	"(*database/sql.DB).Begin":             {Kind: SQL, CtxParam: -1},
	"(*database/sql.DB).BeginTx":           {Kind: SQL, CtxParam: 0, Bound: ByContext},
	"(*database/sql.DB).Exec":              {Kind: SQL, CtxParam: -1, Bound: ByTwinContext},
	"(*database/sql.DB).ExecContext":       {Kind: SQL, CtxParam: 0, Bound: ByContext},
	"(*database/sql.DB).Ping":              {Kind: SQL, CtxParam: -1},
	"(*database/sql.DB).PingContext":       {Kind: SQL, CtxParam: 0, Bound: ByContext},
	"(*database/sql.DB).Query":             {Kind: SQL, CtxParam: -1, Bound: ByTwinContext},
	"(*database/sql.DB).QueryContext":      {Kind: SQL, CtxParam: 0, Bound: ByContext},
	"(*database/sql.DB).QueryRow":          {Kind: SQL, CtxParam: -1, Bound: ByTwinContext},
	"(*database/sql.DB).QueryRowContext":   {Kind: SQL, CtxParam: 0, Bound: ByContext},
	"(*database/sql.Tx).Exec":              {Kind: SQL, CtxParam: -1, Bound: ByTwinContext},
	"(*database/sql.Tx).ExecContext":       {Kind: SQL, CtxParam: 0, Bound: ByContext},
	"(*database/sql.Tx).Query":             {Kind: SQL, CtxParam: -1, Bound: ByTwinContext},
	"(*database/sql.Tx).QueryContext":      {Kind: SQL, CtxParam: 0, Bound: ByContext},
	"(*database/sql.Tx).QueryRow":          {Kind: SQL, CtxParam: -1, Bound: ByTwinContext},
	"(*database/sql.Tx).QueryRowContext":   {Kind: SQL, CtxParam: 0, Bound: ByContext},
	"(*database/sql.Tx).Commit":            {Kind: SQL, CtxParam: -1},
	"(*database/sql.Stmt).Exec":            {Kind: SQL, CtxParam: -1, Bound: ByTwinContext},
	"(*database/sql.Stmt).ExecContext":     {Kind: SQL, CtxParam: 0, Bound: ByContext},
	"(*database/sql.Stmt).Query":           {Kind: SQL, CtxParam: -1, Bound: ByTwinContext},
	"(*database/sql.Stmt).QueryContext":    {Kind: SQL, CtxParam: 0, Bound: ByContext},
	"(*database/sql.Stmt).QueryRow":        {Kind: SQL, CtxParam: -1, Bound: ByTwinContext},
	"(*database/sql.Stmt).QueryRowContext": {Kind: SQL, CtxParam: 0, Bound: ByContext},
	"(*database/sql.Conn).ExecContext":     {Kind: SQL, CtxParam: 0, Bound: ByContext},
	"(*database/sql.Conn).QueryContext":    {Kind: SQL, CtxParam: 0, Bound: ByContext},
	"(*database/sql.Conn).QueryRowContext": {Kind: SQL, CtxParam: 0, Bound: ByContext},
	"(*database/sql.Conn).BeginTx":         {Kind: SQL, CtxParam: 0, Bound: ByContext},
	"(*database/sql.Conn).PingContext":     {Kind: SQL, CtxParam: 0, Bound: ByContext},
	"(*database/sql.DB).Conn":              {Kind: SQL, CtxParam: 0, Bound: ByContext},
	"(*database/sql.DB).PrepareContext":    {Kind: SQL, CtxParam: 0, Bound: ByContext},
	// net.Dial and friends have no dial timeout (the OS's connect timeout
	// is minutes); DialTimeout is bounded; Unix sockets and UDP "dials"
	// do not wait on a remote peer and are never reported.
	"net.Dial":                     {Kind: Net, CtxParam: -1, Bound: Never},
	"net.DialTimeout":              {Kind: Net, CtxParam: -1},
	"net.DialTCP":                  {Kind: Net, CtxParam: -1, Bound: Never},
	"net.DialUDP":                  {Kind: Net, CtxParam: -1},
	"net.DialUnix":                 {Kind: Net, CtxParam: -1},
	"(*net.Dialer).Dial":           {Kind: Net, CtxParam: -1, Bound: ByDialer},
	"(*net.Dialer).DialContext":    {Kind: Net, CtxParam: 0, Bound: ByDialer},
	"net.LookupAddr":               {Kind: DNS, CtxParam: -1},
	"net.LookupCNAME":              {Kind: DNS, CtxParam: -1},
	"net.LookupHost":               {Kind: DNS, CtxParam: -1},
	"net.LookupIP":                 {Kind: DNS, CtxParam: -1},
	"net.LookupMX":                 {Kind: DNS, CtxParam: -1},
	"net.LookupNS":                 {Kind: DNS, CtxParam: -1},
	"net.LookupPort":               {Kind: DNS, CtxParam: -1},
	"net.LookupSRV":                {Kind: DNS, CtxParam: -1},
	"net.LookupTXT":                {Kind: DNS, CtxParam: -1},
	"(*net.Resolver).LookupHost":   {Kind: DNS, CtxParam: 0},
	"(*net.Resolver).LookupIPAddr": {Kind: DNS, CtxParam: 0},
	"crypto/tls.Dial":              {Kind: TLS, CtxParam: -1, Bound: Never},
	// net/smtp dials TCP with net.Dial: no dial timeout, and no deadline
	// on the conversation.
	"net/smtp.Dial":                    {Kind: Net, CtxParam: -1, Bound: Never},
	"net/smtp.SendMail":                {Kind: Net, CtxParam: -1, Bound: Never},
	"crypto/tls.DialWithDialer":        {Kind: TLS, CtxParam: -1, Bound: ByDialer},
	"(*crypto/tls.Dialer).DialContext": {Kind: TLS, CtxParam: 0, Bound: ByContext},
	"(*crypto/tls.Conn).Handshake":     {Kind: TLS, CtxParam: -1},
	"(*os/exec.Cmd).Run":               {Kind: Exec, CtxParam: -1},
	"(*os/exec.Cmd).Output":            {Kind: Exec, CtxParam: -1},
	"(*os/exec.Cmd).CombinedOutput":    {Kind: Exec, CtxParam: -1},
	"(*os/exec.Cmd).Start":             {Kind: Exec, CtxParam: -1},

	// Third-party clients: not type-checked by knowledge_test.go (not in
	// the module graph); their shape is checked by ValidFullName.
	//
	// gRPC: every generated client method ends in Invoke or NewStream on
	// the connection, usually through the ClientConnInterface. Only unary
	// calls are judged: streams (watches, subscriptions, load reports)
	// live as long as their connection by design. Dial and NewClient
	// connect lazily (without WithBlock), so they are not judged either.
	"(*google.golang.org/grpc.ClientConn).Invoke":            {Kind: GRPC, CtxParam: 0, Bound: ByContext},
	"(*google.golang.org/grpc.ClientConn).NewStream":         {Kind: GRPC, CtxParam: 0},
	"(google.golang.org/grpc.ClientConnInterface).Invoke":    {Kind: GRPC, CtxParam: 0, Bound: ByContext},
	"(google.golang.org/grpc.ClientConnInterface).NewStream": {Kind: GRPC, CtxParam: 0},
	"google.golang.org/grpc.DialContext":                     {Kind: GRPC, CtxParam: 0},
	"google.golang.org/grpc.Dial":                            {Kind: GRPC, CtxParam: -1},
	"google.golang.org/grpc.NewClient":                       {Kind: GRPC, CtxParam: -1},
	// go-redis reads and writes with ReadTimeout/WriteTimeout (3 s by
	// default), so a command without a deadline is still bounded.
	"(*github.com/redis/go-redis/v9.Client).Process":     {Kind: Redis, CtxParam: 0},
	"(*github.com/redis/go-redis/v9.baseClient).Process": {Kind: Redis, CtxParam: 0},
	// pgx, the PostgreSQL driver most services use without database/sql:
	// no statement timeout unless the context has a deadline (the server's
	// statement_timeout is off by default). SQL, so schema set-up is
	// recognised as for database/sql.
	"(*github.com/jackc/pgx/v5/pgxpool.Pool).Exec":             {Kind: SQL, CtxParam: 0, Bound: ByContext},
	"(*github.com/jackc/pgx/v5/pgxpool.Pool).Query":            {Kind: SQL, CtxParam: 0, Bound: ByContext},
	"(*github.com/jackc/pgx/v5/pgxpool.Pool).QueryRow":         {Kind: SQL, CtxParam: 0, Bound: ByContext},
	"(*github.com/jackc/pgx/v5/pgxpool.Pool).Begin":            {Kind: SQL, CtxParam: 0, Bound: ByContext},
	"(*github.com/jackc/pgx/v5/pgxpool.Pool).BeginTx":          {Kind: SQL, CtxParam: 0, Bound: ByContext},
	"(*github.com/jackc/pgx/v5/pgxpool.Pool).Acquire":          {Kind: SQL, CtxParam: 0, Bound: ByContext},
	"(*github.com/jackc/pgx/v5/pgxpool.Pool).Ping":             {Kind: SQL, CtxParam: 0, Bound: ByContext},
	"(*github.com/jackc/pgx/v5/pgxpool.Pool).SendBatch":        {Kind: SQL, CtxParam: 0, Bound: ByContext},
	"(*github.com/jackc/pgx/v5/pgxpool.Pool).CopyFrom":         {Kind: SQL, CtxParam: 0, Bound: ByContext},
	"(*github.com/jackc/pgx/v5/pgxpool.Conn).Exec":             {Kind: SQL, CtxParam: 0, Bound: ByContext},
	"(*github.com/jackc/pgx/v5/pgxpool.Conn).Query":            {Kind: SQL, CtxParam: 0, Bound: ByContext},
	"(*github.com/jackc/pgx/v5/pgxpool.Conn).QueryRow":         {Kind: SQL, CtxParam: 0, Bound: ByContext},
	"(*github.com/jackc/pgx/v5/pgxpool.Conn).Begin":            {Kind: SQL, CtxParam: 0, Bound: ByContext},
	"(*github.com/jackc/pgx/v5/pgxpool.Conn).BeginTx":          {Kind: SQL, CtxParam: 0, Bound: ByContext},
	"(*github.com/jackc/pgx/v5/pgxpool.Conn).Ping":             {Kind: SQL, CtxParam: 0, Bound: ByContext},
	"(*github.com/jackc/pgx/v5/pgxpool.Conn).SendBatch":        {Kind: SQL, CtxParam: 0, Bound: ByContext},
	"(*github.com/jackc/pgx/v5/pgxpool.Conn).CopyFrom":         {Kind: SQL, CtxParam: 0, Bound: ByContext},
	"(*github.com/jackc/pgx/v5.Conn).Exec":                     {Kind: SQL, CtxParam: 0, Bound: ByContext},
	"(*github.com/jackc/pgx/v5.Conn).Query":                    {Kind: SQL, CtxParam: 0, Bound: ByContext},
	"(*github.com/jackc/pgx/v5.Conn).QueryRow":                 {Kind: SQL, CtxParam: 0, Bound: ByContext},
	"(*github.com/jackc/pgx/v5.Conn).Begin":                    {Kind: SQL, CtxParam: 0, Bound: ByContext},
	"(*github.com/jackc/pgx/v5.Conn).BeginTx":                  {Kind: SQL, CtxParam: 0, Bound: ByContext},
	"(*github.com/jackc/pgx/v5.Conn).Ping":                     {Kind: SQL, CtxParam: 0, Bound: ByContext},
	"(*github.com/jackc/pgx/v5.Conn).SendBatch":                {Kind: SQL, CtxParam: 0, Bound: ByContext},
	"(*github.com/jackc/pgx/v5.Conn).CopyFrom":                 {Kind: SQL, CtxParam: 0, Bound: ByContext},
	"(github.com/jackc/pgx/v5.Tx).Exec":                        {Kind: SQL, CtxParam: 0, Bound: ByContext},
	"(github.com/jackc/pgx/v5.Tx).Query":                       {Kind: SQL, CtxParam: 0, Bound: ByContext},
	"(github.com/jackc/pgx/v5.Tx).QueryRow":                    {Kind: SQL, CtxParam: 0, Bound: ByContext},
	"(github.com/jackc/pgx/v5.Tx).SendBatch":                   {Kind: SQL, CtxParam: 0, Bound: ByContext},
	"(github.com/jackc/pgx/v5.Tx).CopyFrom":                    {Kind: SQL, CtxParam: 0, Bound: ByContext},
	"(github.com/jackc/pgx/v5.Tx).Commit":                      {Kind: SQL, CtxParam: 0, Bound: ByContext},
	"(*github.com/jackc/pgx/v4/pgxpool.Pool).Exec":             {Kind: SQL, CtxParam: 0, Bound: ByContext},
	"(*github.com/jackc/pgx/v4/pgxpool.Pool).Query":            {Kind: SQL, CtxParam: 0, Bound: ByContext},
	"(*github.com/jackc/pgx/v4/pgxpool.Pool).QueryRow":         {Kind: SQL, CtxParam: 0, Bound: ByContext},
	"(*github.com/jackc/pgx/v4/pgxpool.Pool).Begin":            {Kind: SQL, CtxParam: 0, Bound: ByContext},
	"(*github.com/jackc/pgx/v4/pgxpool.Pool).BeginTx":          {Kind: SQL, CtxParam: 0, Bound: ByContext},
	"(*github.com/jackc/pgx/v4/pgxpool.Pool).Acquire":          {Kind: SQL, CtxParam: 0, Bound: ByContext},
	"(*github.com/jackc/pgx/v4/pgxpool.Pool).Ping":             {Kind: SQL, CtxParam: 0, Bound: ByContext},
	"(*github.com/jackc/pgx/v4/pgxpool.Pool).SendBatch":        {Kind: SQL, CtxParam: 0, Bound: ByContext},
	"(*github.com/jackc/pgx/v4/pgxpool.Pool).CopyFrom":         {Kind: SQL, CtxParam: 0, Bound: ByContext},
	"(*github.com/jackc/pgx/v4/pgxpool.Conn).Exec":             {Kind: SQL, CtxParam: 0, Bound: ByContext},
	"(*github.com/jackc/pgx/v4/pgxpool.Conn).Query":            {Kind: SQL, CtxParam: 0, Bound: ByContext},
	"(*github.com/jackc/pgx/v4/pgxpool.Conn).QueryRow":         {Kind: SQL, CtxParam: 0, Bound: ByContext},
	"(*github.com/jackc/pgx/v4/pgxpool.Conn).Begin":            {Kind: SQL, CtxParam: 0, Bound: ByContext},
	"(*github.com/jackc/pgx/v4/pgxpool.Conn).BeginTx":          {Kind: SQL, CtxParam: 0, Bound: ByContext},
	"(*github.com/jackc/pgx/v4/pgxpool.Conn).Ping":             {Kind: SQL, CtxParam: 0, Bound: ByContext},
	"(*github.com/jackc/pgx/v4/pgxpool.Conn).SendBatch":        {Kind: SQL, CtxParam: 0, Bound: ByContext},
	"(*github.com/jackc/pgx/v4/pgxpool.Conn).CopyFrom":         {Kind: SQL, CtxParam: 0, Bound: ByContext},
	"(*github.com/jackc/pgx/v4.Conn).Exec":                     {Kind: SQL, CtxParam: 0, Bound: ByContext},
	"(*github.com/jackc/pgx/v4.Conn).Query":                    {Kind: SQL, CtxParam: 0, Bound: ByContext},
	"(*github.com/jackc/pgx/v4.Conn).QueryRow":                 {Kind: SQL, CtxParam: 0, Bound: ByContext},
	"(*github.com/jackc/pgx/v4.Conn).Begin":                    {Kind: SQL, CtxParam: 0, Bound: ByContext},
	"(*github.com/jackc/pgx/v4.Conn).BeginTx":                  {Kind: SQL, CtxParam: 0, Bound: ByContext},
	"(*github.com/jackc/pgx/v4.Conn).Ping":                     {Kind: SQL, CtxParam: 0, Bound: ByContext},
	"(*github.com/jackc/pgx/v4.Conn).SendBatch":                {Kind: SQL, CtxParam: 0, Bound: ByContext},
	"(*github.com/jackc/pgx/v4.Conn).CopyFrom":                 {Kind: SQL, CtxParam: 0, Bound: ByContext},
	"(github.com/jackc/pgx/v4.Tx).Exec":                        {Kind: SQL, CtxParam: 0, Bound: ByContext},
	"(github.com/jackc/pgx/v4.Tx).Query":                       {Kind: SQL, CtxParam: 0, Bound: ByContext},
	"(github.com/jackc/pgx/v4.Tx).QueryRow":                    {Kind: SQL, CtxParam: 0, Bound: ByContext},
	"(github.com/jackc/pgx/v4.Tx).SendBatch":                   {Kind: SQL, CtxParam: 0, Bound: ByContext},
	"(github.com/jackc/pgx/v4.Tx).CopyFrom":                    {Kind: SQL, CtxParam: 0, Bound: ByContext},
	"(github.com/jackc/pgx/v4.Tx).Commit":                      {Kind: SQL, CtxParam: 0, Bound: ByContext},
	"(*github.com/nats-io/nats.go.Conn).RequestWithContext":    {Kind: NATS, CtxParam: 0, Bound: ByContext},
	"(*github.com/nats-io/nats.go.Conn).RequestMsgWithContext": {Kind: NATS, CtxParam: 0, Bound: ByContext},
	"(*github.com/nats-io/nats.go.Conn).FlushWithContext":      {Kind: NATS, CtxParam: 0, Bound: ByContext},
	// controller-runtime's writes go to the API server, whose client has
	// no timeout unless the rest.Config sets one (it does not by
	// default). Its reads are left out: a manager's client serves Get and
	// List from the informer cache.
	"(sigs.k8s.io/controller-runtime/pkg/client.Writer).Create":            {Kind: Kubernetes, CtxParam: 0, Bound: ByContext},
	"(sigs.k8s.io/controller-runtime/pkg/client.Writer).Update":            {Kind: Kubernetes, CtxParam: 0, Bound: ByContext},
	"(sigs.k8s.io/controller-runtime/pkg/client.Writer).Patch":             {Kind: Kubernetes, CtxParam: 0, Bound: ByContext},
	"(sigs.k8s.io/controller-runtime/pkg/client.Writer).Delete":            {Kind: Kubernetes, CtxParam: 0, Bound: ByContext},
	"(sigs.k8s.io/controller-runtime/pkg/client.Writer).DeleteAllOf":       {Kind: Kubernetes, CtxParam: 0, Bound: ByContext},
	"(sigs.k8s.io/controller-runtime/pkg/client.SubResourceWriter).Create": {Kind: Kubernetes, CtxParam: 0, Bound: ByContext},
	"(sigs.k8s.io/controller-runtime/pkg/client.SubResourceWriter).Update": {Kind: Kubernetes, CtxParam: 0, Bound: ByContext},
	"(sigs.k8s.io/controller-runtime/pkg/client.SubResourceWriter).Patch":  {Kind: Kubernetes, CtxParam: 0, Bound: ByContext},
}

// outboundPatterns cover clients with hundreds of generated methods: a
// method matching the pattern (path.Match syntax) is outbound when its
// first parameter is a context. Kept out of the exact table's
// type-checked keys.
var outboundPatterns = []struct {
	prefix, pattern string
	Outbound
}{
	// AWS SDK v2: every operation of every service client. Its default
	// HTTP client has no overall timeout.
	{"(*github.com/aws/aws-sdk-go-v2/service/", "(*github.com/aws/aws-sdk-go-v2/service/*.Client).*", Outbound{Kind: AWS, CtxParam: 0, Bound: ByContext}},
	// MongoDB: no operation timeout unless the client sets one.
	{"(*go.mongodb.org/mongo-driver/mongo.", "(*go.mongodb.org/mongo-driver/mongo.*).*", Outbound{Kind: Mongo, CtxParam: 0, Bound: ByContext}},
	{"(*go.mongodb.org/mongo-driver/v2/mongo.", "(*go.mongodb.org/mongo-driver/v2/mongo.*).*", Outbound{Kind: Mongo, CtxParam: 0, Bound: ByContext}},
	// go-elasticsearch: every API request's Do(ctx, transport); its
	// default transport has no timeout.
	{"(github.com/elastic/go-elasticsearch/v8/esapi.", "(github.com/elastic/go-elasticsearch/v8/esapi.*).Do", Outbound{Kind: Elasticsearch, CtxParam: 0, Bound: ByContext}},
	{"(github.com/elastic/go-elasticsearch/v9/esapi.", "(github.com/elastic/go-elasticsearch/v9/esapi.*).Do", Outbound{Kind: Elasticsearch, CtxParam: 0, Bound: ByContext}},
}

// Not in the tables on purpose, each bounded by a default timeout of its
// own: gocql (ClusterConfig.Timeout, 11 s), kafka-go's Writer
// (WriteTimeout, 10 s; a Reader waits for messages by design), go-redis
// (above).

// timeoutInterceptors build gRPC client interceptors that give every call
// without a deadline a default one.
var timeoutInterceptors = map[string]bool{
	"github.com/grpc-ecosystem/go-grpc-middleware/v2/interceptors/timeout.UnaryClientInterceptor":        true,
	"github.com/grpc-ecosystem/go-grpc-middleware/v2/interceptors/timeout.TimeoutUnaryClientInterceptor": true,
	// The runtime's: a call without a deadline gets DeadlineOptions'
	// per-method default or Default (10 s when zero).
	"github.com/resilvet/resilvet/runtime/grpcx.UnaryDeadline": true,
}

// retainingContext keep the context they are given for the lifetime of
// the client, transport or token source they build (their documentation
// says so): handing them a request's context would be the bug.
var retainingContext = map[string]bool{
	// certmagic manages certificates in the background for as long as
	// the context lives, and bounds its own requests.
	"(*github.com/caddyserver/certmagic.Config).ManageAsync":      true,
	"(*github.com/caddyserver/certmagic.Config).ManageSync":       true,
	"golang.org/x/oauth2.NewClient":                               true,
	"(*golang.org/x/oauth2.Config).Client":                        true,
	"(*golang.org/x/oauth2.Config).TokenSource":                   true,
	"(*golang.org/x/oauth2/clientcredentials.Config).Client":      true,
	"(*golang.org/x/oauth2/clientcredentials.Config).TokenSource": true,
	"(*golang.org/x/oauth2/jwt.Config).Client":                    true,
	"(*golang.org/x/oauth2/jwt.Config).TokenSource":               true,
	"golang.org/x/oauth2/google.DefaultClient":                    true,
	"golang.org/x/oauth2/google.DefaultTokenSource":               true,
	"golang.org/x/oauth2/google.FindDefaultCredentials":           true,
	"golang.org/x/oauth2/google.CredentialsFromJSON":              true,
	"google.golang.org/api/transport/http.NewTransport":           true,
	"google.golang.org/api/transport/http.NewClient":              true,
	"google.golang.org/api/transport/grpc.Dial":                   true,
	"google.golang.org/api/transport/grpc.DialPool":               true,
	// go-oidc keeps the context for fetching keys later, for as long as
	// the verifier lives: a deadline on it would break every later fetch.
	"github.com/coreos/go-oidc/v3/oidc.NewRemoteKeySet":             true,
	"(*github.com/coreos/go-oidc/v3/oidc.Provider).VerifierContext": true,
	// pgx's pool creates its minimum idle connections in a goroutine with
	// the context it is given, after returning: a request's context would
	// cancel them.
	"github.com/jackc/pgx/v5/pgxpool.New":           true,
	"github.com/jackc/pgx/v5/pgxpool.NewWithConfig": true,
	// dskit's services (and Cortex's copy) make the context StartAsync is
	// given the parent of the service's own, for the service's life.
	"(github.com/grafana/dskit/services.Service).StartAsync":                       true,
	"(*github.com/grafana/dskit/services.BasicService).StartAsync":                 true,
	"(github.com/cortexproject/cortex/pkg/util/services.Service).StartAsync":       true,
	"(*github.com/cortexproject/cortex/pkg/util/services.BasicService).StartAsync": true,
}

// serves start servers, or accept the connections of one.
var serves = map[string]bool{
	"net/http.ListenAndServe":                true,
	"net/http.ListenAndServeTLS":             true,
	"net/http.Serve":                         true,
	"net/http.ServeTLS":                      true,
	"(*net/http.Server).ListenAndServe":      true,
	"(*net/http.Server).ListenAndServeTLS":   true,
	"(*net/http.Server).Serve":               true,
	"(*net/http.Server).ServeTLS":            true,
	"(*google.golang.org/grpc.Server).Serve": true,
	// A raw listener's accept loop serves connections too.
	"(net.Listener).Accept":          true,
	"(*net.TCPListener).Accept":      true,
	"(*net.TCPListener).AcceptTCP":   true,
	"(*net.UnixListener).Accept":     true,
	"(*net.UnixListener).AcceptUnix": true,
}

// retryLayers are library calls that retry the function they are given,
// or their own request. Attempt counts are the libraries' documented
// defaults, the first attempt included.
var retryLayers = map[string]RetryLayer{
	"github.com/avast/retry-go/v4.Do":                          {DefaultAttempts: 10, FuncArg: 0, OptionsFrom: 1, ContextOption: retrygoContext, ContextHint: "retry.Context(ctx)"},
	"github.com/avast/retry-go/v4.DoWithData":                  {DefaultAttempts: 10, FuncArg: 0, OptionsFrom: 1, ContextOption: retrygoContext, ContextHint: "retry.Context(ctx)"},
	"github.com/cenkalti/backoff/v4.Retry":                     {DefaultAttempts: 0, FuncArg: 0, OptionsFrom: 1, BackOffObject: true, ContextOption: backoffContext, ContextHint: "backoff.WithContext(b, ctx)"}, // bounded by MaxElapsedTime (15m), not by count
	"github.com/cenkalti/backoff/v4.RetryWithData":             {DefaultAttempts: 0, FuncArg: 0, OptionsFrom: 1, BackOffObject: true, ContextOption: backoffContext, ContextHint: "backoff.WithContext(b, ctx)"},
	"github.com/cenkalti/backoff/v4.RetryNotify":               {DefaultAttempts: 0, FuncArg: 0, OptionsFrom: 1, BackOffObject: true, ContextOption: backoffContext, ContextHint: "backoff.WithContext(b, ctx)"},
	"github.com/cenkalti/backoff/v4.RetryNotifyWithData":       {DefaultAttempts: 0, FuncArg: 0, OptionsFrom: 1, BackOffObject: true, ContextOption: backoffContext, ContextHint: "backoff.WithContext(b, ctx)"},
	"github.com/cenkalti/backoff/v5.Retry":                     {DefaultAttempts: 0, FuncArg: 1, OptionsFrom: 2}, // 15m of elapsed time by default
	"github.com/cenkalti/backoff/v7.Retry":                     {DefaultAttempts: 0, FuncArg: 1, OptionsFrom: 2}, // as v5
	"github.com/resilvet/resilvet/runtime/retry.Do":            {DefaultAttempts: 3, FuncArg: 2, OptionsFrom: 1, Policy: true, YieldsWhenNested: true},
	"github.com/resilvet/resilvet/runtime/retry.DoValue":       {DefaultAttempts: 3, FuncArg: 2, OptionsFrom: 1, Policy: true, YieldsWhenNested: true},
	"(*github.com/hashicorp/go-retryablehttp.Client).Do":       {DefaultAttempts: 5, FuncArg: -1, OptionsFrom: -1, RetriesField: "RetryMax"},
	"(*github.com/hashicorp/go-retryablehttp.Client).Get":      {DefaultAttempts: 5, FuncArg: -1, OptionsFrom: -1, RetriesField: "RetryMax"},
	"(*github.com/hashicorp/go-retryablehttp.Client).Head":     {DefaultAttempts: 5, FuncArg: -1, OptionsFrom: -1, RetriesField: "RetryMax"},
	"(*github.com/hashicorp/go-retryablehttp.Client).Post":     {DefaultAttempts: 5, FuncArg: -1, OptionsFrom: -1, RetriesField: "RetryMax"},
	"(*github.com/hashicorp/go-retryablehttp.Client).PostForm": {DefaultAttempts: 5, FuncArg: -1, OptionsFrom: -1, RetriesField: "RetryMax"},
	// The OpenTelemetry Collector's exporter helpers: the push function
	// is retried, until the retry config's elapsed time (5 minutes by
	// default), when WithRetry is among the options.
	"go.opentelemetry.io/collector/exporter/exporterhelper.NewTraces":                   {DefaultAttempts: 1, FuncArg: 3, OptionsFrom: 4},
	"go.opentelemetry.io/collector/exporter/exporterhelper.NewLogs":                     {DefaultAttempts: 1, FuncArg: 3, OptionsFrom: 4},
	"go.opentelemetry.io/collector/exporter/exporterhelper.NewMetrics":                  {DefaultAttempts: 1, FuncArg: 3, OptionsFrom: 4},
	"go.opentelemetry.io/collector/exporter/exporterhelper/xexporterhelper.NewProfiles": {DefaultAttempts: 1, FuncArg: 3, OptionsFrom: 4},
	// franz-go: a record is tried until it is delivered (no limit by
	// default), or RecordRetries(n) times, given to NewClient.
	"(*github.com/twmb/franz-go/pkg/kgo.Client).ProduceSync": {DefaultAttempts: 0, FuncArg: -1, OptionsFrom: 2, ConstructorOptions: true},
	// failsafe-go: an executor runs the function through its policies;
	// its retry policies decide the count (retryPolicies).
	"(github.com/failsafe-go/failsafe-go.Executor[R any]).Run":              {DefaultAttempts: 1, FuncArg: 0, OptionsFrom: -1, Policies: true, ContextMethod: "WithContext", ContextHint: "WithContext(ctx) on the executor"},
	"(github.com/failsafe-go/failsafe-go.Executor[R any]).Get":              {DefaultAttempts: 1, FuncArg: 0, OptionsFrom: -1, Policies: true, ContextMethod: "WithContext", ContextHint: "WithContext(ctx) on the executor"},
	"(github.com/failsafe-go/failsafe-go.Executor[R any]).RunWithExecution": {DefaultAttempts: 1, FuncArg: 0, OptionsFrom: -1, Policies: true, ContextMethod: "WithContext", ContextHint: "WithContext(ctx) on the executor"},
	"(github.com/failsafe-go/failsafe-go.Executor[R any]).GetWithExecution": {DefaultAttempts: 1, FuncArg: 0, OptionsFrom: -1, Policies: true, ContextMethod: "WithContext", ContextHint: "WithContext(ctx) on the executor"},
}

// The options that give a layer its caller's context.
const (
	retrygoContext = "github.com/avast/retry-go/v4.Context"
	backoffContext = "github.com/cenkalti/backoff/v4.WithContext"
)

// failsafeClassifiers choose which failures a failsafe-go policy handles.
var failsafeClassifiers = []string{"HandleErrors", "HandleErrorTypes", "HandleResult", "HandleIf", "AbortOnErrors", "AbortOnErrorTypes", "AbortOnResult", "AbortIf"}

// breakerPolicies build a circuit breaker policy, with the error it fails
// executions with while open.
var breakerPolicies = map[string]string{
	"(github.com/failsafe-go/failsafe-go/circuitbreaker.Builder[R any]).Build": "github.com/failsafe-go/failsafe-go/circuitbreaker.ErrOpen",
	"github.com/failsafe-go/failsafe-go/circuitbreaker.NewWithDefaults":        "github.com/failsafe-go/failsafe-go/circuitbreaker.ErrOpen",
}

// retryPolicies are the calls that build a retry policy: failsafe-go's
// builder (3 attempts unless WithMaxRetries or WithMaxAttempts says
// otherwise, -1 for no limit) and its policy with defaults.
var retryPolicies = map[string]RetryPolicy{
	"(github.com/failsafe-go/failsafe-go/retrypolicy.Builder[R any]).Build": {DefaultAttempts: 3, Retries: "WithMaxRetries", Attempts: "WithMaxAttempts", Classifiers: failsafeClassifiers},
	"github.com/failsafe-go/failsafe-go/retrypolicy.NewWithDefaults":        {DefaultAttempts: 3},
}

// retryingHTTPClients return an *http.Client whose transport retries.
var retryingHTTPClients = map[string]RetryLayer{
	"(*github.com/hashicorp/go-retryablehttp.Client).StandardClient": {DefaultAttempts: 5, FuncArg: -1, OptionsFrom: -1, RetriesField: "RetryMax"},
}

// sendingInterfaceMethods are interface methods whose implementations
// send by contract: a loop calling one through the interface retries
// outbound work (a Transport wrapping the next one).
var sendingInterfaceMethods = map[string]bool{
	"(net/http.RoundTripper).RoundTrip": true,
}

// retryingClientTypes are the retrying clients whose own methods are
// layers (the retryLayers above): a function returning one hands its
// count on to callers (ReturnsClient).
var retryingClientTypes = map[string]RetryLayer{
	"github.com/hashicorp/go-retryablehttp.Client": {DefaultAttempts: 5, FuncArg: -1, OptionsFrom: -1, RetriesField: "RetryMax"},
}

// grpcDials dial a gRPC connection, with the index of their first dial
// option: the retry module reads a retry service config or a retry
// interceptor there.
var grpcDials = map[string]int{
	"google.golang.org/grpc.NewClient":   1,
	"google.golang.org/grpc.Dial":        1,
	"google.golang.org/grpc.DialContext": 2,
}

// grpcRetryInterceptors build client interceptors that retry, with their
// attempts when no option is given: go-grpc-middleware's retry makes no
// retry unless WithMax says how many.
var grpcRetryInterceptors = map[string]int{
	"github.com/grpc-ecosystem/go-grpc-middleware/v2/interceptors/retry.UnaryClientInterceptor": 1,
	"github.com/grpc-ecosystem/go-grpc-middleware/retry.UnaryClientInterceptor":                 1,
}

// breakers are circuit breakers' calls, with the errors they fail with
// while the circuit is open.
var breakers = map[string]Breaker{
	"(*github.com/sony/gobreaker.CircuitBreaker).Execute":           {FuncArg: 0, OpenErrors: []string{"github.com/sony/gobreaker.ErrOpenState", "github.com/sony/gobreaker.ErrTooManyRequests"}},
	"(*github.com/sony/gobreaker/v2.CircuitBreaker[T any]).Execute": {FuncArg: 0, OpenErrors: []string{"github.com/sony/gobreaker/v2.ErrOpenState", "github.com/sony/gobreaker/v2.ErrTooManyRequests"}},
	"(*github.com/resilvet/resilvet/runtime/breaker.Breaker).Do":    {FuncArg: 1, OpenErrors: []string{"github.com/resilvet/resilvet/runtime/breaker.ErrOpen"}},
}

// executors make an executor from policies given from the argument of
// that index on.
var executors = map[string]int{
	"github.com/failsafe-go/failsafe-go.With": 0,
}

// retryLayerPatterns are retrying clients with many methods: a method
// matching the pattern (path.Match syntax) whose first parameter is a
// context is a layer of the client's attempts.
var retryLayerPatterns = []struct {
	prefix, pattern string
	RetryLayer
}{
	// go-redis v9: every command retries MaxRetries times after the
	// first (3 by default, -1 for none).
	{"(*github.com/redis/go-redis/v9.Client).", "(*github.com/redis/go-redis/v9.Client).*", RetryLayer{DefaultAttempts: 4, FuncArg: -1, OptionsFrom: -1, OptionsField: "MaxRetries"}},
	{"(*github.com/redis/go-redis/v9.ClusterClient).", "(*github.com/redis/go-redis/v9.ClusterClient).*", RetryLayer{DefaultAttempts: 4, FuncArg: -1, OptionsFrom: -1, OptionsField: "MaxRetries"}},
	{"(*github.com/redis/go-redis/v9.Ring).", "(*github.com/redis/go-redis/v9.Ring).*", RetryLayer{DefaultAttempts: 4, FuncArg: -1, OptionsFrom: -1, OptionsField: "MaxRetries"}},
	{"(github.com/redis/go-redis/v9.Cmdable).", "(github.com/redis/go-redis/v9.Cmdable).*", RetryLayer{DefaultAttempts: 4, FuncArg: -1, OptionsFrom: -1, OptionsField: "MaxRetries"}},
	// A Client's commands are methods of the func types it embeds.
	{"(github.com/redis/go-redis/v9.cmdable).", "(github.com/redis/go-redis/v9.cmdable).*", RetryLayer{DefaultAttempts: 4, FuncArg: -1, OptionsFrom: -1, OptionsField: "MaxRetries"}},
	{"(github.com/redis/go-redis/v9.statefulCmdable).", "(github.com/redis/go-redis/v9.statefulCmdable).*", RetryLayer{DefaultAttempts: 4, FuncArg: -1, OptionsFrom: -1, OptionsField: "MaxRetries"}},
	{"(github.com/redis/go-redis/v9.UniversalClient).", "(github.com/redis/go-redis/v9.UniversalClient).*", RetryLayer{DefaultAttempts: 4, FuncArg: -1, OptionsFrom: -1, OptionsField: "MaxRetries"}},
	// minio-go: every request of a Client is retried up to MaxRetry (10)
	// times, a package variable nobody sets per client.
	{"(*github.com/minio/minio-go/v7.Client).", "(*github.com/minio/minio-go/v7.Client).*", RetryLayer{DefaultAttempts: 10, FuncArg: -1, OptionsFrom: -1, CountVar: "MaxRetry"}},
	// openai-go: every request of a service (client.Chat.Completions.New)
	// retries MaxRetries times after the first (2 by default), set by
	// option.WithMaxRetries on the client or the request.
	{"(*github.com/openai/openai-go.", "(*github.com/openai/openai-go.*Service).*", RetryLayer{DefaultAttempts: 3, FuncArg: -1, OptionsFrom: 0, ConstructorOptions: true}},
	{"(*github.com/openai/openai-go/v2.", "(*github.com/openai/openai-go/v2.*Service).*", RetryLayer{DefaultAttempts: 3, FuncArg: -1, OptionsFrom: 0, ConstructorOptions: true}},
	{"(*github.com/openai/openai-go/v3.", "(*github.com/openai/openai-go/v3.*Service).*", RetryLayer{DefaultAttempts: 3, FuncArg: -1, OptionsFrom: 0, ConstructorOptions: true}},
	// AWS SDK v2: the standard retryer makes 3 attempts of every
	// operation, unless the config, the client's options or the call's
	// say otherwise (retryerConfigs).
	{"(*github.com/aws/aws-sdk-go-v2/service/", "(*github.com/aws/aws-sdk-go-v2/service/*.Client).*", RetryLayer{DefaultAttempts: 3, FuncArg: -1, OptionsFrom: 2, Retryer: true}},
}

// retryLayerExcluded are methods of the retrying clients above that send
// no command of their own: subscriptions, pipelines, hooks.
var retryLayerExcluded = map[string]bool{
	"Subscribe": true, "PSubscribe": true, "SSubscribe": true, "Watch": true,
	"Pipelined": true, "TxPipelined": true, "Pipeline": true, "TxPipeline": true,
	"Conn": true, "Options": true, "PoolStats": true, "AddHook": true, "Close": true,
}

// retryOptions are the options and backoff wrappers of the retry
// libraries that change a layer's attempt count.
var retryOptions = map[string]RetryOption{
	"github.com/avast/retry-go/v4.Attempts":                           {Arg: 0, ZeroUnbounded: true},
	"github.com/avast/retry-go/v4.UntilSucceeded":                     {Arg: -1, Unbounded: true},
	"github.com/cenkalti/backoff/v4.WithMaxRetries":                   {Arg: 1, Add: 1, WrapsBackOff: true},
	"github.com/cenkalti/backoff/v4.WithContext":                      {Arg: 0, PassThrough: true, WrapsBackOff: true},
	"github.com/cenkalti/backoff/v5.WithMaxTries":                     {Arg: 0, ZeroUnbounded: true},
	"github.com/cenkalti/backoff/v7.WithMaxTries":                     {Arg: 0, ZeroUnbounded: true},
	"github.com/twmb/franz-go/pkg/kgo.RecordRetries":                  {Arg: 0},
	"go.opentelemetry.io/collector/exporter/exporterhelper.WithRetry": {Arg: -1, Unbounded: true},
	"github.com/openai/openai-go/option.WithMaxRetries":               {Arg: 0, Add: 1},
	"github.com/openai/openai-go/v2/option.WithMaxRetries":            {Arg: 0, Add: 1},
	"github.com/openai/openai-go/v3/option.WithMaxRetries":            {Arg: 0, Add: 1},
	// go-grpc-middleware's retry interceptors: WithMax counts retries.
	"github.com/grpc-ecosystem/go-grpc-middleware/v2/interceptors/retry.WithMax": {Arg: 0, Add: 1},
	"github.com/grpc-ecosystem/go-grpc-middleware/retry.WithMax":                 {Arg: 0, Add: 1},
}

// retryerConfigs: the AWS SDK v2's clients retry 3 times unless their
// config or options say otherwise.
var retryerConfigs = []RetryerConfig{{
	Packages:          "github.com/aws/aws-sdk-go-v2/service/",
	FromConfig:        "NewFromConfig",
	FromOptions:       "New",
	LoadConfig:        "github.com/aws/aws-sdk-go-v2/config.LoadDefaultConfig",
	ConfigMaxAttempts: "github.com/aws/aws-sdk-go-v2/config.WithRetryMaxAttempts",
	ConfigRetryer:     "github.com/aws/aws-sdk-go-v2/config.WithRetryer",
	MaxAttemptsField:  "RetryMaxAttempts",
	RetryerField:      "Retryer",
	NoRetries:         "github.com/aws/aws-sdk-go-v2/aws.NopRetryer",
	WithMaxAttempts:   "github.com/aws/aws-sdk-go-v2/aws/retry.AddWithMaxAttempts",
	Standard:          "github.com/aws/aws-sdk-go-v2/aws/retry.NewStandard",
	StandardField:     "MaxAttempts",
	StandardAttempts:  3,
}}

// callOptionRetries: Google Cloud's generated clients retry through
// gax.Invoke with the retryer their call options give.
var callOptionRetries = []CallOptionRetries{{
	Packages:       "cloud.google.com/go/",
	Option:         "github.com/googleapis/gax-go/v2.CallOption",
	Retry:          "github.com/googleapis/gax-go/v2.WithRetry",
	OptionsField:   "CallOptions",
	DefaultsPrefix: "default",
	REST:           "REST",
}}

// backOffPackages hand out backoff objects whose NextBackOff retry loops
// draw on.
var backOffPackages = map[string]bool{
	"github.com/cenkalti/backoff/v4": true,
	"github.com/cenkalti/backoff/v5": true,
	"github.com/cenkalti/backoff/v7": true,
}

// neverReturn are calls after which control does not continue: the
// engine's control-flow graph has no path past them (code after
// log.Fatal is not a path on which a context or a client is used).
var neverReturn = map[string]bool{
	"os.Exit":                   true,
	"runtime.Goexit":            true,
	"log.Fatal":                 true,
	"log.Fatalf":                true,
	"log.Fatalln":               true,
	"log.Panic":                 true,
	"log.Panicf":                true,
	"log.Panicln":               true,
	"(*log.Logger).Fatal":       true,
	"(*log.Logger).Fatalf":      true,
	"(*log.Logger).Fatalln":     true,
	"(*log.Logger).Panic":       true,
	"(*log.Logger).Panicf":      true,
	"(*log.Logger).Panicln":     true,
	"(*testing.common).FailNow": true,
	"(*testing.common).Fatal":   true,
	"(*testing.common).Fatalf":  true,
	"(*testing.common).SkipNow": true,
	"(*testing.common).Skip":    true,
	"(*testing.common).Skipf":   true,
}

// testFrameworks are import-path prefixes of test frameworks.
var testFrameworks = []string{
	"github.com/stretchr/testify",
	"github.com/onsi/ginkgo",
	"github.com/onsi/gomega",
	"gotest.tools",
	"go.uber.org/goleak",
	"github.com/smartystreets/goconvey",
}

// embeddedSQLDrivers are database/sql drivers of in-process databases.
var embeddedSQLDrivers = map[string]bool{
	"github.com/mattn/go-sqlite3":          true,
	"modernc.org/sqlite":                   true,
	"github.com/glebarez/go-sqlite":        true,
	"github.com/glebarez/sqlite":           true,
	"github.com/ncruces/go-sqlite3":        true,
	"github.com/ncruces/go-sqlite3/driver": true,
	"zombiezen.com/go/sqlite":              true,
	"crawshaw.io/sqlite":                   true,
	"github.com/marcboeker/go-duckdb":      true,
	"github.com/duckdb/duckdb-go/v2":       true,
}

// remoteSQLDrivers are database/sql drivers of networked databases: a
// package that links one of these besides an embedded one may use either.
var remoteSQLDrivers = []string{
	"github.com/lib/pq",
	"github.com/jackc/pgx",
	"github.com/go-sql-driver/mysql",
	"github.com/microsoft/go-mssqldb",
	"github.com/denisenkom/go-mssqldb",
	"github.com/sijms/go-ora",
	"github.com/ClickHouse/clickhouse-go",
	"github.com/snowflakedb/gosnowflake",
	"github.com/tursodatabase/libsql-client-go",
}

// embeddedSQLDriverNames are the names those drivers register.
var embeddedSQLDriverNames = map[string]bool{
	"sqlite3": true, "sqlite": true, "duckdb": true,
}

// cliFrameworks are CLI frameworks: a package defining their commands is a
// one-shot tool's, like package main.
var cliFrameworks = map[string]bool{
	"github.com/alecthomas/kong": true,
	"github.com/spf13/cobra":     true,
	"github.com/urfave/cli":      true,
	"github.com/urfave/cli/v2":   true,
	"github.com/urfave/cli/v3":   true,
}

// cliCommandTypes are those frameworks' command and app types.
var cliCommandTypes = map[string]bool{
	"github.com/spf13/cobra.Command":   true,
	"github.com/urfave/cli.App":        true,
	"github.com/urfave/cli.Command":    true,
	"github.com/urfave/cli/v2.App":     true,
	"github.com/urfave/cli/v2.Command": true,
	"github.com/urfave/cli/v3.Command": true,
}

// serverCommandNames are CLI command names that start long-lived
// processes: a binary with one is a service.
var serverCommandNames = map[string]bool{
	"run": true, "serve": true, "server": true, "start": true, "daemon": true, "agent": true, "up": true,
}

// waits are standard-library calls that block until something happens.
var waits = map[string]bool{
	"time.Sleep":                               true,
	"(*sync.WaitGroup).Wait":                   true,
	"(*sync.Cond).Wait":                        true,
	"(*os/exec.Cmd).Wait":                      true,
	"(*os.Process).Wait":                       true,
	"(*net/http.Server).Serve":                 true,
	"(net.Listener).Accept":                    true,
	"(*golang.org/x/sync/errgroup.Group).Wait": true,
}

// goroutineJoins are the calls that wait for a group of goroutines the
// caller started: work done in them is the caller's own.
var goroutineJoins = map[string]bool{
	"(*sync.WaitGroup).Wait":                   true,
	"(*golang.org/x/sync/errgroup.Group).Wait": true,
}

// goroutineStarts are the calls that run the function they are given on
// a goroutine of a group its caller can wait for (goroutineJoins).
var goroutineStarts = map[string]bool{
	"(*sync.WaitGroup).Go":                   true,
	"(*golang.org/x/sync/errgroup.Group).Go": true,
}

// catalogTables are the schemas and tables through which databases
// describe themselves (lower case): a query of them is set-up code
// deciding what to create.
var catalogTables = []string{
	"information_schema", "pg_catalog", "pg_database", "pg_tables", "pg_namespace", "pg_class", "pg_indexes",
	"sqlite_master", "sqlite_schema", "sys", "mysql",
}
