package redact

import (
	"encoding/base64"
	"regexp"
	"strings"
	"unicode/utf8"
)

// ownRules cover what gitleaks' default set misses in the text of sessions
// (measured on testdata/corpus): passwords with punctuation, which its
// generic rule stops at; passwords inside connection URLs; AWS secret keys
// given to `aws configure set`; Stripe keys followed by curl's `-u KEY:`.
func ownRules() []*rule {
	return []*rule{
		{
			id: "url-password", keywords: []string{"://"},
			// scheme://user:PASSWORD@host
			// (the user may be empty: redis://:PASSWORD@host)
			re:    regexp.MustCompile(`\b[A-Za-z][A-Za-z0-9+.-]*://[^\s:/@"'<>]*:([^\s/@"'<>]+)@[A-Za-z0-9\[]`),
			check: notPlaceholder,
		},
		{
			id: "credential-assignment", keywords: credentialWords, assign: true,
			re:    regexp.MustCompile(`(?i)` + credentialName + `\\?["']?[ \t]*(?:=|:)[ \t]*\\?(["'])([^"'\s\\]{8,300})\\?["']`),
			check: credentialValue, secretGroup: 2,
		},
		{
			id: "credential-line", keywords: credentialWords, assign: true, boundary: true,
			// NAME=value in .env files and shell commands, NAME: value in
			// YAML, NAME = value in INI files, unquoted; the name starts a
			// line or follows a space (boundary)
			re:    regexp.MustCompile(`(?i)` + credentialName + `(?:=|[ \t]*[:=][ \t]+)([^\s"'\\` + "`" + `]{8,300})(?:\s|\\[nrt]|` + "`" + `|$)`),
			check: credentialValue,
		},
		{
			id: "app-password", keywords: []string{"pass", "pwd"},
			// an app password as Google shows it: four groups of four letters
			re: regexp.MustCompile(`(?i)(?:passw(?:or)?d|pwd)[\w.-]*\\?["']?[ \t]*[:=][ \t]*\\?["']?([a-z]{4} [a-z]{4} [a-z]{4} [a-z]{4})\b`),
		},
		{
			id: "aws-secret-key", keywords: []string{"secret"},
			re: regexp.MustCompile(`(?i)secret_?access_?key["']?(?:[ \t]*[:=][ \t]*|[ \t]+)["']?([A-Za-z0-9/+]{40})(?:[^A-Za-z0-9/+=]|$)`),
		},
		{
			id: "stripe-key", keywords: []string{"sk_", "rk_"},
			re: regexp.MustCompile(`\b((?:sk|rk)_(?:test|live|prod)_[A-Za-z0-9]{10,247})\b`),
		},
		{
			id: "bearer", keywords: []string{"bearer"},
			re:    regexp.MustCompile(`(?i)\bbearer[ \t]+([A-Za-z0-9._~+/-]{16,}=*)`),
			check: func(v, m string) bool { return notPlaceholder(v, m) && !words(v) },
		},
		{
			id: "mysql-password", keywords: []string{"mysql"},
			// mysql -u root -pPASSWORD: the password is glued to -p (a
			// lone -p asks for it); also mysqldump, mysqladmin
			re:    regexp.MustCompile(`\bmysql(?:dump|admin|import|check|sh)?\b[^\n|;&]*?[ \t]-p([^\s'"` + "`" + `;|&<>]{3,})`),
			check: notPlaceholder,
		},
		{
			id: "netrc-password", keywords: []string{"machine"}, multiline: true,
			// machine HOST login USER password SECRET, on one line or several
			re:    regexp.MustCompile(`\bmachine[ \t]+\S+(?:\s+(?:login|account)[ \t]+\S+)*\s+password[ \t]+(\S+)`),
			check: notPlaceholder,
		},
		{
			id: "basic-auth", keywords: []string{"basic"},
			// Authorization: Basic base64(user:password)
			re:    regexp.MustCompile(`(?i)\bauthorization\\?["']?[ \t]*[:=][ \t]*\\?["']?basic[ \t]+([A-Za-z0-9+/]{8,}={0,3})`),
			check: userColonPassword,
		},
		{
			id: "docker-auth", keywords: []string{"auth"},
			// ~/.docker/config.json: "auths": {"REGISTRY": {"auth": base64(user:password)}}
			re:    regexp.MustCompile(`"auth"[ \t]*:[ \t]*"([A-Za-z0-9+/]{8,}={0,3})"`),
			check: userColonPassword,
		},
		{
			id: "google-oauth-secret", keywords: []string{"gocspx-"},
			// a Google OAuth client secret
			re: regexp.MustCompile(`\b(GOCSPX-[A-Za-z0-9_-]{24,40})`),
		},
		{
			id: "azure-account-key", keywords: []string{"accountkey"},
			// an Azure storage connection string's AccountKey=…;
			re: regexp.MustCompile(`(?i)\bAccountKey=([A-Za-z0-9+/]{40,}={0,2})`),
		},
		{
			id: "sk-key", keywords: []string{"sk-"},
			// OpenAI-style keys of other providers: OpenRouter sk-or-v1-…,
			// DeepSeek sk-…, and OpenAI's that gitleaks' marker misses
			re:    regexp.MustCompile(`\b(sk-(?:[a-z0-9]{1,8}-){0,3}[A-Za-z0-9_]{24,}[A-Za-z0-9_-]*)`),
			check: func(v, _ string) bool { return strings.ContainsAny(v, "0123456789") && entropy(v) > 3.5 },
		},
	}
}

// goSumLine is a line of a go.sum file: its h1: hash is a digest, whatever
// the module's name says (modernc.org/token).
var goSumLine = regexp.MustCompile(`^\S+ v\S+ h1:[A-Za-z0-9+/]{43}=$`)

// ownExcused is what sesstool excuses on top of gitleaks' allowlists.
func ownExcused(line string) bool {
	return goSumLine.MatchString(strings.TrimSpace(line))
}

// userColonPassword reports whether v is the base64 of user:password, as
// HTTP Basic and Docker's auths write credentials.
func userColonPassword(v, _ string) bool {
	b, err := base64.StdEncoding.DecodeString(v)
	if err != nil {
		b, err = base64.RawStdEncoding.DecodeString(strings.TrimRight(v, "="))
	}
	if err != nil {
		return false
	}
	i := strings.IndexByte(string(b), ':')
	return i > 0 && i < len(b)-1 && utf8.Valid(b)
}

// credentialName is a key, variable or field that holds a credential.
const credentialName = `[\w.-]*(?:passw(?:or)?d|pwd|secret|token|api[_.-]?key|access[_.-]?key|private[_.-]?key|auth[_.-]?key|credentials?|session[_.-]?key|signing[_.-]?key|encryption[_.-]?key|master[_.-]?key)[\w.-]*`

// passwordName is a credential name for a password, which people also set
// to letters only (Gmail's app passwords are 16 lowercase letters).
var passwordName = regexp.MustCompile(`(?i)passw(?:or)?d|pwd`)

var credentialWords = []string{"pass", "pwd", "secret", "token", "key", "credential"}

// credentialValue reports whether an assigned value looks like a credential
// rather than a placeholder, a reference, a number, a word, a path, a URL
// or code.
func credentialValue(v, match string) bool {
	if !notPlaceholder(v, match) || len(v) < 8 {
		return false
	}
	if strings.Contains(v, "://") || strings.HasPrefix(v, "/") || strings.HasPrefix(v, "./") || strings.HasPrefix(v, "~/") {
		return false
	}
	if spacedAssign.MatchString(match) && strings.ContainsAny(v, "()[]{};") {
		return false // code: x = f(y); an .env or shell line has no spaces around =
	}
	if codeLike.MatchString(v) || color.MatchString(v) || strings.HasPrefix(v, "==") || strings.Contains(v, "&&") || strings.Contains(v, "||") {
		return false
	}
	digit := strings.ContainsAny(v, "0123456789")
	const letters = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
	if core := strings.TrimRight(v, ",;)"); !digit && strings.Trim(core, letters+"_-.") == "" {
		// a word or an identifier (production, smtp_password, lm-studio),
		// unless it is a password of letters (Gmail's app passwords are 16)
		return strings.Trim(core, letters) == "" && passwordName.MatchString(match) && len(core) >= 12 && entropy(core) >= 3
	}
	if allDigits(v) {
		return false
	}
	return entropy(v) > 3
}

var (
	// a call, a member chain, a template or an object: process.env.X,
	// getenv(X), {{ .X }}, {tokens[i]}
	codeLike     = regexp.MustCompile(`^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)+(?:\(|[,;)]*$)|^[A-Za-z_$][\w$.]*\([^()]*\)[,;]*$|\$\{|\{\{|%\(|^\$[A-Za-z_]|^<.*>$|^%[A-Za-z_]+%$|^[{\[` + "`" + `]`)
	spacedAssign = regexp.MustCompile(`[ \t]=|=[ \t]`)
	color        = regexp.MustCompile(`^#(?:[0-9a-fA-F]{3,4}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8});?$`)
)

// notPlaceholder rejects values written to be replaced: ${VAR}, $VAR,
// <password>, ****, xxxx, "password".
func notPlaceholder(v, _ string) bool {
	low := strings.ToLower(strings.Trim(v, `"',;`))
	switch low {
	case "password", "passwd", "pass", "pwd", "secret", "token", "changeme", "null", "none", "undefined", "true", "false", "redacted", "example":
		return false
	}
	if strings.Contains(v, Mask) || strings.HasPrefix(low, "$") || strings.HasPrefix(low, "<") || strings.Contains(low, "${") || strings.Contains(low, "{{") {
		return false
	}
	return strings.Trim(low, "*x.-_#") != ""
}

// wordsRe is words joined by - _ or .: a name (dev-codemie-user,
// YOUR_API_TOKEN, my.service.token), not a random token.
var wordsRe = regexp.MustCompile(`^(?:[a-z]+|[A-Z][a-z]*|[A-Z]+)(?:[-_.](?:[a-z]+|[A-Z][a-z]*|[A-Z]+))*$`)

// words reports whether v is a name made of words rather than a token: a
// random token of 16 or more letters has mixed case inside a part, or a
// digit, all but always.
func words(v string) bool { return wordsRe.MatchString(v) }

func allDigits(s string) bool {
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return s != ""
}
