package breaker

// CheckWindow checks, with no call in flight, that b's count window holds
// the totals its slots say; nil for a time window.
func CheckWindow(b *Breaker) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	if w, ok := b.win.(*countWindow); ok {
		return w.check()
	}
	return nil
}

// Force moves b to state to at once, as an operator's override would, so
// that tests can change the state under callers at any moment.
func Force(b *Breaker, to State) {
	now := b.now()
	b.mu.Lock()
	var t transition
	switch to {
	case Open:
		t = b.open(now)
	case Closed:
		b.opens = 0
		t = b.setState(Closed, now)
	default:
		t = b.setState(to, now)
	}
	b.mu.Unlock()
	b.notify(t)
}
