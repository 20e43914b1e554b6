package main

import (
	"log"
	"net/http"
	"time"

	"example.com/adapter/api"
	"example.com/adapter/store"
	"example.com/sqlx"
)

func main() {
	db, err := sqlx.Open("postgres", "")
	if err != nil {
		log.Fatal(err)
	}
	h := &api.Handlers{Store: &store.Store{DB: db}, Client: &http.Client{Timeout: 5 * time.Second}}
	mux := http.NewServeMux()
	h.Routes(mux)
	log.Fatal(http.ListenAndServe(":8080", mux))
}
