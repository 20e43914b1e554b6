// Package adaptermw holds middleware declared apart from the routes: the
// map joins what the routes pass with what these functions return.
package adaptermw

import (
	"context"
	"net/http"
	"time"
)

// Timeout serves the handler under a deadline of its own.
func Timeout(next http.HandlerFunc) http.HandlerFunc { // want `returns func\(resilmap/adaptermw.Timeout\$1\)\[0=param#0\]`
	return func(w http.ResponseWriter, r *http.Request) {
		ctx, cancel := context.WithTimeout(r.Context(), 2*time.Second)
		defer cancel()
		next(w, r.WithContext(ctx)) // want `runs captured#0 request=bounded:context.WithTimeout\(2s\)`
	}
}

// Wrap wraps an http.Handler, as most middleware does.
func Wrap(next http.Handler) http.Handler { // want `returns func\(resilmap/adaptermw.Wrap\$1\)\[0=param#0\]`
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		next.ServeHTTP(w, r) // want `runs captured#0 request=param\(resilmap/adaptermw.Wrap\$1#1\)`
	})
}

// Logger is middleware as a struct: its ServeHTTP serves the handler it
// holds.
type Logger struct{ Next http.Handler }

func (l *Logger) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	l.Next.ServeHTTP(w, r) // want `runs captured#0 request=param\(\(\*resilmap/adaptermw.Logger\).ServeHTTP#1\)`
}
