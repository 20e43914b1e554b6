// Package cobra is a stub of the CLI framework.
package cobra

// Command is a command.
type Command struct {
	Use  string
	RunE func(cmd *Command, args []string) error
}

// AddCommand adds subcommands.
func (c *Command) AddCommand(cmds ...*Command) {}
