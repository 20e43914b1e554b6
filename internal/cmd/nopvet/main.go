// Command nopvet is a go vet tool that runs no analyzer. The vet
// benchmark (scripts/bench-vet.sh) runs it once to fill a build cache with
// the compiled export data every vet run needs, so that each measured run
// starts from the same warm compile cache and a cold vet cache.
package main

import "golang.org/x/tools/go/analysis/unitchecker"

func main() { unitchecker.Main() }
