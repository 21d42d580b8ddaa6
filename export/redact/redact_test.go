package redact

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestString(t *testing.T) {
	key := "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW\nQyNTUxOQAAACDl7sFtw9KxTZ0Fq3mQ8\n-----END OPENSSH PRIVATE KEY-----"
	anthropic := "sk-ant-api03-" + strings.Repeat("Ab3dEf9hIjK1mN0pQr5tUvW", 5)[:93] + "AA"
	openai := "sk-proj-" + strings.Repeat("x7Kq2Lm9Pz4Rt8Vw1Yb3", 4)[:74] + "T3BlbkFJ" + strings.Repeat("Nc5Hd0Gs6Jf2Ek7Ua4Qo", 4)[:74]
	jwt := "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwicm9sZSI6ImFkbWluIn0.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c"
	tests := []struct {
		name, in, want string
		n              int
	}{
		{"anthropic", "key " + anthropic + " end", "key [REDACTED] end", 1},
		{"openai", "OPENAI " + openai, "OPENAI [REDACTED]", 1},
		{"openrouter", "key 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", "key [REDACTED]", 1},
		{"github", "token ghp_0123456789abcdefghijABCDEFGHIJklmnop", "token [REDACTED]", 1},
		{"aws key id", "AKIAZ7QR3XK2LMNP4VWY", "[REDACTED]", 1},
		{"aws docs example kept", "AKIAIOSFODNN7EXAMPLE", "AKIAIOSFODNN7EXAMPLE", 0},
		// the forms the old rules missed (issue 17)
		{"aws secret with /", "AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI/K7MDENG/bPxRfiCYzQ8kL3mN5p", "AWS_SECRET_ACCESS_KEY=[REDACTED]", 1},
		{"json password", `{"user": "app", "password": "S3cur3!P@ss#2024"}`, `{"user": "app", "password": "[REDACTED]"}`, 1},
		{"postgres url", "postgres://app:hunter2Secret9@db.internal:5432/prod", "postgres://app:[REDACTED]@db.internal:5432/prod", 1},
		{"bare jwt", "token is " + jwt + " ok", "token is [REDACTED] ok", 1},
		{"bearer", "Authorization: Bearer abcdef0123456789ABCDEF", "Authorization: Bearer [REDACTED]", 1},
		{"bearer letters", "Authorization: Bearer xKqPzLmWvRtYbNcHdJfG", "Authorization: Bearer [REDACTED]", 1},
		// a name after Bearer, as a test's header value, is not a token
		{"bearer words kept", "conversation_id=test-conv-2, user_id=Bearer dev-codemie-user,", "conversation_id=test-conv-2, user_id=Bearer dev-codemie-user,", 0},
		{"bearer placeholder kept", `-H "Authorization: Bearer YOUR_ACCESS_TOKEN"`, `-H "Authorization: Bearer YOUR_ACCESS_TOKEN"`, 0},
		{"private key", "x\n" + key + "\ny", "x\n[REDACTED]\ny", 1},
		{"env random", "DB_PASSWORD=q8Zx2LmP9vRt4KwY7n", "DB_PASSWORD=[REDACTED]", 1},
		{"yaml random", "secret: 'a9F3kL2mQ8zX4vB7nR1t'", "secret: '[REDACTED]'", 1},
		// ordinary code and text the old rules masked (issue 17)
		{"css transform", "transform: translate3d(0, 0, 0) rotate(45deg) scale(1.05);", "transform: translate3d(0, 0, 0) rotate(45deg) scale(1.05);", 0},
		{"css variable", "--text: #1f2937; --token-bg: #0e7490;", "--text: #1f2937; --token-bg: #0e7490;", 0},
		{"git sha", "commit 3f90fb7a375ef25e4b83461df22afbe2d593a37a", "commit 3f90fb7a375ef25e4b83461df22afbe2d593a37a", 0},
		{"sha256", "sha256:9b2f4c1e8a7d6f5e4c3b2a1f0e9d8c7b6a5f4e3d2c1b0a9f8e7d6c5b4a3f2e1d", "sha256:9b2f4c1e8a7d6f5e4c3b2a1f0e9d8c7b6a5f4e3d2c1b0a9f8e7d6c5b4a3f2e1d", 0},
		{"path kept", "PATH=/usr/local/bin:/usr/bin:/bin", "PATH=/usr/local/bin:/usr/bin:/bin", 0},
		{"placeholder kept", "password: ${DB_PASSWORD}", "password: ${DB_PASSWORD}", 0},
		{"code kept", "const contextTokens = calculateContextTokens(last.usage);", "const contextTokens = calculateContextTokens(last.usage);", 0},
		{"prose kept", "the quick brown fox jumps", "the quick brown fox jumps", 0},
		{"short kept", "sk-short", "sk-short", 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := mustNew(t)
			got := r.String(tc.in)
			if got != tc.want || r.Count != tc.n {
				t.Errorf("String(%q) = %q (%d masked: %v), want %q (%d)", tc.in, got, r.Count, r.ByRule, tc.want, tc.n)
			}
		})
	}
}

func TestRawStaysJSON(t *testing.T) {
	r := mustNew(t)
	in := json.RawMessage(`{"command":"curl -H 'Authorization: Bearer abcdefghijklmnop0123' x","env":"API_KEY=Zk3p9QwL2xV8mN4rT6yB","content":"DB_PASSWORD=q8Zx2LmP9vRt4KwY7n\nMODE=dev"}`)
	out := r.raw(in)
	if !json.Valid(out) {
		t.Fatalf("not JSON: %s", out)
	}
	for _, s := range []string{"abcdefghijklmnop0123", "Zk3p9QwL2xV8mN4rT6yB", "q8Zx2LmP9vRt4KwY7n"} {
		if strings.Contains(string(out), s) {
			t.Errorf("%s left in %s", s, out)
		}
	}
	if r.Count != 3 || !strings.Contains(string(out), `\nMODE=dev`) {
		t.Errorf("got %s with %d masked", out, r.Count)
	}
}

// TestRulesLoad checks the embedded gitleaks rules compile and are all there.
func TestRulesLoad(t *testing.T) {
	set, err := loadRules()
	if err != nil {
		t.Fatal(err)
	}
	if n := len(set.rules); n < 200 {
		t.Errorf("%d rules loaded, want gitleaks' 217 and ours", n)
	}
}
