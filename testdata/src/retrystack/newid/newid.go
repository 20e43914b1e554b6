// Package newid draws a fresh id and inserts again when the last one
// collided: a loop handing out a value it made that round is a retry
// (only a resource taken by outbound work, a pool's connection, is
// picking).
package newid

import (
	"context"
	"crypto/rand"
	"database/sql"
	"errors"
	"fmt"
)

var errTaken = errors.New("taken")

func Create(ctx context.Context, db *sql.DB) (string, error) {
	var err error
	for i := 0; i < 5; i++ {
		var b [5]byte
		if _, rerr := rand.Read(b[:]); rerr != nil {
			return "", rerr
		}
		id := fmt.Sprintf("SHP-%X", b[:])
		_, err = db.ExecContext(ctx, "INSERT INTO shipments (id) VALUES ($1)", id) // want `retry loop around sql.DB.ExecContext tries again at once`
		if err == nil {
			return id, nil
		}
		if !errors.Is(err, errTaken) {
			return "", err
		}
	}
	return "", err
}
