// Package harnesst is an integration harness outside _test.go files that
// imports no test framework, only "testing": its type embeds *testing.T,
// and its methods are test code.
package harnesst

import (
	"net"
	"testing"
)

// T is a harness type embedding *testing.T: its methods are test code.
type T struct {
	*testing.T
	port string
}

func (t *T) Conn() net.Conn {
	c, err := net.Dial("tcp", "127.0.0.1:"+t.port) // ok: a test harness's method
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// Dial is an ordinary function of the same package: reported.
func Dial(addr string) (net.Conn, error) {
	return net.Dial("tcp", addr) // want `net.Dial has no dial timeout`
}
