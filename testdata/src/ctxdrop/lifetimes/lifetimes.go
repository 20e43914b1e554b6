// Package lifetimes passes root contexts to functions that keep their
// context for the life of what they start (not reported: a request's
// context would be cancelled under them when the request ends) and to
// one that only carries it into work done now (reported).
package lifetimes

import (
	"context"
	"net/http"

	"engine/retains"
)

func Handle(w http.ResponseWriter, r *http.Request) {
	room := retains.NewRoom(context.Background()) // ok: the room outlives the request
	defer room.Close()
	retains.StartPoller(context.Background())                   // ok: a poller started from a request outlives it
	_ = retains.Open(context.TODO())                            // ok: retained through a callee
	_ = retains.Send(retains.NewReq(context.Background(), "u")) // want `context.Background\(\) passed to retains.NewReq while r.Context\(\) is available`
}
