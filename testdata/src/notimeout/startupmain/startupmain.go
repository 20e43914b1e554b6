// Package startupmain: with -notimeout.main, start-up work is reported
// too.
package startupmain

import (
	"context"
	"database/sql"
)

var db *sql.DB

func NewAPI() error {
	_, err := db.QueryContext(context.Background(), "SELECT 1") // want `context.Background\(\) reaches sql.DB.QueryContext with no deadline`
	return err
}
