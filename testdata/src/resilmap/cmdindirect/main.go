// Command cmdindirect reaches its work through a function that registers
// a closure: the map follows it because it is in the module mapped.
package main

import "resilmap/runlib"

func main() {
	runlib.Serve()
}
