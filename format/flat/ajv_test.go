package flat

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sesstool/sesstool/internal/testkit/peers"
)

// ajv proves the schema folder works as it is in a standard validator: the
// reference script loads every schema by $id and checks each line against
// flat/v1/line.json.
func ajv(t *testing.T) (node, script string) {
	t.Helper()
	return peers.Ajv(t)
}

func TestSchemasInAjv(t *testing.T) {
	node, script := ajv(t)
	dir := "../../schema/flat/v1"
	cases := []struct {
		file  string
		valid bool
	}{
		{filepath.Join(samples, "20261121-042424-f487536d.jsonl"), true},
		{filepath.Join(samples, "20261121-042425-a1bea1d6.jsonl"), true},
		{"testdata/roundtrip/extras.jsonl", true},
		{"testdata/invalid/unknown-type.jsonl", true}, // unknown types pass the schema
		{"testdata/invalid/schema.jsonl", false},
	}
	for _, c := range cases {
		out, err := exec.Command(node, script, dir, filepath.Join(dir, "line.json"), c.file).CombinedOutput()
		got := strings.TrimSpace(string(out))
		if c.valid && (err != nil || !strings.HasSuffix(got, " 0 invalid")) {
			t.Errorf("%s: ajv rejects a valid file: %v: %s", c.file, err, got)
		}
		if !c.valid && (err == nil || !strings.HasSuffix(got, " 1 invalid")) {
			t.Errorf("%s: ajv accepts an invalid file: %v: %s", c.file, err, got)
		}
	}
}
