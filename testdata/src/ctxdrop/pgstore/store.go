// Package pgstore runs on a networked database: the helper's dropped
// context is reported where a context is in scope.
package pgstore

import (
	"context"
	"database/sql"

	"ctxdrop/sqlutil"
)

func Load(ctx context.Context, db *sql.DB, stmt *sql.Stmt) {
	tx, _ := db.BeginTx(ctx, nil)
	sqlutil.TxStmt(tx, stmt) // want `call to sqlutil.TxStmt drops the caller's context`
}
