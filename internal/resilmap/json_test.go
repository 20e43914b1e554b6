package resilmap

import (
	"bytes"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestJSONRoundTrip(t *testing.T) {
	for _, name := range samples(t) {
		m := readSample(t, name)
		var first bytes.Buffer
		require.NoError(t, WriteJSON(&first, m))
		again, err := ReadJSON(bytes.NewReader(first.Bytes()))
		require.NoError(t, err, name)
		assert.Equal(t, m, again, name)

		var second bytes.Buffer
		require.NoError(t, WriteJSON(&second, again))
		assert.Equal(t, first.String(), second.String(), "%s: WriteJSON is not stable", name)
	}
}

func TestJSONKeepsWhatMatters(t *testing.T) {
	m := readSample(t, "checkout.json")
	p := m.Paths[0]
	require.NotNil(t, p.Idempotent)
	assert.False(t, *p.Idempotent, "idempotent: false must not read as unknown")
	assert.Nil(t, m.Paths[6].Idempotent, "a missing idempotent reads as unknown")
	require.NotNil(t, p.Retry)
	assert.Equal(t, "9", p.Retry.Product)
	assert.Len(t, p.Retry.Layers, 2)
}

func TestReadJSONErrors(t *testing.T) {
	const entries = `"entries": [{"id": "e1", "kind": "main", "name": "main"}]`
	const calls = `"calls": [{"id": "c1", "kind": "sql"}]`
	for _, tc := range []struct {
		name, json, want string
	}{
		{"not JSON", `{"version": 1,`, "resilience map: unexpected EOF"},
		{"wrong type", `{"version": "1"}`, "resilience map: json: cannot unmarshal string"},
		{"no version", `{}`, "resilience map: version 0, this resilvet reads version 1"},
		{"newer version", `{"version": 2}`, "resilience map: version 2, this resilvet reads version 1"},
		{"null", `null`, "resilience map: version 0"},
		{"missing entry", `{"version": 1, ` + entries + `, ` + calls + `, "paths": [{"entry": "e2", "call": "c1"}]}`,
			`resilience map: a path names entry "e2", which the map does not have`},
		{"missing call", `{"version": 1, ` + entries + `, ` + calls + `, "paths": [{"entry": "e1", "call": "c9"}]}`,
			`resilience map: a path names call "c9", which the map does not have`},
		{"entry id twice", `{"version": 1, "entries": [{"id": "e1"}, {"id": "e1"}]}`,
			`resilience map: entry id "e1" used twice`},
		{"call id twice", `{"version": 1, "calls": [{"id": "c1"}, {"id": "c1"}]}`,
			`resilience map: call id "c1" used twice`},
	} {
		m, err := ReadJSON(strings.NewReader(tc.json))
		assert.Nil(t, m, tc.name)
		assert.ErrorContains(t, err, tc.want, tc.name)
	}
}
