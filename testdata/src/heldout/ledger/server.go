package ledger

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"log"
	"net/http"
	"time"

	"google.golang.org/grpc"
)

// Server implements ledger.v1.Ledger on Postgres. It screens large
// entries with the fraud service.
type Server struct {
	db        *sql.DB
	fraud     FraudClient
	fraudConn *grpc.ClientConn
}

// heldout: clean — grpc.NewClient connects lazily; no call is made here
func NewServer(db *sql.DB, fraudTarget string) (*Server, error) {
	conn, err := grpc.NewClient(fraudTarget)
	if err != nil {
		return nil, fmt.Errorf("fraud client: %w", err)
	}
	return &Server{db: db, fraud: NewFraudClient(conn), fraudConn: conn}, nil
}

// heldout: ctxdrop — gRPC method inserts with db.Exec, ignoring the call's ctx (ExecContext exists)
func (s *Server) PostEntry(ctx context.Context, req *PostEntryRequest) (*PostEntryReply, error) {
	if req.AmountCt >= 1_000_000 {
		risk, err := s.screen(ctx, req)
		if err != nil {
			return nil, err
		}
		if risk > 0.8 {
			return nil, errors.New("entry held for review")
		}
	}
	var b [12]byte
	rand.Read(b[:])
	id := hex.EncodeToString(b[:])
	if _, err := s.db.Exec(`INSERT INTO entries (id, account, amount_ct, ref) VALUES ($1, $2, $3, $4)`,
		id, req.Account, req.AmountCt, req.Ref); err != nil {
		return nil, fmt.Errorf("post entry: %w", err)
	}
	return &PostEntryReply{EntryID: id}, nil
}

// PostEntries posts a batch atomically.
//
// heldout: ctxdrop — db.Begin() ignores the call's ctx (BeginTx exists); the statements use ctx but the transaction start does not
func (s *Server) PostEntries(ctx context.Context, reqs []*PostEntryRequest) ([]string, error) {
	tx, err := s.db.Begin()
	if err != nil {
		return nil, err
	}
	defer tx.Rollback()
	ids := make([]string, 0, len(reqs))
	for _, req := range reqs {
		var b [12]byte
		rand.Read(b[:])
		id := hex.EncodeToString(b[:])
		if _, err := tx.ExecContext(ctx, `INSERT INTO entries (id, account, amount_ct, ref) VALUES ($1, $2, $3, $4)`,
			id, req.Account, req.AmountCt, req.Ref); err != nil {
			return nil, err
		}
		ids = append(ids, id)
	}
	return ids, tx.Commit()
}

// heldout: clean — QueryRowContext with the call's ctx
func (s *Server) GetBalance(ctx context.Context, req *GetBalanceRequest) (*GetBalanceReply, error) {
	var bal int64
	err := s.db.QueryRowContext(ctx, `SELECT coalesce(sum(amount_ct), 0) FROM entries WHERE account = $1`, req.Account).Scan(&bal)
	if err != nil {
		return nil, err
	}
	return &GetBalanceReply{BalanceCt: bal}, nil
}

// heldout: clean — passes the caller's ctx to the fraud RPC
func (s *Server) screen(ctx context.Context, req *PostEntryRequest) (float64, error) {
	rep, err := s.fraud.Score(ctx, &ScoreRequest{Customer: req.Account, AmountCt: req.AmountCt})
	if err != nil {
		return 0, err
	}
	return rep.Risk, nil
}

// RescoreLoop re-screens yesterday's held entries every ten minutes.
//
// heldout: notimeout — fraud Score RPCs on context.Background() in a loop; this connection has no timeout interceptor
func (s *Server) RescoreLoop(stop <-chan struct{}) {
	t := time.NewTicker(10 * time.Minute)
	defer t.Stop()
	for {
		select {
		case <-stop:
			return
		case <-t.C:
		}
		held, err := s.heldEntries()
		if err != nil {
			log.Printf("rescore: %v", err)
			continue
		}
		for _, e := range held {
			rep, err := s.fraud.Score(context.Background(), &ScoreRequest{Customer: e.Account, AmountCt: e.AmountCt})
			if err != nil {
				log.Printf("rescore %s: %v", e.Ref, err)
				continue
			}
			log.Printf("rescore %s: risk %.2f", e.Ref, rep.Risk)
		}
	}
}

// heldout: clean — bounded own root (10s) for the background query
func (s *Server) heldEntries() ([]PostEntryRequest, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	rows, err := s.db.QueryContext(ctx, `SELECT account, amount_ct, ref FROM held_entries WHERE held_at > now() - interval '1 day'`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []PostEntryRequest
	for rows.Next() {
		var e PostEntryRequest
		if err := rows.Scan(&e.Account, &e.AmountCt, &e.Ref); err != nil {
			return nil, err
		}
		out = append(out, e)
	}
	return out, rows.Err()
}

// heldout: ctxdrop — health handler calls db.Ping() while r.Context() is in scope
func (s *Server) HealthHandler(w http.ResponseWriter, r *http.Request) {
	if err := s.db.Ping(); err != nil {
		http.Error(w, "database unavailable", http.StatusServiceUnavailable)
		return
	}
	w.Write([]byte("ok"))
}

// heldout: clean — closes the local connection object
func (s *Server) Close() error {
	return s.fraudConn.Close()
}
