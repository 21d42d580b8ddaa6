// Package redact masks secrets in text before a session is exported: API keys
// by their known prefixes, bearer tokens, private key blocks and
// high-entropy values of KEY=VALUE lines. Secrets in transcripts mostly come
// from tool output, so every string of a session is scanned, not just what
// the user typed.
package redact

import (
	"math"
	"regexp"
	"strings"
)

// Mask replaces a secret; it holds no quote or backslash, so masking inside
// raw JSON keeps the JSON valid.
const Mask = "[REDACTED]"

type rule struct {
	name string
	re   *regexp.Regexp
	// keep is the submatch kept in front of the mask (a "Bearer " or "KEY="), 0 for none.
	keep int
	// secret is the submatch that must look random for the rule to fire, 0 for always.
	secret int
}

var rules = []rule{
	{name: "private-key", re: regexp.MustCompile(`-----BEGIN [A-Z0-9 ]*PRIVATE KEY( BLOCK)?-----[\s\S]*?-----END [A-Z0-9 ]*PRIVATE KEY( BLOCK)?-----`)},
	{name: "api-key", re: regexp.MustCompile(`\b(?:` + strings.Join([]string{
		`sk-ant-[A-Za-z0-9_-]{20,}`,                // Anthropic
		`sk-(?:proj-|svcacct-)?[A-Za-z0-9_-]{20,}`, // OpenAI
		`gh[pousr]_[A-Za-z0-9]{30,}`,               // GitHub tokens
		`github_pat_[A-Za-z0-9_]{22,}`,             // GitHub fine-grained
		`glpat-[A-Za-z0-9_-]{20,}`,                 // GitLab
		`xox[abposr]-[A-Za-z0-9-]{10,}`,            // Slack
		`(?:AKIA|ASIA)[0-9A-Z]{16}`,                // AWS access key id
		`AIza[0-9A-Za-z_-]{35}`,                    // Google API key
		`npm_[A-Za-z0-9]{36}`,                      // npm
		`hf_[A-Za-z0-9]{30,}`,                      // Hugging Face
		`(?:sk|rk)_live_[0-9A-Za-z]{20,}`,          // Stripe
		`pypi-[A-Za-z0-9_-]{40,}`,                  // PyPI
	}, "|") + `)`)},
	{name: "bearer", re: regexp.MustCompile(`(?i)(\bbearer\s+)[A-Za-z0-9._~+/=-]{16,}`), keep: 1},
	// KEY=VALUE and KEY: VALUE lines (env files, shell exports, YAML): only a
	// value that looks random is masked, so PATH=/usr/bin or MODE=production stay.
	{name: "key-value", re: regexp.MustCompile(`(?m)(\b[A-Za-z_][A-Za-z0-9_.-]*\s*[=:]\s*["']?)([^\s"'\\]{16,})`), keep: 1, secret: 2},
}

// Redactor masks secrets and counts what it masked.
type Redactor struct {
	Count  int            // secrets masked so far
	ByRule map[string]int // per rule name
}

// New returns a Redactor with zero counts.
func New() *Redactor { return &Redactor{ByRule: map[string]int{}} }

// String returns s with every secret replaced by Mask.
func (r *Redactor) String(s string) string {
	if s == "" {
		return s
	}
	for _, ru := range rules {
		ru := ru
		s = ru.re.ReplaceAllStringFunc(s, func(m string) string {
			sub := ru.re.FindStringSubmatch(m)
			if ru.secret > 0 && !looksRandom(sub[ru.secret]) {
				return m
			}
			if strings.Contains(sub[0], Mask) && ru.secret > 0 && strings.Contains(sub[ru.secret], "REDACTED") {
				return m
			}
			r.Count++
			r.ByRule[ru.name]++
			if ru.keep > 0 {
				return sub[ru.keep] + Mask
			}
			return Mask
		})
	}
	return s
}

// looksRandom reports whether v is a high-entropy token: long, mixing letters
// and digits, and at least 3.5 bits of Shannon entropy per character (English
// words and paths score lower; keys and tokens higher).
func looksRandom(v string) bool {
	if len(v) < 16 || strings.ContainsAny(v, "/") && !strings.ContainsAny(v, "+=") {
		return false
	}
	var letters, digits bool
	freq := map[rune]int{}
	n := 0
	for _, c := range v {
		switch {
		case c >= '0' && c <= '9':
			digits = true
		case c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
			letters = true
		}
		freq[c]++
		n++
	}
	if !letters || !digits {
		return false
	}
	var h float64
	for _, k := range freq {
		p := float64(k) / float64(n)
		h -= p * math.Log2(p)
	}
	return h >= 3.5
}
