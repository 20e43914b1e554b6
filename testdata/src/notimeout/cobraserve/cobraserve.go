// Package cobraserve defines a command that starts a server: a service,
// whose outbound calls are reported.
package cobraserve

import (
	"net/http"

	"github.com/spf13/cobra"
)

func NewServe() *cobra.Command {
	return &cobra.Command{
		Use: "serve",
		RunE: func(cmd *cobra.Command, args []string) error {
			http.Get("http://config/") // want `http.Get uses http.DefaultClient`
			return http.ListenAndServe(":8080", nil)
		},
	}
}
