package baseline_test

import (
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/resilvet/resilvet/internal/baseline"
)

// The jobs package of module example.com/svc has a finding of each
// analyzer whose message spells a chain through helpers in another file,
// db.go. The messages are resilvet's on these files, and after each edit
// below.
const jobsGo = `// Package jobs runs nightly work.
package jobs

import (
	"context"
	"net/http"
	"time"
)

type Server struct{ store *Store }

// Nightly has no context of its own.
func (s *Server) Nightly() error {
	ctx := context.Background()
	return s.store.audit(ctx, "nightly")
}

// Handle has the request's context and calls a helper that drops it.
func (s *Server) Handle(w http.ResponseWriter, r *http.Request) {
	s.store.sync()
}

// Account retries a helper that retries.
func (s *Server) Account(ctx context.Context, id string) error {
	var err error
	for i := 0; i < 2; i++ {
		if err = s.store.load(ctx, id); err == nil {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(time.Second):
		}
	}
	return err
}
`

const dbGo = `package jobs

import (
	"context"
	"database/sql"
	"time"
)

type Store struct{ db *sql.DB }

func (s *Store) audit(ctx context.Context, what string) error {
	return s.exec(ctx, "INSERT INTO audit VALUES ($1)", what)
}

func (s *Store) exec(ctx context.Context, q string, args ...any) error {
	_, err := s.db.ExecContext(ctx, q, args...)
	return err
}

func (s *Store) sync() {
	s.flush()
}

func (s *Store) flush() {
	_ = s.exec(context.Background(), "COMMIT")
}

func (s *Store) load(ctx context.Context, id string) error {
	var err error
	for i := 0; i < 3; i++ {
		if err = s.fetch(ctx, id); err == nil {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(time.Second):
		}
	}
	return err
}

func (s *Store) fetch(ctx context.Context, id string) error {
	var err error
	for i := 0; i < 3; i++ {
		var n string
		if err = s.db.QueryRowContext(ctx, "SELECT name FROM accounts WHERE id = $1", id).Scan(&n); err == nil {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(time.Second):
		}
	}
	return err
}
`

// finding is a finding on the jobs package: its analyzer, message, and
// the flagged source in jobs.go (its first occurrence; retrystack gives
// no end, and the identity hashes the rest of the line).
type finding struct {
	analyzer, message, expr string
	noEnd                   bool
}

var (
	nightly = finding{"notimeout", "context.Background() reaches sql.DB.ExecContext (via jobs.Store.audit -> jobs.Store.exec -> sql.DB.ExecContext) with no deadline, so the call can wait forever on a slow dependency; bound it with context.WithTimeout or deadline.Ensure",
		"context.Background()", false}
	handle = finding{"ctxdrop", "call to jobs.Store.sync drops the caller's context: it makes its own context.Background() for context-taking work (db.go:25:13 via jobs.Store.flush); add a context.Context parameter to jobs.Store.sync and pass r.Context()",
		"s.store.sync()", false}
	account = finding{"retrystack", "retry loop (2 attempts) wraps jobs.Store.load, which retries 3× around jobs.Store.fetch, which retries 3×: up to 18 attempts per call; keep retries at one layer",
		"s.store.load(ctx, id)", true}
)

// jobs is the module on disk, its files as edited so far.
type jobs struct {
	t     *testing.T
	dir   string
	files map[string]string // by name in the jobs package
}

func newJobs(t *testing.T) *jobs {
	t.Helper()
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module example.com/svc\n\ngo 1.24\n"), 0o644))
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "jobs"), 0o755))
	j := &jobs{t: t, dir: dir, files: map[string]string{"jobs.go": jobsGo, "db.go": dbGo}}
	j.write()
	return j
}

func (j *jobs) write() {
	for name, src := range j.files {
		require.NoError(j.t, os.WriteFile(filepath.Join(j.dir, "jobs", name), []byte(src), 0o644))
	}
}

// edit replaces every old in file with new.
func (j *jobs) edit(file, old, new string) {
	j.t.Helper()
	require.Contains(j.t, j.files[file], old)
	j.files[file] = strings.ReplaceAll(j.files[file], old, new)
	j.write()
}

// identity returns f's identity as a fresh run computes it.
func (j *jobs) identity(f finding) baseline.Identity {
	j.t.Helper()
	pos, end := at(j.t, filepath.Join(j.dir, "jobs", "jobs.go"), f.expr)
	if f.noEnd {
		end = token.Position{}
	}
	return baseline.NewIdentifier().Identify(f.analyzer, f.message, pos, end)
}

// at returns the positions of the first occurrence of expr in file.
func at(t *testing.T, file, expr string) (token.Position, token.Position) {
	t.Helper()
	data, err := os.ReadFile(file)
	require.NoError(t, err)
	i := strings.Index(string(data), expr)
	require.GreaterOrEqual(t, i, 0, "%q not in %s", expr, file)
	pos := func(off int) token.Position {
		line := 1 + strings.Count(string(data[:off]), "\n")
		col := off - strings.LastIndex(string(data[:off]), "\n")
		return token.Position{Filename: file, Line: line, Column: col}
	}
	return pos(i), pos(i + len(expr))
}

func TestIdentityParts(t *testing.T) {
	j := newJobs(t)
	id := j.identity(nightly)
	assert.Equal(t, "notimeout", id.Analyzer)
	assert.Equal(t, "example.com/svc/jobs", id.Package)
	assert.Equal(t, "(*Server).Nightly", id.Function)
	assert.Equal(t, "context.Background() reaches sql.DB.ExecContext (via … -> sql.DB.ExecContext) with no deadline, so the call can wait forever on a slow dependency; bound it with context.WithTimeout or deadline.Ensure", id.Message,
		"the helpers' names are not part of the identity; the call reached is")
	assert.NotEmpty(t, id.Source)
	assert.Equal(t, "call to jobs.Store.sync drops the caller's context: it makes its own context.Background() for context-taking work (… via …); add a context.Context parameter to jobs.Store.sync and pass r.Context()", j.identity(handle).Message,
		"positions are not part of the identity")
}

func TestIdentityLinesAddedAbove(t *testing.T) {
	j := newJobs(t)
	before := map[finding]baseline.Identity{}
	for _, f := range []finding{nightly, handle, account} {
		before[f] = j.identity(f)
	}
	j.edit("jobs.go", "type Server struct", "// limit caps a batch.\nconst limit = 10\n\nfunc helper() {\n\tprintln(limit)\n}\n\ntype Server struct")
	j.edit("jobs.go", "\tctx := context.Background()\n", "\t// Nightly runs once a day.\n\tprintln(\"nightly\")\n\tctx := context.Background()\n")
	for f, id := range before {
		assert.Equal(t, id, j.identity(f), f.analyzer)
	}
}

// TestIdentityHelperRenamedInAnotherFile is the case: a helper
// on the finding's chain, in db.go, is renamed, and the message, which
// spells the chain, changes with it.
func TestIdentityHelperRenamedInAnotherFile(t *testing.T) {
	j := newJobs(t)
	before := map[string]baseline.Identity{}
	for _, f := range []finding{nightly, handle, account} {
		before[f.analyzer] = j.identity(f)
	}
	j.edit("db.go", "exec(", "run(")
	j.edit("db.go", "flush()", "flushAll()")
	j.edit("db.go", "fetch(", "query(")
	for _, f := range []finding{
		{"notimeout", "context.Background() reaches sql.DB.ExecContext (via jobs.Store.audit -> jobs.Store.run -> sql.DB.ExecContext) with no deadline, so the call can wait forever on a slow dependency; bound it with context.WithTimeout or deadline.Ensure", nightly.expr, false},
		{"ctxdrop", "call to jobs.Store.sync drops the caller's context: it makes its own context.Background() for context-taking work (db.go:25:12 via jobs.Store.flushAll); add a context.Context parameter to jobs.Store.sync and pass r.Context()", handle.expr, false},
		{"retrystack", "retry loop (2 attempts) wraps jobs.Store.load, which retries 3× around jobs.Store.query, which retries 3×: up to 18 attempts per call; keep retries at one layer", account.expr, true},
	} {
		assert.Equal(t, before[f.analyzer], j.identity(f), f.analyzer)
	}

	// The first helper, called from the function the finding is in: its
	// call there changes, the flagged expression does not.
	j.edit("db.go", ") audit(", ") record(")
	j.edit("jobs.go", "s.store.audit(", "s.store.record(")
	assert.Equal(t, before["notimeout"], j.identity(finding{"notimeout", "context.Background() reaches sql.DB.ExecContext (via jobs.Store.record -> jobs.Store.run -> sql.DB.ExecContext) with no deadline, so the call can wait forever on a slow dependency; bound it with context.WithTimeout or deadline.Ensure", nightly.expr, false}))
}

func TestIdentitySpacingAndCommentsInExpression(t *testing.T) {
	j := newJobs(t)
	before := map[string]baseline.Identity{}
	for _, f := range []finding{nightly, handle, account} {
		before[f.analyzer] = j.identity(f)
	}
	j.edit("jobs.go", "context.Background()", "context.Background( /* no request here */ )")
	j.edit("jobs.go", "s.store.sync()", "s.store.\n\t\tsync()")
	j.edit("jobs.go", "s.store.load(ctx, id)", "s.store.load(ctx,  id /* account */)")
	for _, f := range []finding{
		{nightly.analyzer, nightly.message, "context.Background( /* no request here */ )", false},
		{handle.analyzer, handle.message, "s.store.\n\t\tsync()", false},
		{account.analyzer, account.message, "s.store.load(ctx,  id /* account */)", true},
	} {
		assert.Equal(t, before[f.analyzer], j.identity(f), f.analyzer)
	}
}

func TestIdentityOfAChangedFlaggedCallIsNew(t *testing.T) {
	j := newJobs(t)
	id := j.identity(account)
	j.edit("jobs.go", "s.store.load(ctx, id)", "s.store.load(ctx, id+\"/v2\")")
	assert.NotEqual(t, id, j.identity(finding{account.analyzer, account.message, "s.store.load(ctx, id+\"/v2\")", true}),
		"a different flagged expression, same message")

	id = j.identity(nightly)
	j.edit("jobs.go", "context.Background()", "context.TODO()")
	assert.NotEqual(t, id, j.identity(finding{"notimeout", "context.TODO() reaches sql.DB.ExecContext (via jobs.Store.audit -> jobs.Store.exec -> sql.DB.ExecContext) with no deadline, so the call can wait forever on a slow dependency; bound it with context.WithTimeout or deadline.Ensure", "context.TODO()", false}))
}

// TestIdentityOfAnotherCallReachedIsNew: the library call at the end of
// the chain is what the finding is about; a helper that now reaches
// another makes the finding new, though the flagged code is the same.
func TestIdentityOfAnotherCallReachedIsNew(t *testing.T) {
	j := newJobs(t)
	id := j.identity(nightly)
	j.edit("db.go", "s.db.ExecContext(", "s.db.QueryContext(")
	assert.NotEqual(t, id, j.identity(finding{"notimeout", "context.Background() reaches sql.DB.QueryContext (via jobs.Store.audit -> jobs.Store.exec -> sql.DB.QueryContext) with no deadline, so the call can wait forever on a slow dependency; bound it with context.WithTimeout or deadline.Ensure", nightly.expr, false}))
}

func TestIdentityInARenamedFunctionIsNew(t *testing.T) {
	j := newJobs(t)
	id := j.identity(nightly)
	j.edit("jobs.go", ") Nightly(", ") Daily(")
	renamed := j.identity(nightly)
	assert.Equal(t, "(*Server).Daily", renamed.Function)
	assert.NotEqual(t, id, renamed)

	j.edit("jobs.go", "(s *Server) Daily(", "(s *Scheduler) Daily(")
	assert.NotEqual(t, renamed, j.identity(nightly), "the receiver's type is part of the function's name")
}
