package grpcx

import (
	"context"
	"io"
	"sync"

	"github.com/resilvet/resilvet/runtime/budget"
	"github.com/resilvet/resilvet/runtime/retry"
	"google.golang.org/grpc"
	"google.golang.org/grpc/metadata"
	"google.golang.org/protobuf/proto"
)

// StreamRetry returns a client interceptor that retries a stream that
// fails before its first response: while the server has sent neither a
// message nor (if the caller asked for it) its header, the stream keeps
// the messages sent so far, up to RetryOptions.ReplayBuffer bytes, and
// when it fails with a retryable error (as UnaryRetry judges them), opens
// a new stream, replays them (and CloseSend, if the caller had closed),
// and goes on. The failure shows in RecvMsg, which is where the retry
// happens; a SendMsg that finds the attempt failed (io.EOF) returns nil
// and keeps its message for the replay, unless the buffer is full.
//
// After the first response, or once the messages sent outgrow the
// buffer, the stream is committed: its errors are returned, not retried,
// since the caller may have acted on what it received. Messages must
// not be modified after SendMsg (gRPC's own rule), as a replay sends
// them again; messages that are not proto messages are not buffered, and
// commit the stream.
//
// Retries go through retry.Do, with the policy's budget (a stream
// deposits once, when it opens), backoff, deadline awareness and the
// nesting rule, and send the attempt number in AttemptMetadata as
// UnaryRetry does.
func StreamRetry(o RetryOptions) grpc.StreamClientInterceptor {
	r := newRetrier(o)
	return func(ctx context.Context, desc *grpc.StreamDesc, cc *grpc.ClientConn, method string, streamer grpc.Streamer, opts ...grpc.CallOption) (grpc.ClientStream, error) {
		s := &retryStream{r: r, ctx: r.deposit(ctx), desc: desc, cc: cc, method: method, streamer: streamer, opts: opts}
		cs, err := s.open(s.ctx)
		if err != nil {
			if err := s.recover(err, nil); err != nil {
				return nil, err
			}
			return s, nil
		}
		s.cur = cs
		return s, nil
	}
}

// deposit records a stream in the policy's budget as it opens, once per
// logical request, and marks the context so that retry.Do, which runs
// only if the stream fails, does not deposit again (budget.DepositOnce).
func (r *retrier) deposit(ctx context.Context) context.Context {
	return budget.DepositOnce(ctx, r.policy.Budget)
}

// retryStream is a client stream that retries until its first response.
type retryStream struct {
	r        *retrier
	ctx      context.Context // the caller's, marked with the deposit
	desc     *grpc.StreamDesc
	cc       *grpc.ClientConn
	method   string
	streamer grpc.Streamer
	opts     []grpc.CallOption

	// mu guards what follows: SendMsg and CloseSend may run on another
	// goroutine than RecvMsg, which replaces the stream when it retries.
	mu         sync.Mutex
	cur        grpc.ClientStream
	committed  bool  // no more retries: cur is the stream for good
	buf        []any // messages sent, for replay; nil once committed
	size       int   // their bytes
	closed     bool  // CloseSend was called
	sendFailed bool  // cur's SendMsg returned io.EOF: it failed
	attempts   int   // streams opened
}

// open opens a stream, the attempts'th, and replays what the caller has
// sent so far. Called with mu held, or before s is shared.
func (s *retryStream) open(ctx context.Context) (grpc.ClientStream, error) {
	s.attempts++
	n := s.attempts
	if s.r.maxAttempts <= 1 {
		n, _ = retry.Retrying(ctx) // this layer does not retry: an outer one may
	}
	cs, err := s.streamer(withAttempt(ctx, n), s.desc, s.cc, s.method, s.opts...)
	if err != nil {
		return nil, err
	}
	s.sendFailed = false
	for _, m := range s.buf {
		if err := cs.SendMsg(m); err != nil {
			s.sendFailed = true // the new stream failed too: RecvMsg says how
			return cs, nil
		}
	}
	if s.closed {
		cs.CloseSend()
	}
	return cs, nil
}

// commit ends the retrying. mu held.
func (s *retryStream) commitLocked() {
	s.committed = true
	s.buf, s.size = nil, 0
}

func (s *retryStream) commit() {
	s.mu.Lock()
	s.commitLocked()
	s.mu.Unlock()
}

// current returns the stream and whether it is committed.
func (s *retryStream) current() (grpc.ClientStream, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.cur, s.committed
}

// recover retries after the current stream failed with err before its
// first response: retry.Do decides, with err as its first attempt's
// failure, and each further attempt opens a stream, replays, and runs op
// (the RecvMsg that failed) on it. op nil means the stream failed to
// open, and an attempt succeeds once one opens.
func (s *retryStream) recover(failed error, op func(grpc.ClientStream) error) error {
	if _, committed := s.current(); committed {
		return failed // a SendMsg past the buffer committed it meanwhile
	}
	left := s.r.maxAttempts - s.attempts
	if left <= 0 {
		s.commit()
		return s.r.judge(failed, nil)
	}
	p := s.r.policy
	if s.attempts > 1 {
		// Attempts were spent before (a stream that failed to open, then
		// failed again before its first response): only the rest remain.
		cp := *p
		cp.MaxAttempts = left + 1
		p = &cp
	}
	first, result := true, error(nil)
	err := retry.Do(s.ctx, p, func(ctx context.Context) error {
		if first {
			first = false
			return s.r.judge(failed, nil)
		}
		s.mu.Lock()
		cs, err := s.open(ctx)
		if err != nil {
			s.mu.Unlock()
			return s.r.judge(err, nil)
		}
		s.cur = cs
		s.mu.Unlock()
		if op == nil {
			return nil
		}
		switch err := op(cs); err {
		case nil:
			s.commit()
			return nil
		case io.EOF:
			s.commit() // the stream ended well without a message
			result = io.EOF
			return nil
		default:
			return s.r.judge(err, cs.Trailer())
		}
	})
	if err != nil {
		s.commit()
		return statusOf(err)
	}
	return result
}

func (s *retryStream) RecvMsg(m any) error {
	cs, committed := s.current()
	err := cs.RecvMsg(m)
	if committed {
		return err
	}
	switch err {
	case nil, io.EOF:
		s.commit()
		return err
	}
	return s.recover(withPushback(err, cs.Trailer()), func(cs grpc.ClientStream) error { return cs.RecvMsg(m) })
}

// SendMsg sends outside the lock: a send blocked by flow control must
// not keep RecvMsg from draining the stream.
func (s *retryStream) SendMsg(m any) error {
	s.mu.Lock()
	if !s.committed && !s.keep(m) {
		s.commitLocked()
		if s.sendFailed {
			s.mu.Unlock()
			return io.EOF // the stream failed and can no longer be replayed
		}
	}
	cs, committed, failed := s.cur, s.committed, s.sendFailed
	s.mu.Unlock()
	if committed {
		return cs.SendMsg(m)
	}
	if failed {
		return nil // kept for the replay RecvMsg will make
	}
	err := cs.SendMsg(m)
	if err != io.EOF {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	switch {
	case s.cur != cs:
		return nil // a retry has replaced the stream, and replayed m
	case s.committed:
		return err
	}
	s.sendFailed = true // RecvMsg will find out how, and replay m
	return nil
}

// keep buffers m for replay if it fits. mu held.
func (s *retryStream) keep(m any) bool {
	pm, ok := m.(proto.Message)
	if !ok {
		return false
	}
	n := proto.Size(pm)
	if s.size+n > s.r.buffer {
		return false
	}
	s.buf = append(s.buf, m)
	s.size += n
	return true
}

func (s *retryStream) CloseSend() error {
	s.mu.Lock()
	cs := s.cur
	if !s.committed {
		s.closed = true // replayed with the messages
		if s.sendFailed {
			s.mu.Unlock()
			return nil
		}
	}
	s.mu.Unlock()
	return cs.CloseSend()
}

// Header commits the stream when the server's header has arrived: the
// caller has seen this attempt's, and a retry would answer with another.
func (s *retryStream) Header() (metadata.MD, error) {
	cs, committed := s.current()
	md, err := cs.Header()
	if md != nil && !committed {
		s.commit()
	}
	return md, err
}

func (s *retryStream) Trailer() metadata.MD {
	cs, _ := s.current()
	return cs.Trailer()
}

func (s *retryStream) Context() context.Context {
	cs, _ := s.current()
	return cs.Context()
}
