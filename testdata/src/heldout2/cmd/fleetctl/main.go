// Command fleetctl is the operators' admin CLI: fare recomputation,
// draining drivers, exports, zone rollouts, payout reconciliation.
package main

import (
	"context"
	"database/sql"
	"encoding/csv"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/exec"
	"strconv"
	"time"

	_ "github.com/lib/pq"

	"heldout2/billing"
)

// heldout: clean — main of a one-shot CLI (no server): the operator can interrupt it; its own http.Get and the root context are not findings
func main() {
	dsn := flag.String("db", os.Getenv("DATABASE_URL"), "Postgres DSN")
	gateway := flag.String("gateway", "driver-gateway:7400", "driver gateway admin address")
	api := flag.String("api", "http://dispatch.internal", "dispatch API base URL")
	timeout := flag.Duration("timeout", 2*time.Minute, "overall deadline for the command")
	flag.Parse()
	if flag.NArg() == 0 {
		fmt.Fprintln(os.Stderr, "usage: fleetctl [flags] recompute-fares|drain|export|rollout|reconcile|status ...")
		os.Exit(2)
	}
	ctx, cancel := context.WithTimeout(context.Background(), *timeout)
	defer cancel()
	db, err := sql.Open("postgres", *dsn)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	defer db.Close()

	args := flag.Args()[1:]
	switch flag.Arg(0) {
	case "recompute-fares":
		err = recomputeFares(ctx, db, args)
	case "drain":
		if len(args) != 1 {
			err = fmt.Errorf("drain takes one driver ID")
			break
		}
		err = drainDriver(ctx, *gateway, args[0])
	case "export":
		since := time.Now().AddDate(0, 0, -7)
		err = exportTrips(db, os.Stdout, since)
	case "rollout":
		err = rolloutZones(ctx, args)
	case "reconcile":
		job := billing.NewPayoutJob(db, nil, nil, "", "https://fx.example/latest", slog.Default())
		err = job.ReconcileDaily(time.Now().UTC().Truncate(24*time.Hour).AddDate(0, 0, -1))
	case "status":
		resp, gerr := http.Get(*api + "/readyz")
		if gerr != nil {
			err = gerr
			break
		}
		resp.Body.Close()
		fmt.Println("dispatch:", resp.Status)
	default:
		err = fmt.Errorf("unknown command %q", flag.Arg(0))
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "fleetctl:", err)
		os.Exit(1)
	}
}

// recomputeFares re-prices trips after a tariff fix.
// heldout: ctxdrop — db.Query without context while ctx (carrying the -timeout deadline) is in scope
func recomputeFares(ctx context.Context, db *sql.DB, tripIDs []string) error {
	for _, id := range tripIDs {
		rows, err := db.Query(`SELECT distance_m, duration_s, per_km_cents, per_min_cents, base_cents
			FROM trip_segments s JOIN tariffs t ON t.id = s.tariff_id WHERE s.trip_id = $1`, id)
		if err != nil {
			return err
		}
		var fare int64
		for rows.Next() {
			var dist, dur, perKm, perMin, base int64
			if err := rows.Scan(&dist, &dur, &perKm, &perMin, &base); err != nil {
				rows.Close()
				return err
			}
			fare += base + perKm*dist/1000 + perMin*dur/60
		}
		rows.Close()
		if _, err := db.ExecContext(ctx, `UPDATE trips SET fare_cents = $1, repriced_at = now() WHERE id = $2`, fare, id); err != nil {
			return err
		}
		fmt.Printf("%s\t%d\n", id, fare)
	}
	return nil
}

// drainDriver tells the driver gateway to stop sending offers to a driver.
// heldout: ctxdrop — net.Dial while ctx is in scope
func drainDriver(ctx context.Context, addr, driverID string) error {
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		return err
	}
	defer conn.Close()
	if dl, ok := ctx.Deadline(); ok {
		conn.SetDeadline(dl)
	}
	if _, err := fmt.Fprintf(conn, "DRAIN %s\n", driverID); err != nil {
		return err
	}
	buf := make([]byte, 64)
	n, err := conn.Read(buf)
	if err != nil {
		return err
	}
	fmt.Print(string(buf[:n]))
	return nil
}

// exportTrips writes last week's trips as CSV.
// heldout: clean — no context in scope, and notimeout does not report package main of a one-shot tool
func exportTrips(db *sql.DB, w io.Writer, since time.Time) error {
	rows, err := db.Query(`SELECT id, rider_id, driver_id, fare_cents, completed_at FROM trips WHERE completed_at >= $1 ORDER BY completed_at`, since)
	if err != nil {
		return err
	}
	defer rows.Close()
	cw := csv.NewWriter(w)
	defer cw.Flush()
	for rows.Next() {
		var id, rider, driver string
		var fare int64
		var at time.Time
		if err := rows.Scan(&id, &rider, &driver, &fare, &at); err != nil {
			return err
		}
		cw.Write([]string{id, rider, driver, strconv.FormatInt(fare, 10), at.Format(time.RFC3339)})
	}
	return rows.Err()
}

// rolloutZones applies zone manifests to the cluster with kubectl.
// heldout: ctxdrop — exec.Command while ctx is in scope; the -timeout deadline never stops kubectl
func rolloutZones(ctx context.Context, manifests []string) error {
	for _, m := range manifests {
		cmd := exec.Command("kubectl", "apply", "--server-side", "-f", m)
		cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
		if err := cmd.Run(); err != nil {
			return fmt.Errorf("apply %s: %w", m, err)
		}
		if err := ctx.Err(); err != nil {
			return err
		}
	}
	return nil
}
