// Package fix holds notimeout's suggested fixes; fix.go.golden is the
// result of applying them.
package fix

import (
	"context"
	"database/sql"
	"net/http"
	"time"
)

var db *sql.DB

func emptyLiteral(u string) {
	c := &http.Client{}
	c.Get(u) // want `http.Client.Get has no timeout`
}

func oneLine(u string, tr http.RoundTripper) {
	c := &http.Client{Transport: tr}
	c.Get(u) // want `http.Client.Get has no timeout`
}

func multiLine(u string, tr http.RoundTripper) {
	c := &http.Client{
		Transport: tr,
	}
	c.Head(u) // want `http.Client.Head has no timeout`
}

func rootVar(q string) {
	ctx := context.Background() // want `context.Background\(\) reaches sql.DB.QueryContext with no deadline`
	db.QueryContext(ctx, q)
}

func rootInline(q string) {
	db.ExecContext(context.TODO(), q) // want `context.TODO\(\) reaches sql.DB.ExecContext with no deadline`
}

func inLoop(qs []string) {
	for _, q := range qs {
		db.ExecContext(context.TODO(), q) // want `context.TODO\(\) reaches sql.DB.ExecContext with no deadline`
	}
}

var client = &http.Client{Timeout: 5 * time.Second}

func useBoundedClient(u string) {
	http.Get(u) // want `http.Get uses http.DefaultClient`
}
