package notify

import (
	"fmt"
	"net"
	"sync/atomic"
	"time"
)

var sent atomic.Int64

// heldout: clean — UDP "dial" to the local statsd agent: no peer to wait for
func reportSent(statsdAddr string) {
	conn, err := net.Dial("udp", statsdAddr)
	if err != nil {
		return
	}
	defer conn.Close()
	fmt.Fprintf(conn, "notify.sent:%d|c", sent.Swap(0))
}

// heldout: clean — ticker loop around the UDP report
func RunMetrics(statsdAddr string, stop <-chan struct{}) {
	t := time.NewTicker(10 * time.Second)
	defer t.Stop()
	for {
		select {
		case <-stop:
			return
		case <-t.C:
			reportSent(statsdAddr)
		}
	}
}
