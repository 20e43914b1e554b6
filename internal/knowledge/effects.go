package knowledge

import "strings"

// What hedgeidem knows about effects that are not idempotent: calls that
// publish or mail by their nature, the HTTP helpers that always POST,
// the sends whose effect is their request's, and the hedging libraries.
// Keys are (*types.Func).FullName strings, as in tables.go.

// EffectCall describes a call whose effect may not be idempotent.
type EffectCall struct {
	// Kind is "publish", "mail" or "http".
	Kind string
	// Method is the HTTP method a helper always sends ("POST" for
	// http.Post), for Kind "http".
	Method string
	// Request is the argument index of the request a send sends
	// ((*http.Client).Do), or -1; with Method empty, the effect is the
	// request's, decided by its method and headers.
	Request int
}

// publishes deliver a message each time they are called: a publish tried
// twice may be delivered twice, and a consumer sees two messages.
var publishes = map[string]bool{
	"(*github.com/segmentio/kafka-go.Writer).WriteMessages":                   true,
	"(github.com/IBM/sarama.SyncProducer).SendMessage":                        true,
	"(github.com/IBM/sarama.SyncProducer).SendMessages":                       true,
	"(github.com/Shopify/sarama.SyncProducer).SendMessage":                    true,
	"(github.com/Shopify/sarama.SyncProducer).SendMessages":                   true,
	"(*github.com/nats-io/nats.go.Conn).Publish":                              true,
	"(*github.com/nats-io/nats.go.Conn).PublishMsg":                           true,
	"(*github.com/aws/aws-sdk-go-v2/service/sqs.Client).SendMessage":          true,
	"(*github.com/aws/aws-sdk-go-v2/service/sqs.Client).SendMessageBatch":     true,
	"(*github.com/aws/aws-sdk-go-v2/service/sns.Client).Publish":              true,
	"(*github.com/aws/aws-sdk-go-v2/service/sns.Client).PublishBatch":         true,
	"(*cloud.google.com/go/pubsub.Topic).Publish":                             true,
	"(*cloud.google.com/go/pubsub/v2.Publisher).Publish":                      true,
	"(*github.com/twmb/franz-go/pkg/kgo.Client).ProduceSync":                  true,
	"(*github.com/twmb/franz-go/pkg/kgo.Client).Produce":                      true,
	"(*github.com/confluentinc/confluent-kafka-go/v2/kafka.Producer).Produce": true,
	"(*github.com/rabbitmq/amqp091-go.Channel).PublishWithContext":            true,
	"(*github.com/rabbitmq/amqp091-go.Channel).Publish":                       true,
}

// mails send a message each time they are called.
var mails = map[string]bool{
	"net/smtp.SendMail":       true,
	"(*net/smtp.Client).Data": true,
}

// httpEffects are the HTTP calls whose effect is a POST by their nature,
// or their request's.
var httpEffects = map[string]EffectCall{
	"net/http.Post":                                            {Kind: "http", Method: "POST", Request: -1},
	"net/http.PostForm":                                        {Kind: "http", Method: "POST", Request: -1},
	"(*net/http.Client).Post":                                  {Kind: "http", Method: "POST", Request: -1},
	"(*net/http.Client).PostForm":                              {Kind: "http", Method: "POST", Request: -1},
	"(*net/http.Client).Do":                                    {Kind: "http", Request: 0},
	"(net/http.RoundTripper).RoundTrip":                        {Kind: "http", Request: 0},
	"(*net/http.Transport).RoundTrip":                          {Kind: "http", Request: 0},
	"(*github.com/cristalhq/hedgedhttp.Client).Do":             {Kind: "http", Request: 0},
	"(*github.com/hashicorp/go-retryablehttp.Client).Do":       {Kind: "http", Request: 0},
	"(*github.com/hashicorp/go-retryablehttp.Client).Post":     {Kind: "http", Method: "POST", Request: -1},
	"(*github.com/hashicorp/go-retryablehttp.Client).PostForm": {Kind: "http", Method: "POST", Request: -1},
}

// idempotentByProtocol are library calls that send POSTs whose protocol
// makes them safe to repeat: ACME (RFC 8555) sends every request as a
// signed POST, its polls are reads (POST-as-GET), answering a challenge
// again changes nothing, and registering an account key that is already
// registered returns that account. A new order (AuthorizeOrder) or a
// finalisation is not among them.
var idempotentByProtocol = map[string]bool{
	"(*golang.org/x/crypto/acme.Client).Accept":              true,
	"(*golang.org/x/crypto/acme.Client).Discover":            true,
	"(*golang.org/x/crypto/acme.Client).FetchCert":           true,
	"(*golang.org/x/crypto/acme.Client).GetAuthorization":    true,
	"(*golang.org/x/crypto/acme.Client).GetChallenge":        true,
	"(*golang.org/x/crypto/acme.Client).GetOrder":            true,
	"(*golang.org/x/crypto/acme.Client).GetReg":              true,
	"(*golang.org/x/crypto/acme.Client).ListCertAlternates":  true,
	"(*golang.org/x/crypto/acme.Client).Register":            true,
	"(*golang.org/x/crypto/acme.Client).RevokeAuthorization": true,
	"(*golang.org/x/crypto/acme.Client).UpdateReg":           true,
	"(*golang.org/x/crypto/acme.Client).WaitAuthorization":   true,
	"(*golang.org/x/crypto/acme.Client).WaitOrder":           true,
}

// IdempotentByProtocol reports whether the named call sends requests its
// protocol makes safe to repeat, whatever their method.
func IdempotentByProtocol(fullName string) bool { return idempotentByProtocol[fullName] }

// EffectOf returns what the named call does that may not be idempotent.
func EffectOf(fullName string) (EffectCall, bool) {
	if publishes[fullName] {
		return EffectCall{Kind: "publish", Request: -1}, true
	}
	if mails[fullName] {
		return EffectCall{Kind: "mail", Request: -1}, true
	}
	e, ok := httpEffects[fullName]
	return e, ok
}

// requestBuilders make an HTTP request from a method and a URL; the
// value is the index of the method argument.
var requestBuilders = map[string]int{
	"net/http.NewRequest":                                         0,
	"net/http.NewRequestWithContext":                              1,
	"github.com/hashicorp/go-retryablehttp.NewRequest":            0,
	"github.com/hashicorp/go-retryablehttp.NewRequestWithContext": 1,
	"net/http/httptest.NewRequest":                                0,
}

// RequestBuilder returns the index of the method argument of a call
// making a request.
func RequestBuilder(fullName string) (int, bool) {
	i, ok := requestBuilders[fullName]
	return i, ok
}

// requestCopies return a copy of their receiver with another context.
var requestCopies = map[string]bool{
	"(*net/http.Request).WithContext":                              true,
	"(*net/http.Request).Clone":                                    true,
	"(*github.com/hashicorp/go-retryablehttp.Request).WithContext": true,
}

// IsRequestCopy reports whether the named method returns its receiver's
// request with another context (same method, same headers).
func IsRequestCopy(fullName string) bool { return requestCopies[fullName] }

// DefaultKeyHeaders are the request headers that carry an idempotency
// key a server deduplicates on.
var DefaultKeyHeaders = []string{"Idempotency-Key", "X-Idempotency-Key"}

// DefaultGRPCPrefixes are the gRPC method-name prefixes of operations
// that create or add, and so are not idempotent unless made so. A name
// matches when the prefix is followed by an upper-case letter, a digit
// or nothing (AddItem, Add; not Address).
var DefaultGRPCPrefixes = []string{"Create", "Charge", "Send", "Submit", "Transfer", "Pay", "Post", "Insert", "Add", "Increment"}

// HasMethodPrefix reports whether a method name starts with one of the
// prefixes as a word.
func HasMethodPrefix(name string, prefixes []string) (string, bool) {
	for _, p := range prefixes {
		if !strings.HasPrefix(name, p) {
			continue
		}
		rest := name[len(p):]
		if rest == "" || rest[0] >= 'A' && rest[0] <= 'Z' || rest[0] >= '0' && rest[0] <= '9' || rest[0] == '_' {
			return p, true
		}
	}
	return "", false
}

// readPaths are URL path elements of endpoints that read over POST
// (search and query APIs): a POST to one is idempotent.
var readPaths = []string{"/_search", "/_msearch", "/_count", "/_mget", "/search", "/query", "/_query", "/lookup",
	// OAuth 2 token endpoints: exchanging a one-time code or a refresh
	// token creates nothing a second try could duplicate (at worst it
	// gets invalid_grant).
	"/token", "/access_token"}

// tokenURLFields are the struct fields that hold an OAuth 2 token
// endpoint (oauth2.Endpoint's).
var tokenURLFields = map[string]bool{"TokenURL": true}

// IsTokenURLField reports whether a field holds an OAuth 2 token
// endpoint's URL.
func IsTokenURLField(name string) bool { return tokenURLFields[name] }

// ReadsOverPost reports whether a URL's text names an endpoint that
// reads over POST.
func ReadsOverPost(url string) bool {
	u := strings.ToLower(url)
	if i := strings.IndexAny(u, "?#"); i >= 0 {
		u = u[:i]
	}
	for _, p := range readPaths {
		if i := strings.Index(u, p); i >= 0 {
			rest := u[i+len(p):]
			if rest == "" || rest[0] == '/' {
				return true
			}
		}
	}
	return false
}

// uploadSessionQueries mark, in a URL's query, a POST that opens a
// resumable upload session (Google APIs' uploadType=resumable): it
// returns the session's URI and writes nothing; a second POST opens a
// second session, which expires unused.
var uploadSessionQueries = []string{"uploadtype=resumable"}

// OpensUploadSession reports whether a URL's text (or a part of it, such
// as its query) marks a POST that opens a resumable upload session.
func OpensUploadSession(url string) bool {
	u := strings.ToLower(url)
	for _, q := range uploadSessionQueries {
		if i := strings.Index(u, q); i >= 0 && (i == 0 || u[i-1] == '?' || u[i-1] == '&') {
			return true
		}
	}
	return false
}

// readMediaTypes are the Content-Types of query protocols carried over
// POST: the request reads (an OCSP status query, a DNS query).
var readMediaTypes = map[string]bool{
	"application/ocsp-request": true,
	"application/dns-message":  true,
	"application/sparql-query": true,
}

// IsReadMediaType reports whether a Content-Type value (parameters
// aside) is a query protocol's.
func IsReadMediaType(ct string) bool {
	mt, _, _ := strings.Cut(ct, ";")
	return readMediaTypes[strings.ToLower(strings.TrimSpace(mt))]
}

// NotIdempotentSQL reports why an SQL statement is not idempotent: an
// INSERT without an upsert clause, or an UPDATE setting a column from
// itself plus or minus something; "" when it is (or is not understood).
func NotIdempotentSQL(q string) string {
	q = stripSQLComments(q)
	fields := strings.Fields(q)
	if len(fields) == 0 {
		return ""
	}
	u := strings.ToUpper(q)
	switch strings.ToUpper(fields[0]) {
	case "INSERT":
		if len(fields) > 1 && (strings.EqualFold(fields[1], "IGNORE") || strings.EqualFold(fields[1], "OR")) {
			return "" // INSERT IGNORE, INSERT OR REPLACE / IGNORE
		}
		for _, upsert := range []string{"ON CONFLICT", "ON DUPLICATE KEY"} {
			if strings.Contains(strings.Join(strings.Fields(u), " "), upsert) {
				return ""
			}
		}
		return "an INSERT without an upsert clause"
	case "UPDATE":
		if selfIncrement(u) {
			return "an UPDATE that adds to a column"
		}
	}
	return ""
}

// selfIncrement reports whether an upper-cased UPDATE sets a column to
// itself plus or minus something (SET n = n + 1).
func selfIncrement(u string) bool {
	i := strings.Index(u, " SET ")
	if i < 0 {
		return false
	}
	set := u[i+5:]
	if j := strings.Index(set, " WHERE "); j >= 0 {
		set = set[:j]
	}
	for _, a := range strings.Split(set, ",") {
		col, expr, ok := strings.Cut(a, "=")
		if !ok {
			continue
		}
		col = strings.Trim(strings.TrimSpace(col), "`\"")
		operands := strings.FieldsFunc(expr, func(r rune) bool { return r == '+' || r == '-' })
		if len(operands) < 2 {
			continue
		}
		for _, o := range operands {
			o = strings.Trim(strings.TrimSpace(o), "`\"()")
			if o == col || strings.HasSuffix(o, "."+col) {
				return true
			}
		}
	}
	return false
}

func stripSQLComments(q string) string {
	for {
		q = strings.TrimLeft(q, " \t\r\n;(")
		if !strings.HasPrefix(q, "--") {
			return q
		}
		i := strings.IndexByte(q, '\n')
		if i < 0 {
			return ""
		}
		q = q[i+1:]
	}
}

// Hedges: the calls that build a hedging HTTP client or round tripper,
// with the index of the argument holding the copies (the first one
// included), or -1 when a config struct holds them.
var hedgingClients = map[string]int{
	"github.com/cristalhq/hedgedhttp.NewClient":               1,
	"github.com/cristalhq/hedgedhttp.NewClientAndStats":       1,
	"github.com/cristalhq/hedgedhttp.NewRoundTripper":         1,
	"github.com/cristalhq/hedgedhttp.NewRoundTripperAndStats": 1,
	"github.com/cristalhq/hedgedhttp.New":                     -1,
}

// HedgingClientOf returns, for a call building a hedging client or round
// tripper, the index of its copies argument (-1: the Upto field of its
// config).
func HedgingClientOf(fullName string) (int, bool) {
	i, ok := hedgingClients[fullName]
	return i, ok
}

// hedgePolicies build a failsafe-go hedge policy.
var hedgePolicies = map[string]bool{
	"github.com/failsafe-go/failsafe-go/hedgepolicy.NewWithDelay":           true,
	"github.com/failsafe-go/failsafe-go/hedgepolicy.NewWithDelayFunc":       true,
	"github.com/failsafe-go/failsafe-go/hedgepolicy.NewWithDelayQuantile":   true,
	"(github.com/failsafe-go/failsafe-go/hedgepolicy.Builder[R any]).Build": true,
}

// IsHedgePolicy reports whether the named call builds a hedge policy.
func IsHedgePolicy(fullName string) bool { return hedgePolicies[fullName] }

// Failsafe-go's HTTP integration: a request sent through policies, and a
// round tripper wrapping its policies around another.
const (
	FailsafeHTTPNewRequest      = "github.com/failsafe-go/failsafe-go/failsafehttp.NewRequest"
	FailsafeHTTPRequestDo       = "(*github.com/failsafe-go/failsafe-go/failsafehttp.Request).Do"
	FailsafeHTTPNewRoundTripper = "github.com/failsafe-go/failsafe-go/failsafehttp.NewRoundTripper"
)

// The runtime's hedge: Do runs the Op that Idempotent declares.
const (
	RuntimeHedgeIdempotent = "github.com/resilvet/resilvet/runtime/hedge.Idempotent"
	RuntimeHedgeDo         = "github.com/resilvet/resilvet/runtime/hedge.Do"
	RuntimeHedgePkg        = "github.com/resilvet/resilvet/runtime/hedge"
	RuntimeRetryPkg        = "github.com/resilvet/resilvet/runtime/retry"
)
