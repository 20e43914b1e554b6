// Command notifycmd notifies under a deadline of its own, through
// notifiers it never names.
package main

import (
	"context"
	"os"
	"strings"
	"time"

	_ "resilmap/notifyhooks"
	"resilmap/notifylib"
)

func main() {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	notifylib.Dispatch(ctx, strings.Split(os.Getenv("NOTIFIERS"), ","), "deployed")
}
