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
	} {
		assert.True(t, knowledge.IsSchemaStatement(q), q)
	}
	for _, q := range []string{
		"", "--", "-- only a comment", "SELECT 1", "INSERT INTO t VALUES (1)",
		"UPDATE t SET x = 1", "TRUNCATE t", "DELETE FROM t", "with x as (select 1) select * from x",
		"CREATED_AT", "createTable",
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
