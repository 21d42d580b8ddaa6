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
	for _, c := range r.set.index.candidates(s, r.set.rules) {
		ru := c.rule
		switch {
		case c.hits == nil || ru.multiline:
			out = r.findIn(s, 0, len(s), ru, out)
		case ru.assign:
			out = r.findAssign(s, c.hits, ru, out)
		default:
			for _, w := range windows(s, c.hits) {
				out = r.findIn(s, w.start, w.stop, ru, out)
			}
		}
	}
	return out
}

// findAssign runs an assignment rule from the start of each name holding
// its keyword and followed by an assignment: anchored, the pattern runs
// once per name instead of searching the text.
func (r *Redactor) findAssign(s string, hits []span, ru *rule, out []finding) []finding {
	last := -1
	for _, h := range hits {
		if !assignAfter(s, h.stop) {
			continue
		}
		lo := nameStart(s, h.start, windowBeforeAssign)
		if lo == last { // api_key: "api" and "key" share a name
			continue
		}
		last = lo
		if ru.boundary && !atBoundary(s, lo) {
			continue
		}
		hi := min(len(s), h.stop+windowAfter)
		if m := ru.anchored.FindStringSubmatchIndex(s[lo:hi]); m != nil {
			out = r.consider(s, lo, m, ru, out)
		}
	}
	return out
}

// findIn adds the findings of ru in s[lo:hi].
func (r *Redactor) findIn(s string, lo, hi int, ru *rule, out []finding) []finding {
	for _, m := range ru.re.FindAllStringSubmatchIndex(s[lo:hi], -1) {
		out = r.consider(s, lo, m, ru, out)
	}
	return out
}

// consider adds the secret of match m (offsets from lo in s) unless the
// rule's checks, its entropy or an allowlist excuse it.
func (r *Redactor) consider(s string, lo int, m []int, ru *rule, out []finding) []finding {
	for k := range m {
		if m[k] >= 0 {
			m[k] += lo
		}
	}
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
			return out
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
		return out
	}
	if ru.check != nil && !ru.check(secret, match) {
		return out
	}
	if ru.entropy != 0 && entropy(secret) <= ru.entropy {
		return out
	}
	line := lineAround(s, start, stop)
	if r.set.global.excuses(secret, match, line) || excused(ru.allow, secret, match, line) || ownExcused(line) {
		return out
	}
	return append(out, finding{ss, se, ru.id})
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
