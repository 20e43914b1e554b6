// Package cobrarun defines the commands of a service's binary: it has a
// "run" command, though the server starts in another package.
package cobrarun

import (
	"net/http"

	"github.com/spf13/cobra"
)

// NewAddPackage is a one-shot command of a binary that also has a "run"
// command: the binary is a service, and the command is reported like the
// rest of the package (the server starts elsewhere).
func NewAddPackage() *cobra.Command {
	return &cobra.Command{
		Use: "add-package",
		RunE: func(cmd *cobra.Command, args []string) error {
			_, err := http.Get("http://registry/" + args[0]) // want `http.Get uses http.DefaultClient`
			return err
		},
	}
}

func NewRun() *cobra.Command {
	return &cobra.Command{Use: "run [flags]", RunE: func(*cobra.Command, []string) error { return nil }}
}
