// Command cmdquiet calls only a function of another package that does
// no outbound work: its main is still an entry point of the map.
package main

import "resilmap/runlib"

func main() {
	runlib.Quiet()
}
