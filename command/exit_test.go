package command

import (
	"errors"
	"testing"
)

// TestNamed: a refusal names the session once, however the reader's error
// already names the file.
func TestNamed(t *testing.T) {
	for _, c := range []struct{ name, err, want string }{
		{"s.jsonl", "read s.jsonl: line 2: longer than 64 MiB", "s.jsonl: line 2: longer than 64 MiB"},
		{"s.jsonl", "s.jsonl:3:7: invalid character", "s.jsonl:3:7: invalid character"},
		{"s.jsonl", "entry is not a JSON object", "s.jsonl: entry is not a JSON object"},
		// another file in a store keeps its own name
		{"store", "read store/a.jsonl: line 2: too long", "store: read store/a.jsonl: line 2: too long"},
		// a longer name that starts with name is not name
		{"s.jsonl", "s.jsonl.bak: gone", "s.jsonl: s.jsonl.bak: gone"},
		{"s.jsonl", "read s.jsonl.bak: gone", "s.jsonl: read s.jsonl.bak: gone"},
	} {
		if got := named(c.name, errors.New(c.err)); got != c.want {
			t.Errorf("named(%q, %q) = %q, want %q", c.name, c.err, got, c.want)
		}
		if code := Code(invalidIn(c.name, errors.New(c.err))); code != ExitInvalid {
			t.Errorf("invalidIn(%q, %q) exits %d, want %d", c.name, c.err, code, ExitInvalid)
		}
	}
}
