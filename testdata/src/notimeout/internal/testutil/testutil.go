// Package testutil exists for tests: reported only with include-tests.
package testutil

import "net/http"

func Fetch(u string) { http.Get(u) }
