// Package mailsend relays mail over SMTP with net/smtp, which dials with
// no timeout and sets no deadline.
package mailsend

import (
	"net"
	"net/smtp"
	"time"
)

func relay(addr string, msg []byte) error {
	c, err := smtp.Dial(addr) // want `smtp.Dial dials with no timeout and sets no deadline on the conversation`
	if err != nil {
		return err
	}
	defer c.Close()
	return c.Mail("a@example.com")
}

func notify(addr string, msg []byte) error {
	return smtp.SendMail(addr, nil, "a@example.com", []string{"b@example.com"}, msg) // want `smtp.SendMail dials with no timeout`
}

// The remedy: dial with a timeout, bound the conversation, and hand the
// conn to smtp.NewClient.
func relayBounded(addr, host string) error {
	conn, err := net.DialTimeout("tcp", addr, 5*time.Second)
	if err != nil {
		return err
	}
	conn.SetDeadline(time.Now().Add(30 * time.Second))
	c, err := smtp.NewClient(conn, host)
	if err != nil {
		return err
	}
	return c.Quit()
}
