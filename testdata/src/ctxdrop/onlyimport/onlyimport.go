package onlyimport

import (
	"context"
	"net/http"
)

func handler(w http.ResponseWriter, r *http.Request) {
	http.DefaultClient.Do(r.WithContext(context.Background())) // want `context.Background\(\) passed to http.Request.WithContext while r.Context\(\) is available`
}
