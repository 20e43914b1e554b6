package oneshot

import (
	"go/ast"
	"go/constant"
	"go/types"
	"reflect"
	"strconv"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/resilvet/resilvet/internal/knowledge"
)

// definesCommands reports whether the package defines the commands of a
// CLI framework (a cobra.Command or a urfave/cli command or app
// literal) and none of them is a server's (run, serve, start, daemon…):
// the commands of a one-shot tool run once per invocation, as main's do.
// A binary with a serving command (caddy run, opa run) is a service,
// though the server starts in another package.
func definesCommands(pass *analysis.Pass) bool {
	commands := false
	for _, f := range pass.Files {
		imports := false
		for _, spec := range f.Imports {
			path, _ := strconv.Unquote(spec.Path.Value)
			imports = imports || knowledge.IsCLIFramework(path)
			// kong's commands are types with a Run method, declared
			// anywhere: a file importing it is a command's.
			commands = commands || path == "github.com/alecthomas/kong"
		}
		if !imports {
			continue
		}
		serving := false
		ast.Inspect(f, func(n ast.Node) bool {
			if serving {
				return false
			}
			if st, ok := n.(*ast.StructType); ok {
				// kong declares commands as struct fields tagged cmd.
				if name, ok := kongCommand(st); ok {
					commands = true
					serving = serving || knowledge.IsServerCommandName(name)
				}
				return true
			}
			lit, ok := n.(*ast.CompositeLit)
			if !ok {
				return true
			}
			t := pass.TypesInfo.TypeOf(lit)
			if t == nil {
				return true
			}
			name := typeName(t)
			framework := knowledge.IsCLICommandType(name)
			// A CLI's own command type wrapping the framework's
			// (caddycmd.Command{Name: "run"}) names its commands too.
			if !framework && !strings.HasSuffix(name, "Command") && !strings.HasSuffix(name, "Cmd") {
				return true
			}
			commands = commands || framework
			for _, elt := range lit.Elts {
				kv, ok := elt.(*ast.KeyValueExpr)
				if !ok {
					continue // positional fields: no name to read
				}
				key, _ := kv.Key.(*ast.Ident)
				if key == nil || key.Name != "Use" && key.Name != "Name" {
					continue
				}
				if tv, ok := pass.TypesInfo.Types[kv.Value]; ok && tv.Value != nil && tv.Value.Kind() == constant.String {
					name, _, _ := strings.Cut(constant.StringVal(tv.Value), " ")
					serving = serving || knowledge.IsServerCommandName(name)
				}
			}
			return !serving
		})
		if serving {
			return false
		}
	}
	return commands
}

// kongCommand returns the name of a server command among a struct's
// fields tagged as kong commands (`cmd:""`), by their name tag or their
// lowercased field name, or any command's name when none serves; false
// when no field is a command.
func kongCommand(st *ast.StructType) (string, bool) {
	found, first := false, ""
	for _, f := range st.Fields.List {
		if f.Tag == nil || len(f.Names) == 0 {
			continue
		}
		tag := reflect.StructTag(strings.Trim(f.Tag.Value, "`"))
		if _, ok := tag.Lookup("cmd"); !ok {
			continue
		}
		name := tag.Get("name")
		if name == "" {
			name = strings.ToLower(f.Names[0].Name)
		}
		if knowledge.IsServerCommandName(name) {
			return name, true
		}
		if !found {
			found, first = true, name
		}
	}
	return first, found
}

// typeName returns the full name of a named type ("github.com/spf13/cobra.Command").
func typeName(t types.Type) string {
	if p, ok := types.Unalias(t).(*types.Pointer); ok {
		t = p.Elem()
	}
	n, ok := types.Unalias(t).(*types.Named)
	if !ok || n.Obj().Pkg() == nil {
		return ""
	}
	return n.Obj().Pkg().Path() + "." + n.Obj().Name()
}
