package tree

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestV1OrdinalKeys: version 1 entries have no ids, and the rules know the
// n-th entry as "#n" without keeping a map of those keys. A reference to
// "#n" resolves exactly when n is the canonical number of an entry, earlier
// or later in the file.
func TestV1OrdinalKeys(t *testing.T) {
	lines := []string{
		`{"type":"session","id":"s1","timestamp":"2025-12-01T10:00:00.000Z","cwd":"/"}`,
		`{"type":"message","timestamp":"2025-12-01T10:00:01.000Z","message":{"role":"user","content":"a","timestamp":1}}`,
		`{"type":"message","timestamp":"2025-12-01T10:00:02.000Z","message":{"role":"user","content":"b","timestamp":2}}`,
	}
	for _, target := range []string{"#2", "#02", "#9", "#7", "#+1", "#0", "#", "2", "#99999999999"} {
		lines = append(lines, `{"type":"compaction","timestamp":"2025-12-01T10:00:03.000Z","summary":"s","firstKeptEntryId":"`+target+`","tokensBefore":1}`)
	}
	p := filepath.Join(t.TempDir(), "v1.jsonl")
	if err := os.WriteFile(p, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range validateFile(t, p).Findings() {
		got = append(got, fmt.Sprintf("%d %s", f.Line, f.Rule))
	}
	// Entries are #1 (line 2) to #11 (line 12): "#2", "#9" and "#7" resolve.
	want := []string{"5 dangling-reference", "8 dangling-reference", "9 dangling-reference", "10 dangling-reference", "11 dangling-reference", "12 dangling-reference"}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("findings %q, want %q", got, want)
	}
}
