// Package sqliteapi serves HTTP from the in-process storage of
// sqlitestore: no call drops a context that bounds remote work.
package sqliteapi

import (
	"net/http"

	"ctxdrop/sqlitestore"
)

func Messages(w http.ResponseWriter, r *http.Request) {
	sqlitestore.Count()
	sqlitestore.MarkRead(2)
	sqlitestore.Delete(3)
}
