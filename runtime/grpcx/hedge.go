package grpcx

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/resilvet/resilvet/runtime/hedge"
	"google.golang.org/grpc"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/peer"
	"google.golang.org/protobuf/proto"
)

// Methods is a set of full gRPC method names declared idempotent. Only
// IdempotentMethods makes one: a declaration reviewers and resilvet's
// analyzers can read where the interceptor is built.
type Methods struct {
	names map[string]struct{}
}

// IdempotentMethods declares that calls to the named methods (full
// names, "/package.Service/Method", as string literals so the
// declaration can be read at the call site) may run more than once,
// concurrently, without harm: reads, and writes the server deduplicates.
// It panics on a name that is not a full method name, which could never
// match a call and would leave a method unhedged without a word.
func IdempotentMethods(fullMethods ...string) Methods {
	m := Methods{names: make(map[string]struct{}, len(fullMethods))}
	for _, name := range fullMethods {
		if !validMethod(name) {
			panic(fmt.Sprintf("grpcx: %q is not a full method name such as \"/package.Service/Method\"", name))
		}
		m.names[name] = struct{}{}
	}
	return m
}

// Contains reports whether method was declared idempotent.
func (m Methods) Contains(method string) bool {
	_, ok := m.names[method]
	return ok
}

// validMethod reports whether name looks like "/package.Service/Method".
func validMethod(name string) bool {
	service, method, ok := strings.Cut(strings.TrimPrefix(name, "/"), "/")
	return ok && strings.HasPrefix(name, "/") && service != "" && method != "" && !strings.Contains(method, "/")
}

// Hedge returns a client interceptor that hedges unary calls to the
// methods declared idempotent, with hedge.Do and p: the first copy goes
// out at once, another after p's delay, the first success wins and the
// others are cancelled. Calls to other methods, and calls whose reply is
// not a proto message, pass through unhedged. p nil means a zero
// hedge.Policy of the interceptor's own (adaptive p95 delay, 2 copies,
// extra copies budgeted at 10% of calls plus 1 a second).
//
// Each copy decodes into a fresh reply message; the winner's is merged
// into the caller's reply, and its header, trailer and peer go to the
// caller's grpc.Header, grpc.Trailer and grpc.Peer options (also those
// of the retry interceptor). Errors that Retryable retries let the race
// go on (they are marked with retry.Retry, which p's default Fatal
// reads); others stop it.
//
// Put it inside the retry interceptor, whose attempts it hedges, and
// outside the breaker and the per-attempt timeout, so that each copy is
// judged and bounded on its own. Share p's Budget with the retry
// policy: one logical request deposits once between them.
func Hedge(p *hedge.Policy, methods Methods) grpc.UnaryClientInterceptor {
	if p == nil {
		p = new(hedge.Policy)
	}
	return func(ctx context.Context, method string, req, reply any, cc *grpc.ClientConn, invoker grpc.UnaryInvoker, opts ...grpc.CallOption) error {
		out, ok := reply.(proto.Message)
		if !ok || !methods.Contains(method) {
			return invoker(ctx, method, req, reply, cc, opts...)
		}
		rest, sinks := splitSinks(opts)
		win, err := hedge.Do(ctx, p, hedge.Idempotent(func(ctx context.Context) (*hedgeCopy, error) {
			c := &hedgeCopy{reply: out.ProtoReflect().New().Interface()}
			err := invoker(ctx, method, req, c.reply, cc, sinks.optionsFor(rest, c)...)
			if err != nil {
				return nil, &copyError{err: classifier{}.mark(withPushback(err, c.trailer)), copy: c}
			}
			return c, nil
		}))
		if err != nil {
			if ce, ok := errors.AsType[*copyError](err); ok {
				sinks.fill(ce.copy)
				return ce.err
			}
			return statusOf(err)
		}
		sinks.fill(win)
		proto.Reset(out)
		proto.Merge(out, win.reply)
		return nil
	}
}

// hedgeCopy is what one copy received.
type hedgeCopy struct {
	reply           proto.Message
	header, trailer metadata.MD
	peer            peer.Peer
}

// copyError is a copy's error, with what that copy received, for the
// caller's call options.
type copyError struct {
	err  error
	copy *hedgeCopy
}

func (e *copyError) Error() string { return e.err.Error() }
func (e *copyError) Unwrap() error { return e.err }

// sinks are the places the caller's call options write what the call
// received: concurrent copies must not write them, so each copy gets
// places of its own and the winner's are copied over.
type sinks struct {
	header, trailer []*metadata.MD
	peer            []*peer.Peer
}

// splitSinks separates the options that write results from the others.
func splitSinks(opts []grpc.CallOption) ([]grpc.CallOption, sinks) {
	var s sinks
	rest := make([]grpc.CallOption, 0, len(opts)+3)
	for _, o := range opts {
		switch o := o.(type) {
		case grpc.HeaderCallOption:
			s.header = append(s.header, o.HeaderAddr)
		case grpc.TrailerCallOption:
			s.trailer = append(s.trailer, o.TrailerAddr)
		case grpc.PeerCallOption:
			s.peer = append(s.peer, o.PeerAddr)
		default:
			rest = append(rest, o)
		}
	}
	return rest, s
}

// optionsFor returns the call options of copy c.
func (s *sinks) optionsFor(rest []grpc.CallOption, c *hedgeCopy) []grpc.CallOption {
	opts := rest[:len(rest):len(rest)]
	if len(s.header) > 0 {
		opts = append(opts, grpc.Header(&c.header))
	}
	// Always the trailer: it may carry the server's pushback, which
	// decides whether the copy's failure ends the race.
	opts = append(opts, grpc.Trailer(&c.trailer))
	if len(s.peer) > 0 {
		opts = append(opts, grpc.Peer(&c.peer))
	}
	return opts
}

// fill hands copy c's results to the caller's options.
func (s *sinks) fill(c *hedgeCopy) {
	for _, h := range s.header {
		*h = c.header
	}
	for _, t := range s.trailer {
		*t = c.trailer
	}
	for _, p := range s.peer {
		*p = c.peer
	}
}
