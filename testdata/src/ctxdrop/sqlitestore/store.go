// Package sqlitestore is a storage layer on an in-process database
// (SQLite): its helpers that make their own context, or call the
// non-Context methods, do local work, and dropping the caller's context
// there loses nothing that matters.
package sqlitestore

import (
	"context"
	"database/sql"

	_ "github.com/mattn/go-sqlite3"

	"ctxdrop/sqlutil"
)

var db *sql.DB

// Count makes its own context for a local query.
func Count() int {
	var n int
	db.QueryRowContext(context.TODO(), "select count(*) from messages").Scan(&n)
	return n
}

// MarkRead uses the non-Context variant.
func MarkRead(id int) error {
	_, err := db.Exec("update messages set read = 1 where id = ?", id)
	return err
}

// Delete begins its own transaction.
func Delete(id int) error {
	tx, err := db.BeginTx(context.Background(), nil)
	if err != nil {
		return err
	}
	if _, err := tx.Exec("delete from messages where id = ?", id); err != nil {
		tx.Rollback()
		return err
	}
	return tx.Commit()
}

// Search takes a context; a caller in this package that hands it a new
// one does local work too.
func Search(ctx context.Context, q string) (*sql.Rows, error) {
	return db.QueryContext(ctx, "select id from messages where subject like ?", q)
}

// Executor is what a query builder runs on.
type Executor interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
}

// queryAndClose is a query builder's run: handed the database and a
// context.
func queryAndClose(ctx context.Context, ex Executor, q string) error {
	rows, err := ex.QueryContext(ctx, q)
	if err != nil {
		return err
	}
	return rows.Close()
}

// Tags builds its query and runs it on the database with its own
// context: local work too.
func Tags() error {
	return queryAndClose(context.TODO(), db, "select name from tags")
}

func Handle(ctx context.Context) {
	Tags()
	tx, _ := db.BeginTx(ctx, nil)
	stmt, _ := db.PrepareContext(ctx, "select 1")
	txStmt(tx, stmt)
	sqlutil.TxStmt(tx, stmt)
	Count()
	MarkRead(1)
	db.Query("select 1")
	Search(context.Background(), "x")
}

// txStmt rebinds a statement to a transaction, as a storage layer's
// helper does for every query.
func txStmt(tx *sql.Tx, stmt *sql.Stmt) *sql.Stmt {
	return tx.Stmt(stmt)
}
