// Package sqlutil is a storage layer's shared helper package, used for
// every database: it links no driver.
package sqlutil

import "database/sql"

// TxStmt rebinds a statement to a transaction: Tx.Stmt may prepare it
// again, with context.Background().
func TxStmt(tx *sql.Tx, stmt *sql.Stmt) *sql.Stmt {
	return tx.Stmt(stmt)
}
