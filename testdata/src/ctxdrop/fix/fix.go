package fix

import (
	"context"
	"database/sql"
	"net"
	"net/http"
	"os/exec"
	"sync"
	"time"

	"example.com/kv"
)

func work(ctx context.Context) error { return ctx.Err() }

func root(ctx context.Context) {
	work(context.Background()) // want `context.Background\(\) passed to fix.work`
}

func handler(w http.ResponseWriter, r *http.Request) {
	tctx, cancel := context.WithTimeout(context.TODO(), time.Second) // want `context.TODO\(\) passed to fix.work`
	defer cancel()
	work(tctx)
	work(context.Background())              // want `passed to fix.work while r.Context\(\) is available`
	http.NewRequest("GET", "http://x", nil) // want `http.NewRequest ignores`
	exec.Command("ls", "-l")                // want `exec.Command ignores`
}

func twins(ctx context.Context, db *sql.DB, c *kv.Client) {
	db.Query("SELECT 1") // want `sql.DB.Query ignores`
	db.Begin()           // want `sql.DB.Begin ignores`
	db.Ping()            // want `sql.DB.Ping ignores`
	c.Put("k", "v")      // want `kv.Client.Put ignores`
	args := []any{1, 2}
	db.Exec("DELETE FROM t WHERE a = ? AND b = ?", args...) // want `sql.DB.Exec ignores`
	db.Query(                                               // want `sql.DB.Query ignores`
		"SELECT 2",
		3,
	)
}

func network(ctx context.Context) {
	net.Dial("tcp", "x:1") // want `net.Dial ignores`
	net.LookupHost("x")    // want `net.LookupHost ignores`
	net.LookupIP("x")      // want `net.LookupIP ignores`
}

// A bounded dial is reported where a request is served.
func dialForRequest(w http.ResponseWriter, r *http.Request) {
	net.DialTimeout("tcp", "x:1", time.Second) // want `net.DialTimeout ignores`
}

// No fix: a shadowing ctx would change meaning.
func shadowed(ctx context.Context) {
	{
		ctx := 1
		_ = ctx
		work(context.Background()) // want `context.Background\(\) passed to fix.work`
	}
}

// A goroutine the function waits for gets the function's context.
func joined(ctx context.Context, jobs []string) {
	var wg sync.WaitGroup
	for range jobs {
		wg.Go(func() {
			work(context.Background()) // want `context.Background\(\) passed to fix.work while ctx is available`
		})
	}
	wg.Wait()
}
