// Command cmdonly does all its work in another package: its main is an
// entry point all the same.
package main

import "resilmap/runlib"

func main() {
	runlib.Run()
}
