// Command pproftool is an operator's command-line client that can expose
// the profiler: serving net/http/pprof does not make it a service, and
// its one-shot calls are not reported.
package main

import (
	"flag"
	"net/http"
	_ "net/http/pprof"
)

func main() {
	port := flag.String("pprof", "", "pprof address")
	flag.Parse()
	if *port != "" {
		go http.ListenAndServe("localhost:"+*port, nil)
	}
	http.Get("http://router.local/status")
}
