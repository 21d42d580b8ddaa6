package redact

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"math"
	"regexp"
	"strings"
	"sync"
)

// gitleaksRules is gitleaks' default rule set as data (see
// gitleaks/README.md): maintained patterns for some 200 kinds of keys and
// tokens, applied the way gitleaks applies them.
//
//go:embed gitleaks/rules.json
var gitleaksRules []byte

// rule finds secrets: a pattern, the group that is the secret, the entropy
// it must exceed and the allowlists that excuse it, as in gitleaks.
type rule struct {
	id          string
	re          *regexp.Regexp
	secretGroup int      // 0: the first group that matched, else the whole match
	entropy     float64  // the secret must have more bits per character (0: no check)
	keywords    []string // lowercase; the rule runs only on text holding one (none: always)
	allow       []allowlist
	check       func(secret, match string) bool // a rule of our own: what else the secret must be
}

type allowlist struct {
	and       bool   // every check must pass, not any
	target    string // what regexes test: "" the secret, "match" or "line"
	re        *regexp.Regexp
	stopwords []string // lowercase; a secret holding one is excused
	needsPath bool     // a path or commit check, which text never passes
}

type ruleFile struct {
	Allowlist allowlistFile `json:"allowlist"`
	Rules     []struct {
		ID          string          `json:"id"`
		Regex       string          `json:"regex"`
		SecretGroup int             `json:"secretGroup"`
		Entropy     float64         `json:"entropy"`
		Keywords    []string        `json:"keywords"`
		Allowlists  []allowlistFile `json:"allowlists"`
	} `json:"rules"`
}

type allowlistFile struct {
	Condition   string   `json:"condition"`
	RegexTarget string   `json:"regexTarget"`
	Regexes     []string `json:"regexes"`
	Stopwords   []string `json:"stopwords"`
	NeedsPath   bool     `json:"needsPath"`
}

// ruleSet is every rule, compiled once, with the global allowlist and an
// index from keywords to rules.
type ruleSet struct {
	rules  []*rule
	global allowlist
	index  keywordIndex
}

var loadRules = sync.OnceValues(func() (*ruleSet, error) {
	var f ruleFile
	if err := json.Unmarshal(gitleaksRules, &f); err != nil {
		return nil, fmt.Errorf("gitleaks/rules.json: %w", err)
	}
	set := &ruleSet{}
	var err error
	if set.global, err = f.Allowlist.compile(); err != nil {
		return nil, fmt.Errorf("gitleaks/rules.json: global allowlist: %w", err)
	}
	for _, r := range f.Rules {
		re, err := regexp.Compile(r.Regex)
		if err != nil {
			return nil, fmt.Errorf("gitleaks/rules.json: rule %s: %w", r.ID, err)
		}
		ru := &rule{id: r.ID, re: re, secretGroup: r.SecretGroup, entropy: r.Entropy}
		for _, k := range r.Keywords {
			ru.keywords = append(ru.keywords, strings.ToLower(k))
		}
		for _, a := range r.Allowlists {
			al, err := a.compile()
			if err != nil {
				return nil, fmt.Errorf("gitleaks/rules.json: rule %s: %w", r.ID, err)
			}
			ru.allow = append(ru.allow, al)
		}
		set.rules = append(set.rules, ru)
	}
	set.rules = append(set.rules, ownRules()...)
	set.index = newKeywordIndex(set.rules)
	return set, nil
})

func (a allowlistFile) compile() (allowlist, error) {
	al := allowlist{and: strings.EqualFold(a.Condition, "AND"), target: a.RegexTarget, needsPath: a.NeedsPath}
	if len(a.Regexes) > 0 {
		re, err := regexp.Compile("(?:" + strings.Join(a.Regexes, ")|(?:") + ")")
		if err != nil {
			return al, err
		}
		al.re = re
	}
	for _, w := range a.Stopwords {
		al.stopwords = append(al.stopwords, strings.ToLower(w))
	}
	return al, nil
}

// excuses reports whether the allowlist lets a finding pass, as gitleaks'
// checkFindingAllowed does for a finding without a path or commit.
func (a allowlist) excuses(secret, match, line string) bool {
	target := secret
	switch a.target {
	case "match":
		target = match
	case "line":
		target = line
	}
	byRegex := a.re != nil && a.re.MatchString(target)
	byStop := false
	if len(a.stopwords) > 0 {
		low := strings.ToLower(secret)
		for _, w := range a.stopwords {
			if strings.Contains(low, w) {
				byStop = true
				break
			}
		}
	}
	if !a.and {
		return byRegex || byStop
	}
	if a.needsPath || (a.re != nil && !byRegex) || (len(a.stopwords) > 0 && !byStop) {
		return false
	}
	return a.re != nil || len(a.stopwords) > 0
}

// entropy is the Shannon entropy of s in bits per character.
func entropy(s string) float64 {
	if s == "" {
		return 0
	}
	counts := map[rune]int{}
	for _, c := range s {
		counts[c]++
	}
	var h float64
	n := float64(len(s))
	for _, k := range counts {
		p := float64(k) / n
		h -= p * math.Log2(p)
	}
	return h
}

// keywordIndex finds which rules' keywords occur in a text in one pass:
// keywords are bucketed by their first two bytes.
type keywordIndex struct {
	always  []*rule
	buckets map[[2]byte][]keyword
}

type keyword struct {
	word  string
	rules []*rule
}

func newKeywordIndex(rules []*rule) keywordIndex {
	ix := keywordIndex{buckets: map[[2]byte][]keyword{}}
	byWord := map[string][]*rule{}
	var words []string
	for _, r := range rules {
		if len(r.keywords) == 0 {
			ix.always = append(ix.always, r)
			continue
		}
		for _, k := range r.keywords {
			if len(k) < 2 {
				ix.always = append(ix.always, r)
				break
			}
			if byWord[k] == nil {
				words = append(words, k)
			}
			byWord[k] = append(byWord[k], r)
		}
	}
	for _, w := range words {
		b := [2]byte{w[0], w[1]}
		ix.buckets[b] = append(ix.buckets[b], keyword{w, byWord[w]})
	}
	return ix
}

// candidates lists the rules to run on s, in rule order.
func (ix keywordIndex) candidates(s string, all []*rule) []*rule {
	on := map[*rule]bool{}
	for _, r := range ix.always {
		on[r] = true
	}
	low := asciiLower(s)
	for i := 0; i+1 < len(low); i++ {
		for _, k := range ix.buckets[[2]byte{low[i], low[i+1]}] {
			if strings.HasPrefix(low[i:], k.word) {
				for _, r := range k.rules {
					on[r] = true
				}
			}
		}
	}
	out := make([]*rule, 0, len(on))
	for _, r := range all {
		if on[r] {
			out = append(out, r)
		}
	}
	return out
}

// asciiLower lowercases ASCII letters only, keeping byte offsets.
func asciiLower(s string) string {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c >= 'A' && c <= 'Z' {
			b := []byte(s)
			for j := i; j < len(b); j++ {
				if c := b[j]; c >= 'A' && c <= 'Z' {
					b[j] = c + 'a' - 'A'
				}
			}
			return string(b)
		}
	}
	return s
}
