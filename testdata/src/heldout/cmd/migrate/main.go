// Command migrate applies the SQL migrations in a directory to the orders
// database and runs the data backfills that go with them. Operators run it
// by hand or from the deploy pipeline.
package main

import (
	"bufio"
	"database/sql"
	"flag"
	"fmt"
	"log"
	"net/http"
	"os"
	"path/filepath"
	"sort"
	"strings"

	_ "github.com/lib/pq"
)

// heldout: clean — one-shot CLI tool that starts no server: the operator can interrupt it
func main() {
	dsn := flag.String("dsn", os.Getenv("DATABASE_URL"), "database connection string")
	dir := flag.String("dir", "migrations", "directory holding NNNN_name.sql files")
	manifest := flag.String("manifest", "", "URL of the release manifest listing the migrations this release needs")
	flag.Parse()

	db, err := sql.Open("postgres", *dsn)
	if err != nil {
		log.Fatal(err)
	}
	defer db.Close()

	if *manifest != "" {
		required, err := fetchManifest(*manifest)
		if err != nil {
			log.Fatalf("manifest: %v", err)
		}
		log.Printf("release needs %d migrations", len(required))
	}

	applied, err := appliedVersions(db)
	if err != nil {
		log.Fatal(err)
	}
	files, err := filepath.Glob(filepath.Join(*dir, "*.sql"))
	if err != nil {
		log.Fatal(err)
	}
	sort.Strings(files)
	for _, f := range files {
		version := strings.SplitN(filepath.Base(f), "_", 2)[0]
		if applied[version] {
			continue
		}
		if err := applyFile(db, version, f); err != nil {
			log.Fatalf("%s: %v", f, err)
		}
		log.Printf("applied %s", filepath.Base(f))
	}
	if err := backfillTotals(db); err != nil {
		log.Fatal(err)
	}
}

// heldout: clean — part of a one-shot CLI tool (http.Get, but the operator can interrupt it)
func fetchManifest(url string) ([]string, error) {
	resp, err := http.Get(url)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("GET %s: %s", url, resp.Status)
	}
	var out []string
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		if line := strings.TrimSpace(sc.Text()); line != "" {
			out = append(out, line)
		}
	}
	return out, sc.Err()
}

// heldout: clean — part of a one-shot CLI tool
func appliedVersions(db *sql.DB) (map[string]bool, error) {
	rows, err := db.Query(`SELECT version FROM schema_migrations`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[string]bool{}
	for rows.Next() {
		var v string
		if err := rows.Scan(&v); err != nil {
			return nil, err
		}
		out[v] = true
	}
	return out, rows.Err()
}

// heldout: clean — migration step in a one-shot CLI tool
func applyFile(db *sql.DB, version, path string) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	tx, err := db.Begin()
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if _, err := tx.Exec(string(b)); err != nil {
		return err
	}
	if _, err := tx.Exec(`INSERT INTO schema_migrations (version) VALUES ($1)`, version); err != nil {
		return err
	}
	return tx.Commit()
}

// heldout: clean — batched backfill in a one-shot CLI tool
func backfillTotals(db *sql.DB) error {
	for {
		res, err := db.Exec(`UPDATE orders SET total_ct = qty * unit_ct
			WHERE id IN (SELECT id FROM orders WHERE total_ct IS NULL LIMIT 1000)`)
		if err != nil {
			return err
		}
		n, _ := res.RowsAffected()
		if n == 0 {
			return nil
		}
		log.Printf("backfilled %d orders", n)
	}
}
