package knowledge_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/resilvet/resilvet/internal/knowledge"
)

func TestNotIdempotentSQL(t *testing.T) {
	for q, want := range map[string]string{
		"INSERT INTO orders (id) VALUES ($1)":                                 "an INSERT without an upsert clause",
		"\n-- new order\n  insert into orders values (?)":                     "an INSERT without an upsert clause",
		"INSERT INTO orders (id) VALUES ($1) ON CONFLICT (id) DO NOTHING":     "",
		"INSERT INTO orders (id) VALUES ($1)\n\tON  CONFLICT (id) DO NOTHING": "",
		"INSERT INTO t (id) VALUES (?) ON DUPLICATE KEY UPDATE id = id":       "",
		"INSERT IGNORE INTO t (id) VALUES (?)":                                "",
		"INSERT OR REPLACE INTO t (id) VALUES (?)":                            "",
		"UPDATE accounts SET balance = balance + $1 WHERE id = $2":            "an UPDATE that adds to a column",
		"update accounts set n = accounts.n - 1 where id = 1":                 "an UPDATE that adds to a column",
		"UPDATE accounts SET seen = now(), hits = hits+1":                     "an UPDATE that adds to a column",
		"UPDATE accounts SET balance = $1 WHERE id = $2":                      "",
		"UPDATE wallets SET balance = $1 + balance WHERE id = $2":             "an UPDATE that adds to a column",
		"UPDATE accounts SET total = price + tax WHERE id = $1":               "",
		"SELECT * FROM orders":                                                "",
		"DELETE FROM orders WHERE id = $1":                                    "",
		"":                                                                    "",
		"--":                                                                  "",
	} {
		assert.Equal(t, want, knowledge.NotIdempotentSQL(q), q)
	}
}

// FuzzNotIdempotentSQL checks that any statement is decided without a
// panic, and that an upsert clause always makes an INSERT idempotent.
func FuzzNotIdempotentSQL(f *testing.F) {
	for _, s := range []string{"", "INSERT", "UPDATE t SET", "UPDATE t SET a = a +", "update x set =", "--\n", "INSERT INTO t VALUES (1)"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, q string) {
		knowledge.NotIdempotentSQL(q)
		if !strings.ContainsAny(q, "-\x00") && knowledge.NotIdempotentSQL("INSERT INTO t "+q+" ON CONFLICT DO NOTHING") != "" {
			t.Errorf("upsert %q taken for an INSERT", q)
		}
	})
}

func TestHasMethodPrefix(t *testing.T) {
	prefixes := knowledge.DefaultGRPCPrefixes
	for name, want := range map[string]string{
		"CreateOrder": "Create", "Add": "Add", "AddItem": "Add", "Send2FA": "Send", "Post_Message": "Post",
		"Address": "", "Additional": "", "Sender": "", "GetOrder": "", "Postpone": "", "create": "",
	} {
		got, ok := knowledge.HasMethodPrefix(name, prefixes)
		assert.Equal(t, want, got, name)
		assert.Equal(t, want != "", ok, name)
	}
}

func TestIsReadMediaType(t *testing.T) {
	assert.True(t, knowledge.IsReadMediaType("application/ocsp-request"))
	assert.True(t, knowledge.IsReadMediaType(" Application/DNS-Message; q=1"))
	assert.False(t, knowledge.IsReadMediaType("application/json"))
	assert.False(t, knowledge.IsReadMediaType(""))
}

func TestReadsOverPost(t *testing.T) {
	for url, want := range map[string]bool{
		"http://es:9200/orders/_search":          true,
		"/orders/_search?scroll=1m":              true,
		"/_msearch":                              true,
		"https://api.example.com/v1/search":      true,
		"https://api.example.com/query/":         true,
		"https://api.example.com/v1/charges":     false,
		"https://api.example.com/searches":       false,
		"https://api.example.com/v1/queryable":   false,
		"https://x/charges#/search":              false,
		"https://login.example.com/oauth2/token": true,
		"https://api.example.com/access_token":   true,
		"https://api.example.com/v1/tokens":      false,
	} {
		assert.Equal(t, want, knowledge.ReadsOverPost(url), url)
	}
}

func TestOpensUploadSession(t *testing.T) {
	for url, want := range map[string]bool{
		"https://www.googleapis.com/upload/storage/v1/b/x/o?uploadType=resumable&name=y": true,
		"uploadType=resumable&name=%v":                                        true,
		"https://x/o?name=y&uploadtype=resumable":                             true,
		"https://www.googleapis.com/upload/storage/v1/b/x/o?uploadType=media": false,
		"https://x/o?name=y&foo_uploadType=resumable":                         false,
	} {
		assert.Equal(t, want, knowledge.OpensUploadSession(url), url)
	}
}

func TestIdempotentByProtocol(t *testing.T) {
	assert.True(t, knowledge.IdempotentByProtocol("(*golang.org/x/crypto/acme.Client).WaitOrder"))
	assert.True(t, knowledge.IdempotentByProtocol("(*golang.org/x/crypto/acme.Client).Accept"))
	assert.False(t, knowledge.IdempotentByProtocol("(*golang.org/x/crypto/acme.Client).AuthorizeOrder"), "a new order is a new order")
	assert.False(t, knowledge.IdempotentByProtocol("(*golang.org/x/crypto/acme.Client).CreateOrderCert"))
}
