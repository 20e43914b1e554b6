package locations

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// Feed ingests the fleet-telematics vendor's TCP position stream
// ("POS <driver> <lat> <lng> <heading> <unix>\n" lines).
type Feed struct {
	addr       string
	replayAddr string
	store      *Store
	log        *slog.Logger
}

// NewFeed returns a feed reading from addr.
// heldout: clean — constructor, no I/O
func NewFeed(addr, replayAddr string, store *Store, log *slog.Logger) *Feed {
	return &Feed{addr: addr, replayAddr: replayAddr, store: store, log: log}
}

// Run keeps a connection to the vendor open, reconnecting with backoff,
// until ctx is done.
// heldout: clean — dialer with Timeout and ctx; AfterFunc closes the conn on cancellation
func (f *Feed) Run(ctx context.Context) error {
	d := net.Dialer{Timeout: 5 * time.Second, KeepAlive: 30 * time.Second}
	backoff := time.Second
	for {
		conn, err := d.DialContext(ctx, "tcp", f.addr)
		if err == nil {
			backoff = time.Second
			stop := context.AfterFunc(ctx, func() { conn.Close() })
			err = f.consume(ctx, conn)
			stop()
			conn.Close()
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
		f.log.Warn("telematics feed disconnected", "err", err, "retry_in", backoff)
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(backoff):
		}
		if backoff < time.Minute {
			backoff *= 2
		}
	}
}

// consume reads positions until the connection fails. When the vendor's
// sequence shows a gap longer than a minute it asks for a replay.
// heldout: ctxdrop — calls f.ReplayFrom, which dials with net.Dial and no context, while ctx is in scope
func (f *Feed) consume(ctx context.Context, conn net.Conn) error {
	sc := bufio.NewScanner(conn)
	var last time.Time
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) != 6 || fields[0] != "POS" {
			continue
		}
		lat, _ := strconv.ParseFloat(fields[2], 64)
		lng, _ := strconv.ParseFloat(fields[3], 64)
		heading, _ := strconv.Atoi(fields[4])
		unix, _ := strconv.ParseInt(fields[5], 10, 64)
		at := time.Unix(unix, 0)
		if !last.IsZero() && at.Sub(last) > time.Minute {
			if err := f.ReplayFrom(last); err != nil {
				f.log.Warn("replay request failed", "since", last, "err", err)
			}
		}
		last = at
		uctx, cancel := context.WithTimeout(ctx, 2*time.Second)
		err := f.store.Upsert(uctx, Location{DriverID: fields[1], Lat: lat, Lng: lng, Heading: heading, At: at})
		cancel()
		if err != nil {
			f.log.Warn("position dropped", "driver", fields[1], "err", err)
		}
	}
	return sc.Err()
}

// ReplayFrom asks the vendor's replay port to resend positions since t.
// heldout: notimeout — net.Dial to a TCP peer with no timeout and no context in scope
func (f *Feed) ReplayFrom(t time.Time) error {
	conn, err := net.Dial("tcp", f.replayAddr)
	if err != nil {
		return fmt.Errorf("replay dial: %w", err)
	}
	defer conn.Close()
	_ = conn.SetWriteDeadline(time.Now().Add(5 * time.Second))
	_, err = fmt.Fprintf(conn, "REPLAY %d\n", t.Unix())
	return err
}

// CheckHandler is an ops endpoint: can this pod reach the vendor?
// heldout: ctxdrop — net.DialTimeout in an HTTP handler; r.Context() should bound and cancel the dial
func (f *Feed) CheckHandler(w http.ResponseWriter, r *http.Request) {
	conn, err := net.DialTimeout("tcp", f.addr, 3*time.Second)
	if err != nil {
		http.Error(w, "vendor unreachable: "+err.Error(), http.StatusBadGateway)
		return
	}
	conn.Close()
	fmt.Fprintln(w, "ok")
}

// DepotFix reads the depot's reference position from the local gpsd
// socket; used to sanity-check vendor positions.
// heldout: clean — a Unix socket dial waits on no remote peer
func DepotFix(ctx context.Context) (lat, lng float64, err error) {
	conn, err := net.Dial("unix", "/var/run/gpsd.sock")
	if err != nil {
		return 0, 0, err
	}
	defer conn.Close()
	if dl, ok := ctx.Deadline(); ok {
		conn.SetDeadline(dl)
	}
	if _, err := conn.Write([]byte("?POLL;\n")); err != nil {
		return 0, 0, err
	}
	line, err := bufio.NewReader(conn).ReadString('\n')
	if err != nil {
		return 0, 0, err
	}
	if _, err := fmt.Sscanf(line, "FIX %f %f", &lat, &lng); err != nil {
		return 0, 0, errors.New("gpsd: unexpected reply")
	}
	return lat, lng, nil
}

// Handshake opens a session with the vendor and returns the protocol
// version it announces; the ops tooling calls it after a vendor upgrade.
// heldout: notimeout — a net.Dialer without Timeout dials a TCP peer, and there is no context to bound it
func (f *Feed) Handshake() (string, error) {
	d := &net.Dialer{KeepAlive: 30 * time.Second}
	conn, err := d.Dial("tcp", f.addr)
	if err != nil {
		return "", err
	}
	defer conn.Close()
	conn.SetReadDeadline(time.Now().Add(5 * time.Second))
	line, err := bufio.NewReader(conn).ReadString('\n')
	if err != nil {
		return "", err
	}
	return strings.TrimPrefix(strings.TrimSpace(line), "HELLO "), nil
}
