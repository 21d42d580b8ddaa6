// Package redact masks secrets in text before a session is exported, with
// gitleaks' maintained rule set (keys and tokens of some 200 services,
// private keys, generic key = value assignments judged by entropy and
// allowlists) and a few rules of its own for what gitleaks leaves to file
// paths or does not cover (passwords in connection URLs and quoted password
// fields, bearer tokens). Secrets in transcripts mostly come from tool
// output, so every string of a session is scanned, not just what the user
// typed.
package redact

import (
	"sort"
	"strings"
)

// Mask replaces a secret; it holds no quote or backslash, so masking inside
// raw JSON keeps the JSON valid.
const Mask = "[REDACTED]"

// Redactor masks secrets and counts what it masked.
type Redactor struct {
	Count  int            // secrets masked so far
	ByRule map[string]int // per rule id
	set    *ruleSet
}

// New returns a Redactor with zero counts; it fails only if the embedded
// rules do not compile.
func New() (*Redactor, error) {
	set, err := loadRules()
	if err != nil {
		return nil, err
	}
	return &Redactor{ByRule: map[string]int{}, set: set}, nil
}

// finding is one secret's byte range in a text and the rule that found it.
type finding struct {
	start, stop int
	rule        string
}

// String returns s with every secret replaced by Mask.
func (r *Redactor) String(s string) string {
	if s == "" {
		return s
	}
	fs := r.find(s)
	if len(fs) == 0 {
		return s
	}
	sort.Slice(fs, func(i, j int) bool {
		if fs[i].start != fs[j].start {
			return fs[i].start < fs[j].start
		}
		return fs[i].stop > fs[j].stop
	})
	var b strings.Builder
	pos := 0
	for _, f := range fs {
		if f.stop <= pos { // inside a secret already masked
			continue
		}
		if f.start < pos { // overlaps it: the mask grows
			pos = f.stop
			continue
		}
		b.WriteString(s[pos:f.start])
		b.WriteString(Mask)
		pos = f.stop
		r.Count++
		r.ByRule[f.rule]++
	}
	b.WriteString(s[pos:])
	return b.String()
}

// find runs every rule whose keywords s holds, as gitleaks does: the secret
// is the rule's secret group (or its first group that matched), it must be
// random enough, and no allowlist may excuse it.
func (r *Redactor) find(s string) []finding {
	var out []finding
	for _, ru := range r.set.index.candidates(s, r.set.rules) {
		for _, m := range ru.re.FindAllStringSubmatchIndex(s, -1) {
			start, stop := m[0], m[1]
			for stop > start && s[stop-1] == '\n' {
				stop--
			}
			for start < stop && s[start] == '\n' {
				start++
			}
			ss, se := start, stop
			if g := ru.secretGroup; g > 0 && 2*g+1 < len(m) {
				if m[2*g] < 0 {
					continue
				}
				ss, se = m[2*g], m[2*g+1]
			} else if g == 0 {
				for k := 1; 2*k+1 < len(m); k++ {
					if m[2*k] >= 0 && m[2*k+1] > m[2*k] {
						ss, se = m[2*k], m[2*k+1]
						break
					}
				}
			}
			secret, match := s[ss:se], s[start:stop]
			if secret == "" || strings.Contains(secret, Mask) {
				continue
			}
			if ru.check != nil && !ru.check(secret, s[start:stop]) {
				continue
			}
			if ru.entropy != 0 && entropy(secret) <= ru.entropy {
				continue
			}
			line := lineAround(s, start, stop)
			if r.set.global.excuses(secret, match, line) || excused(ru.allow, secret, match, line) {
				continue
			}
			out = append(out, finding{ss, se, ru.id})
		}
	}
	return out
}

func excused(as []allowlist, secret, match, line string) bool {
	for _, a := range as {
		if a.excuses(secret, match, line) {
			return true
		}
	}
	return false
}

// lineAround is the whole lines s[start:stop] lies on.
func lineAround(s string, start, stop int) string {
	i := strings.LastIndexByte(s[:start], '\n') + 1
	j := strings.IndexByte(s[stop:], '\n')
	if j < 0 {
		return s[i:]
	}
	return s[i : stop+j]
}
