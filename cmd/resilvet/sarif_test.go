//go:build e2e

package main_test

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/stretchr/testify/require"
)

// sarifSchemaModule carries the OASIS SARIF 2.1.0 JSON schema in its
// test data; fetched through the module proxy like any dependency.
const sarifSchemaModule = "github.com/securego/gosec/v2@v2.29.0"

// validateSARIF checks out against the SARIF 2.1.0 schema.
func validateSARIF(t *testing.T, out []byte) {
	t.Helper()
	cmd := exec.Command("go", "mod", "download", "-json", sarifSchemaModule)
	cmd.Dir = t.TempDir()
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOWORK=off")
	var stdout bytes.Buffer
	cmd.Stdout = &stdout
	require.NoError(t, cmd.Run(), "fetching the SARIF schema")
	var mod struct{ Dir string }
	require.NoError(t, json.Unmarshal(stdout.Bytes(), &mod))
	schemaFile := filepath.Join(mod.Dir, "report", "sarif", "testdata", "sarif-schema-2.1.0.json")
	f, err := os.Open(schemaFile)
	require.NoError(t, err)
	defer f.Close()
	doc, err := jsonschema.UnmarshalJSON(f)
	require.NoError(t, err)
	c := jsonschema.NewCompiler()
	require.NoError(t, c.AddResource("sarif.json", doc))
	schema, err := c.Compile("sarif.json")
	require.NoError(t, err)
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(out))
	require.NoError(t, err, string(out))
	require.NoError(t, schema.Validate(inst), "SARIF output does not follow the 2.1.0 schema")
}
