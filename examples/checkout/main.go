// Command checkout is a small example service for resilvet: an HTTP
// checkout handler that reads the cart from SQL, charges a payments
// service and asks a recommendations service for upsells. It contains, on
// purpose, the resilience mistakes resilvet reports; run
//
//	go run ./cmd/resilvet ./examples/...
//
// from the repository root to see them.
package main

import (
	"database/sql"
	"log"
	"net/http"
	"sync"
	"time"

	"github.com/resilvet/resilvet/examples/checkout/payments"
	"github.com/resilvet/resilvet/examples/checkout/recommend"
)

func main() {
	db, err := sql.Open("postgres", "postgres://localhost/shop")
	if err != nil {
		log.Fatal(err)
	}
	s := &Server{
		db:       db,
		payments: payments.New("http://payments.internal", 2*time.Second),
	}
	go refreshPopular(time.Minute)
	srv := &http.Server{
		Addr:              ":8080",
		Handler:           s.Routes(),
		ReadHeaderTimeout: 5 * time.Second,
	}
	log.Fatal(srv.ListenAndServe())
}

// popular caches the home page's popular products.
var popular struct {
	sync.Mutex
	items []string
}

// refreshPopular keeps the popular products fresh.
func refreshPopular(every time.Duration) {
	for range time.Tick(every) {
		if items, err := recommend.Popular(); err == nil {
			popular.Lock()
			popular.items = items
			popular.Unlock()
		}
	}
}
