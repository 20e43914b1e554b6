// Package pq is a stub of lib/pq, a networked database/sql driver.
package pq
