// Command mapsvg draws a resilience map (map-json on standard input) as
// an SVG picture on standard output: scripts/example-map.sh makes the
// README's picture of the example service's map with it.
package main

import (
	"bufio"
	"fmt"
	"os"

	"github.com/resilvet/resilvet/internal/resilmap"
)

func main() {
	m, err := resilmap.ReadJSON(bufio.NewReader(os.Stdin))
	if err == nil {
		w := bufio.NewWriter(os.Stdout)
		if err = resilmap.WriteSVG(w, m); err == nil {
			err = w.Flush()
		}
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "mapsvg:", err)
		os.Exit(1)
	}
}
