// Package cobracmd defines the commands of a CLI outside package main:
// they run once per invocation and start no server, so, as in main, an
// interrupt ends them and nothing is reported (-notimeout.main reports).
package cobracmd

import (
	"net/http"

	"github.com/spf13/cobra"
)

func NewDownload() *cobra.Command {
	return &cobra.Command{
		Use: "download",
		RunE: func(cmd *cobra.Command, args []string) error {
			_, err := http.Get(args[0]) // ok: a one-shot command
			return err
		},
	}
}

// A command type of the CLI's own, written without field names.
type Command struct {
	Name string
	Run  func() error
}

var fetchCmd = Command{"fetch", func() error { _, err := http.Get("http://x/"); return err }} // ok: one-shot
