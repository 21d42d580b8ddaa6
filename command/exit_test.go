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
		if got := named(c.name, c.name, errors.New(c.err)); got != c.want {
			t.Errorf("named(%q, %q) = %q, want %q", c.name, c.err, got, c.want)
		}
		if code := Code(invalidIn(c.name, errors.New(c.err))); code != ExitInvalid {
			t.Errorf("invalidIn(%q, %q) exits %d, want %d", c.name, c.err, code, ExitInvalid)
		}
	}
	// standard input is read from its spooled copy, and shown as <stdin>
	spool := "/tmp/sesstool-stdin-1/stdin"
	for err, want := range map[string]string{
		"read " + spool + ": line 2: longer than 64 MiB": "<stdin>: line 2: longer than 64 MiB",
		spool + ":3:7: invalid character":                "<stdin>:3:7: invalid character",
		"not a session":                                  "<stdin>: not a session",
	} {
		if got := named(spool, "<stdin>", errors.New(err)); got != want {
			t.Errorf("named(spool, <stdin>, %q) = %q, want %q", err, got, want)
		}
	}
	if got := named("", "x", errors.New("ab")); got != "x: ab" {
		t.Errorf("an empty path changed the message: %q", got)
	}
}
