package knowledge_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/resilvet/resilvet/internal/knowledge"
)

func TestIsSchemaStatement(t *testing.T) {
	for _, q := range []string{
		"CREATE TABLE IF NOT EXISTS t (id INT)",
		"\n-- the events table\ncreate table events(id int)",
		"  ALTER TABLE t ADD COLUMN x INT;",
		"PRAGMA journal_mode=WAL",
		"drop index if exists i",
		";\n\tCREATE INDEX i ON t(x)",
		"SELECT 1 FROM information_schema.TABLES WHERE table_schema = DATABASE() AND table_name = ?",
		"select count(*) from pg_catalog.pg_tables where tablename = $1",
		"SELECT 1 FROM pg_database WHERE datname = $1",
		"SELECT name FROM sqlite_master WHERE type='table'",
		"select version()",
		"SELECT VERSION ( )",
	} {
		assert.True(t, knowledge.IsSchemaStatement(q), q)
	}
	for _, q := range []string{
		"", "--", "-- only a comment", "SELECT 1", "INSERT INTO t VALUES (1)",
		"UPDATE t SET x = 1", "TRUNCATE t", "DELETE FROM t", "with x as (select 1) select * from x",
		"CREATED_AT", "createTable",
		"SELECT * FROM users WHERE id = ?", "select version_id from releases", "SELECT pg_database_size('x')",
		"select * from information", "SELECT 1 FROM",
	} {
		assert.False(t, knowledge.IsSchemaStatement(q), q)
	}
}

// FuzzIsSchemaStatement checks that any statement text is decided without a
// panic, and that a schema keyword in front decides it.
func FuzzIsSchemaStatement(f *testing.F) {
	for _, s := range []string{"", "--\n", "CREATE TABLE t()", "select 1", "\n-- c\nALTER x", "(("} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, q string) {
		knowledge.IsSchemaStatement(q)
		if !strings.Contains(q, "-") && !knowledge.IsSchemaStatement("CREATE "+q) {
			t.Errorf("CREATE %q not schema", q)
		}
	})
}

func TestIsMigrationName(t *testing.T) {
	for _, name := range []string{"Migrate", "RunMigrations", "migrator", "EnsureSchema", "initSchema", "CreateSchemas", "SetSchemaVersion", "IsSchemaUpToDate", "ApplySchema", "schemaSetup", "pgbroker.Broker.EnsureSchema", "migrations.Apply"} {
		assert.True(t, knowledge.IsMigrationName(name), name)
	}
	for _, name := range []string{"FetchSchema", "GetSchemaByID", "RegisterSchema", "Schema", "Ensure", "CreateUser", "validateSchemaRef", "schemasetup.purge", "schemainit.Store.Get"} {
		assert.False(t, knowledge.IsMigrationName(name), name)
	}
}
