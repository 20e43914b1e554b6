package hedge

import (
	"context"
	"io"
	"net/http"
	"sync"
	"sync/atomic"
	"time"
)

// race is one call of Do: the first copy on the caller's goroutine, extra
// copies on goroutines of their own, each under a context of its own.
type race[T any] struct {
	p  *Policy
	op Op[T]

	marked markedCtx // the caller's, marked as deposited: every copy's parent (see parent)
	first  firstCtx  // the first copy's context

	mu      sync.Mutex
	more    []context.CancelFunc // extra copies' cancels, from copy 1
	results chan result[T]       // extra copies' results; buffered, never blocks
	max     int32
	sent    int32 // copies started, the first included
	running int32 // extra copies whose results are not read yet
	winner  int32 // the copy whose success won; -1 while none
	timed   bool  // record the winner's latency
	stopped bool  // a fatal error ended the race
	// over: Do is returning, so start nothing and release late values.
	// Atomic so the scheduler can read it without mu; written under mu.
	over atomic.Bool
}

type result[T any] struct {
	v       T
	err     error
	attempt int32
	took    time.Duration
}

// parent is the caller's context.
func (r *race[T]) parent() context.Context { return r.marked.Context }

// attempt runs copy n under ctx, holding a limiter permit for exactly as
// long as the operation runs.
func (r *race[T]) attempt(ctx context.Context, n int32) result[T] {
	if l := r.p.Limiter; l != nil {
		if err := l.Acquire(ctx); err != nil {
			return result[T]{err: err, attempt: n}
		}
		defer l.Release()
	}
	if n > 0 && ctx.Err() != nil {
		// Decided while this copy waited to start: do not send it.
		return result[T]{err: ctx.Err(), attempt: n}
	}
	heard := r.marked.deposit.Heard()
	if !r.timed {
		v, err := r.op.fn(ctx)
		r.report(ctx, err, heard)
		return result[T]{v: v, err: err, attempt: n}
	}
	start := r.p.clock.Now()
	v, err := r.op.fn(ctx)
	took := r.p.clock.Now().Sub(start)
	r.report(ctx, err, heard)
	return result[T]{v: v, err: err, attempt: n, took: took}
}

// fire sends the next copy if attempts and budget allow; the scheduler
// calls it when the copy is due.
func (r *race[T]) fire() (next time.Duration, again bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.over.Load() || r.decided() || r.sent >= r.max || !r.allowed() {
		return 0, false
	}
	r.launch()
	return r.p.CurrentDelay(), r.sent < r.max
}

// ended reports whether Do has returned, for the scheduler.
func (r *race[T]) ended() bool { return r.over.Load() }

// decided reports whether a copy has won or a fatal error ended the race.
// r.mu held.
func (r *race[T]) decided() bool { return r.winner >= 0 || r.stopped }

// launch starts the next copy on its own goroutine. r.mu held.
func (r *race[T]) launch() {
	if r.results == nil {
		r.results = make(chan result[T], r.max)
	}
	ctx, cancel := context.WithCancel(&r.marked)
	n := r.sent
	r.more = append(r.more, cancel)
	r.sent++
	r.running++
	r.p.metrics.hedges.Add(1)
	if f := r.p.OnHedge; f != nil {
		// Under mu, so that Do, which ends the race under mu, returns
		// after the hook; before the goroutine, so that a hook counting
		// copies has counted this one before it can win.
		f(int(n))
	}
	go func() {
		res := r.attempt(ctx, n)
		r.mu.Lock()
		defer r.mu.Unlock()
		if r.over.Load() { // Do has returned without this copy
			r.release(res)
			cancel()
			return
		}
		r.results <- res
		// A success, a fatal error or a pushback ends the race: stop the others (the
		// first copy among them) now rather than when Do reads this.
		switch {
		case r.decided():
		case res.err == nil:
			r.winner = n
			r.cancelExcept(n)
		case r.p.ends(res.err):
			r.stopped = true
			r.cancelExcept(-1)
		}
	}()
}

// cancelExcept cancels every copy but keep. r.mu held.
func (r *race[T]) cancelExcept(keep int32) {
	if keep != 0 {
		r.first.cancel()
	}
	for i, cancel := range r.more {
		if int32(i)+1 != keep {
			cancel()
		}
	}
}

// settle decides the call once the first copy has returned, waiting for
// extra copies when the first did not win.
func (r *race[T]) settle(first result[T]) result[T] {
	r.mu.Lock()
	if first.err == nil && r.winner < 0 {
		r.winner = 0
	}
	firstWon := r.winner == 0
	lost := r.decided() && !firstWon
	r.mu.Unlock()
	if firstWon {
		return first
	}
	lastErr := first.err
	if lost {
		r.p.metrics.cancelled.Add(1) // the first copy was stopped
		r.release(first)
	} else {
		if err := r.parent().Err(); err != nil {
			return result[T]{err: err, attempt: -1}
		}
		if r.p.ends(first.err) {
			return first
		}
	}
	for {
		r.mu.Lock()
		if r.running == 0 {
			if r.decided() || r.sent >= r.max || !r.allowed() {
				r.mu.Unlock()
				return result[T]{err: lastErr, attempt: -1}
			}
			r.launch() // every copy so far failed fast: send the next now
		}
		r.mu.Unlock()
		select {
		case res := <-r.results:
			r.mu.Lock()
			r.running--
			winner, stopped := r.winner, r.stopped
			r.mu.Unlock()
			switch {
			case res.err == nil && res.attempt == winner:
				return res
			case res.err == nil:
				r.release(res) // succeeded after the winner
				continue
			}
			lastErr = res.err
			if err := r.parent().Err(); err != nil {
				return result[T]{err: err, attempt: -1}
			}
			if stopped && r.p.ends(res.err) {
				return res
			}
		case <-r.parent().Done():
			return result[T]{err: r.parent().Err(), attempt: -1}
		}
	}
}

// end closes the race around its result: nothing more starts, late and
// unread successes are released, every context but the winner's is
// cancelled, and the winner's is tied to its value's lifetime.
func (r *race[T]) end(res result[T]) {
	r.mu.Lock()
	r.over.Store(true)
	unread := r.running
	for r.running > 0 {
		select {
		case late := <-r.results:
			r.running--
			unread--
			if late.err == nil && late.attempt != res.attempt {
				r.release(late)
			}
			continue
		default:
		}
		break
	}
	keep := int32(-1)
	if res.err == nil {
		keep = res.attempt
	}
	r.cancelExcept(keep)
	if keep >= 0 {
		if unread > 0 { // a shared counter: no write when there is nothing to add
			r.p.metrics.cancelled.Add(uint64(unread))
		}
		r.keepAlive(res.v, keep)
	}
	r.mu.Unlock()
	if keep >= 0 {
		if r.timed {
			r.p.lat.add(res.took)
		}
		if keep > 0 {
			r.p.metrics.wins.Add(1)
		}
		if f := r.p.OnWin; f != nil {
			f(int(keep))
		}
	}
}

// keepAlive cancels the winner's context when its value is done with: at
// once, or for an HTTP response when its body is closed. r.mu held.
func (r *race[T]) keepAlive(v T, winner int32) {
	if resp, ok := any(v).(*http.Response); ok && resp != nil && resp.Body != nil {
		body := &cancelOnClose{ReadCloser: resp.Body, first: &r.first}
		if winner > 0 {
			body.first, body.cancel = nil, r.more[winner-1]
		}
		resp.Body = body
		return
	}
	if winner == 0 {
		r.first.cancel()
		return
	}
	r.more[winner-1]()
}

// release disposes of a losing copy's successful value.
func (r *race[T]) release(res result[T]) {
	if res.err != nil {
		return
	}
	if r.op.release != nil {
		r.op.release(res.v)
		return
	}
	switch v := any(res.v).(type) {
	case *http.Response:
		if v != nil && v.Body != nil {
			v.Body.Close()
		}
	case io.Closer:
		if v != nil {
			v.Close()
		}
	}
}

// cancelOnClose is a winning response's body: closing it releases the
// context the response was read under, the first copy's or an extra
// copy's (a method value of first would cost an allocation).
type cancelOnClose struct {
	io.ReadCloser
	first  *firstCtx
	cancel context.CancelFunc
}

func (c *cancelOnClose) Close() error {
	err := c.ReadCloser.Close()
	if c.first != nil {
		c.first.cancel()
	} else {
		c.cancel()
	}
	return err
}
