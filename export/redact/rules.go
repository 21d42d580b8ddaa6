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
	multiline   bool                            // runs on the whole text, not on windows around its keywords
	// assign: the pattern is NAME (holding the keyword) then an assignment
	// (=, :, =>, ...) then the secret, so a keyword with no assignment
	// after its name is passed over before the pattern runs.
	assign bool
	// anchored is the pattern anchored at the start of the name, which an
	// assignment rule is run with, from each keyword's name.
	anchored *regexp.Regexp
	// boundary: the name must start a line or follow a space, ; or `
	// (own rules that stand for a shell or .env assignment).
	boundary bool
}

// span is a byte range of a text.
type span struct{ start, stop int }

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

// multiline are the gitleaks rules whose matches can run far from their
// keyword: a private key's body follows its BEGIN line.
var multiline = map[string]bool{"private-key": true, "jwt-base64": true}

// assignTemplate is how gitleaks' rules for NAME = secret spell the
// assignment.
const assignTemplate = `(?:[ \t\w.-]{0,20})[\s'"]{0,3}(?:=|>|:{1,3}=|\|\||:|=>|\?=|,)`

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
		ru := &rule{id: r.ID, re: re, secretGroup: r.SecretGroup, entropy: r.Entropy, multiline: multiline[r.ID],
			assign: strings.Contains(r.Regex, assignTemplate)}
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
	for _, ru := range set.rules {
		if ru.assign {
			if ru.anchored, err = regexp.Compile(`^(?:` + ru.re.String() + `)`); err != nil {
				return nil, fmt.Errorf("rule %s: %w", ru.id, err)
			}
		}
	}
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

// candidate is a rule to run on a text, and where its keywords are in it
// (nil for a rule without keywords, run on the whole text).
type candidate struct {
	rule *rule
	hits []span // keyword occurrences
}

// candidates lists the rules to run on s, in rule order.
func (ix keywordIndex) candidates(s string, all []*rule) []candidate {
	hits := map[*rule][]span{}
	for _, r := range ix.always {
		hits[r] = nil
	}
	low := asciiLower(s)
	for i := 0; i+1 < len(low); i++ {
		for _, k := range ix.buckets[[2]byte{low[i], low[i+1]}] {
			if strings.HasPrefix(low[i:], k.word) {
				for _, r := range k.rules {
					hits[r] = append(hits[r], span{i, i + len(k.word)})
				}
			}
		}
	}
	out := make([]candidate, 0, len(hits))
	for _, r := range all {
		if h, ok := hits[r]; ok {
			out = append(out, candidate{r, h})
		}
	}
	return out
}

// Around a keyword, a rule looks this far back and ahead: gitleaks'
// patterns put a name of at most 50 characters before the keyword and a
// secret of at most a few hundred after it (the credential rules, 300).
// Running a pattern on a small window per keyword, rather than on a whole
// tool output, makes redaction several times faster; a finding seen from
// two windows is masked once.
const (
	windowBefore       = 256 // a keyword can sit inside a token: OpenAI's T3BlbkFJ
	windowBeforeAssign = 64  // a name holding the keyword: at most 50 before it
	windowAfter        = 480
)

// windows are the stretches of s around hits that a rule's pattern can
// match in; a window close behind the last one extends it.
func windows(s string, hits []span) []span {
	var out []span
	for _, h := range hits {
		w := span{max(0, h.start-windowBefore), min(len(s), h.stop+windowAfter)}
		if n := len(out); n > 0 && w.start <= out[n-1].start+windowBefore {
			out[n-1].stop = w.stop
			continue
		}
		out = append(out, w)
	}
	return out
}

// nameStart is where the name holding the keyword at i begins: at most
// limit bytes back over letters, digits, _ . and -.
func nameStart(s string, i, limit int) int {
	lo := max(0, i-limit)
	for i > lo {
		c := s[i-1]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '.' || c == '-') {
			break
		}
		i--
	}
	if i > 0 && s[i-1] == '\\' && i < len(s) && (s[i] == 'n' || s[i] == 'r' || s[i] == 't') {
		i++ // "\nNAME" in JSON text: the n belongs to the escape
	}
	return i
}

// atBoundary reports whether s[i:] starts a line or follows a space, a
// tab, ; or a backquote, or a \n, \r or \t escape of JSON text.
func atBoundary(s string, i int) bool {
	if i == 0 {
		return true
	}
	switch s[i-1] {
	case '\n', '\r', ' ', '\t', ';', '`':
		return true
	case 'n', 'r', 't':
		return i >= 2 && s[i-2] == '\\'
	}
	return false
}

// assignAfter reports whether the name running on at s[i:] is followed by
// an assignment, as assignTemplate and the credential rules allow: at most
// a few more name characters, quotes or spaces, then = : > | ? or a comma.
func assignAfter(s string, i int) bool {
	for n := 0; i < len(s) && n < 64; i, n = i+1, n+1 {
		switch c := s[i]; {
		case c == '=' || c == ':' || c == '>' || c == '|' || c == '?' || c == ',':
			return true
		case c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' ||
			c == '_' || c == '.' || c == '-' || c == ' ' || c == '\t' || c == '\'' || c == '"' || c == '\\' || c == '\n' || c == '\r':
		default:
			return false
		}
	}
	return false
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
