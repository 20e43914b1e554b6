// Package kongserve declares a kong CLI with a server command: a
// service, reported.
package kongserve

import (
	"net/http"

	"github.com/alecthomas/kong"
)

type CLI struct {
	Serve ServeCmd `cmd:"" help:"start the server"`
	Check CheckCmd `cmd:"" help:"check the config"`
}

type ServeCmd struct{}

type CheckCmd struct{}

func (c *CheckCmd) Run(k *kong.Context) error {
	_, err := http.Get("http://config/") // want `http.Get uses http.DefaultClient`
	return err
}
