// Package pgxpool is a stub of github.com/jackc/pgx/v5/pgxpool for
// fixtures: its constructors keep their context for the pool's idle
// connections, made after they return.
package pgxpool

import (
	"context"
	"net"

	"github.com/jackc/pgx/v5"
)

type Pool struct{ ctx context.Context }

type Config struct{ ConnString string }

func ParseConfig(s string) (*Config, error) { return &Config{ConnString: s}, nil }

func NewWithConfig(ctx context.Context, c *Config) (*Pool, error) {
	p := &Pool{ctx: ctx}
	go p.createIdle(c.ConnString)
	return p, nil
}

func New(ctx context.Context, s string) (*Pool, error) {
	c, _ := ParseConfig(s)
	return NewWithConfig(ctx, c)
}

func (p *Pool) createIdle(addr string) {
	var d net.Dialer
	if c, err := d.DialContext(p.ctx, "tcp", addr); err == nil {
		c.Close()
	}
}

func (p *Pool) Ping(ctx context.Context) error {
	var d net.Dialer
	c, err := d.DialContext(ctx, "tcp", "db:5432")
	if err == nil {
		c.Close()
	}
	return err
}

// Exec runs the statement on a connection of the pool: pgx.Conn.Exec, a
// call of the knowledge table, is reached through it.
func (p *Pool) Exec(ctx context.Context, sql string, args ...any) (pgx.CommandTag, error) {
	return (&pgx.Conn{}).Exec(ctx, sql, args...)
}

func (p *Pool) QueryRow(ctx context.Context, sql string, args ...any) pgx.Row { return nil }

func (p *Pool) Begin(ctx context.Context) (pgx.Tx, error) { return nil, p.Ping(ctx) }
