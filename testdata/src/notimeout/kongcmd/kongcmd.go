// Package kongcmd is a command of a kong CLI that starts no server: a
// one-shot tool, like package main.
package kongcmd

import (
	"net/http"

	"github.com/alecthomas/kong"
)

type Cmd struct {
	Version bool `help:"print the version"`
}

func (c *Cmd) Run(k *kong.Context) error {
	_, err := http.Get("http://admin/reload") // ok: a one-shot command
	return err
}
