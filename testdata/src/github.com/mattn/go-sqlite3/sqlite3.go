// Package sqlite3 is a stub of the SQLite driver: it registers "sqlite3".
package sqlite3

// SQLiteDriver is the driver.
type SQLiteDriver struct{}
