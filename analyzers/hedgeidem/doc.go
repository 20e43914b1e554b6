// Package hedgeidem defines an Analyzer that reports hedged and retried
// operations that are not idempotent: work that may run twice and then
// takes effect twice. The analyzer's documentation, shown by `resilvet
// help hedgeidem`, is the doc variable below; the user guide is
// docs/analyzers/hedgeidem.md.
package hedgeidem

import "github.com/resilvet/resilvet/internal/analysisutil"

var doc = analysisutil.Doc{
	Title: "hedgeidem: report hedged and retried operations that are not idempotent",
	Text: `A hedged request runs in several copies at once, and a retried one runs
again after an attempt that may have succeeded on the server before it failed
or timed out at the client: cancelling a copy or giving up on an attempt does
not undo what it did. Hedging and retrying are safe only for idempotent work:
reads, PUT and DELETE, and writes carrying an idempotency key the server
deduplicates on. Hedging "charge the card" charges it twice.

hedgeidem finds every hedge: hedgedhttp clients and round trippers (built in
the package or returned by a function or held in a field of another),
failsafe-go executors, HTTP requests and round trippers with a hedge policy,
gRPC calls on a connection whose service config (grpc.WithDefaultServiceConfig)
has a hedgingPolicy for the method, and hand-rolled hedges (the same work
launched again from time.AfterFunc, or a loop launching goroutines and
waiting on a timer and the first result); and every retry layer retrystack
knows (loops, retry libraries, retrying helpers, retrying clients and
connections). With the shared SSA summaries it follows what each runs through
closures, helpers and packages, and reports:

- hedge: a hedged operation with an effect that is not idempotent;
- retry: a retried one (-hedgeidem.retries=blind keeps only clients that
  retry every request whatever its method, go-retryablehttp's; =off turns the
  category off);
- declared: resilvet's runtime hedge.Idempotent declaring work idempotent
  that is not.

Effects that are not idempotent: an HTTP POST or PATCH whose request has no
idempotency key header (Idempotency-Key, X-Idempotency-Key;
-hedgeidem.key-headers) set before it is sent, and http.Post and PostForm,
which cannot carry one (POSTs to search and query endpoints read and are
left out); an SQL INSERT without an upsert clause (ON CONFLICT, ON DUPLICATE
KEY, INSERT IGNORE, INSERT OR REPLACE) and an UPDATE that adds to a column,
when the statement is a constant; a publish (kafka-go, sarama, NATS, SQS,
SNS, Pub/Sub, franz-go, confluent-kafka-go, RabbitMQ); net/smtp.SendMail; a
gRPC method whose name starts with Create, Charge, Send, Submit, Transfer,
Pay, Post, Insert, Add or Increment as a word (-hedgeidem.grpc-prefixes),
unless listed in -hedgeidem.idempotent-methods. A function documented
//resilvet:idempotent <reason> has none: its author vouches for it.

Not reported: reads, PUT and DELETE, requests whose method or statement is
not a constant, work whose effects cannot be followed (an interface with no
implementation in sight), a layer of one attempt; _test.go files unless
-resilvet.include-tests.`,
	Example: `hc, _ := hedgedhttp.NewClient(50*time.Millisecond, 3, http.DefaultClient)
req, _ := http.NewRequestWithContext(ctx, http.MethodPost, chargeURL, body)
resp, err := hc.Do(req) // reported: three copies may each charge the card`,
	Fix: `Make the operation idempotent: give the request an idempotency key the
server deduplicates on, made once per operation so that every copy and
attempt carries the same one; make an INSERT an upsert on an operation id;
give a message an id its consumers deduplicate on. The suggested fix, for a
request built in the function outside the layer, sets the key header right
after the request is built: with the runtime's hedge.NewIdempotencyKey where
the module already requires the runtime, else with crypto/rand.Text (Go 1.24
and later). Where the work cannot be made idempotent, send it through a
client that does not hedge, or do not retry it. Silence a deliberate case
with //resilvet:ignore hedgeidem <reason>, or vouch for a function with
//resilvet:idempotent <reason>.`,
}

// Documentation returns the analyzer's documentation in parts.
func Documentation() analysisutil.Doc { return doc }
