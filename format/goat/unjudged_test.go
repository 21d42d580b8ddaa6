package goat

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A session whose first bytes cannot settle what it is is still listed, so
// that validate reports it instead of it vanishing from a store walk with
// 0 errors (issue 18): an "id" beyond the 64 KiB detection looks at, a
// first messages.jsonl line torn by a crash or longer than 64 KiB.
func TestUnjudgedSessionsAreListed(t *testing.T) {
	const msg = `{"uuid":"a","timestamp":"2026-02-09T10:15:26Z","message":{"role":"user","content":"hi"}}` + "\n"
	meta := func(id string) string { return `{"id":"` + id + `","cwd":"/w"}` }
	cases := map[string][2]string{
		"11111111-2222-4333-8444-000000000001": {`{"pad":"` + strings.Repeat("x", 70000) + `","id":"11111111-2222-4333-8444-000000000001"}`, msg},
		"11111111-2222-4333-8444-000000000002": {meta("11111111-2222-4333-8444-000000000002"), `{"uuid":"a","message":{"ro`},
		"11111111-2222-4333-8444-000000000003": {meta("11111111-2222-4333-8444-000000000003"), `{"uuid":"a","pad":"` + strings.Repeat("y", 70000) + `","message":{"role":"user"}}` + "\n"},
		"11111111-2222-4333-8444-000000000004": {meta("11111111-2222-4333-8444-000000000004"), msg},
	}
	store := t.TempDir()
	for id, files := range cases {
		dir := filepath.Join(store, id)
		if err := os.Mkdir(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, MetadataFile), []byte(files[0]), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, MessagesFile), []byte(files[1]), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	refs, err := Format{}.Sessions(store)
	if err != nil {
		t.Fatal(err)
	}
	if len(refs) != len(cases) {
		t.Errorf("Sessions listed %d of %d sessions: %v", len(refs), len(cases), refs)
	}
	// Something else with those two names stays unclaimed.
	other := filepath.Join(t.TempDir(), "x")
	os.Mkdir(other, 0o755)
	os.WriteFile(filepath.Join(other, MetadataFile), []byte(`{"name":"not goat"}`), 0o644)
	os.WriteFile(filepath.Join(other, MessagesFile), []byte(msg), 0o644)
	if (Format{}).Detect(other) {
		t.Errorf("a metadata.json without an id is claimed")
	}
}
