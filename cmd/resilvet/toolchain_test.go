package main

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestNewerRelease(t *testing.T) {
	msg := newerRelease("go1.27.3", "go1.26.8")
	assert.Contains(t, msg, "the go command here is go1.27.3 but resilvet was built with go1.26.8")
	assert.Contains(t, msg, "GOTOOLCHAIN=go1.27.3 go install")
	for _, c := range [][2]string{
		{"go1.26.8", "go1.26.8"},  // same release
		{"go1.26.10", "go1.26.8"}, // a patch release: same type checker
		{"go1.25.1", "go1.26.8"},  // older go command
		{"go1.27rc1", "go1.27.0"}, // a candidate of the same release
		{"devel +abc", "go1.26.8"},
		{"", "go1.26.8"},
		{"go1.26.8", "devel go1.27-abc"},
	} {
		assert.Empty(t, newerRelease(c[0], c[1]), "%s vs %s", c[0], c[1])
	}
	assert.NotEmpty(t, newerRelease("go1.28rc1", "go1.27.3"))
	assert.NotEmpty(t, newerRelease("go2.0", "go1.27.3"))
}
