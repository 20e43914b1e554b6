package report

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestTestSupportPath(t *testing.T) {
	for _, p := range []string{"github.com/ory/hydra/v2/test/mock-cb", "example.com/x/internal/testutil", "golang.org/x/tools/internal/jsonrpc2/servertest", "example.com/x/tests/e2e", "example.com/x/benchmark", "github.com/cloudflare/cfssl/certdb/testdb", "example.com/x/internal/testenv"} {
		assert.True(t, TestSupportPath(p), p)
	}
	for _, p := range []string{"example.com/x/api", "example.com/x/latest", "example.com/x/contest/results", "example.com/testify-like", "github.com/x/manifest", "example.com/testament/api", "github.com/cortexproject/cortex/pkg/testexporter/correctness"} {
		assert.False(t, TestSupportPath(p), p)
	}
}
