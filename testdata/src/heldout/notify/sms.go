package notify

import (
	"bufio"
	"context"
	"fmt"
	"net"
	"time"
)

// SMSGateway speaks the carrier's line protocol over TCP.
type SMSGateway struct {
	addr string
}

// heldout: clean — constructor
func NewSMSGateway(addr string) *SMSGateway {
	return &SMSGateway{addr: addr}
}

// heldout: notimeout — net.Dial("tcp") with no timeout and no deadline on the connection's reads
func (g *SMSGateway) send(to, text string) error {
	conn, err := net.Dial("tcp", g.addr)
	if err != nil {
		return fmt.Errorf("sms gateway: %w", err)
	}
	defer conn.Close()
	if _, err := fmt.Fprintf(conn, "SEND %s %q\r\n", to, text); err != nil {
		return err
	}
	line, err := bufio.NewReader(conn).ReadString('\n')
	if err != nil {
		return err
	}
	if len(line) < 2 || line[:2] != "OK" {
		return fmt.Errorf("sms gateway: %s", line)
	}
	return nil
}

// heldout: ctxdrop — calls send, which dials with net.Dial, while ctx is in scope
func (g *SMSGateway) Notify(ctx context.Context, to, text string) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	return g.send(to, text)
}

// Ping checks that the gateway accepts connections.
//
// heldout: notimeout — a zero net.Dialer has no Timeout: Dial waits for the OS connect timeout
func (g *SMSGateway) Ping() error {
	var d net.Dialer
	conn, err := d.Dial("tcp", g.addr)
	if err != nil {
		return err
	}
	return conn.Close()
}

// heldout: clean — dialer with a 2s Timeout and the caller's ctx
func (g *SMSGateway) Balance(ctx context.Context) (string, error) {
	d := net.Dialer{Timeout: 2 * time.Second}
	conn, err := d.DialContext(ctx, "tcp", g.addr)
	if err != nil {
		return "", err
	}
	defer conn.Close()
	conn.SetDeadline(time.Now().Add(2 * time.Second))
	fmt.Fprint(conn, "BALANCE\r\n")
	return bufio.NewReader(conn).ReadString('\n')
}
