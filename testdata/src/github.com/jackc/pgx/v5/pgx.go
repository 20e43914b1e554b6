// Package pgx is a stub of github.com/jackc/pgx/v5 for fixtures.
package pgx

import "context"

type Row interface{ Scan(dest ...any) error }

type Rows interface{ Close() }

type CommandTag struct{}

// Tx is a transaction.
type Tx interface {
	Exec(ctx context.Context, sql string, args ...any) (CommandTag, error)
	QueryRow(ctx context.Context, sql string, args ...any) Row
	Commit(ctx context.Context) error
	Rollback(ctx context.Context) error
}

// Conn is a connection.
type Conn struct{}

func (c *Conn) Exec(ctx context.Context, sql string, args ...any) (CommandTag, error) {
	<-ctx.Done()
	return CommandTag{}, ctx.Err()
}
