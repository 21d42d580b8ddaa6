package redact

import (
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The corpus is generated once, deterministically, and committed:
// go test ./export/redact -run TestGenerateCorpus -gen
var gen = flag.Bool("gen", false, "rewrite testdata/corpus from the generator")

// sample is one labelled piece of text: the secrets it holds (none for a
// look-alike), in the form a session holds them.
type sample struct {
	Form    string   `json:"form"`
	Text    string   `json:"text"`
	Secrets []string `json:"secrets,omitempty"`
}

const (
	alnum  = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
	upnum  = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"
	hexd   = "0123456789abcdef"
	b64    = alnum + "+/"
	url64  = alnum + "-_"
	digits = "0123456789"
	pwchar = alnum + "!#%^*()-_+=.,?~"
)

type g struct{ r *rand.Rand }

func (g g) s(alpha string, n int) string {
	b := make([]byte, n)
	for i := range b {
		b[i] = alpha[g.r.IntN(len(alpha))]
	}
	return string(b)
}
func (g g) pick(xs ...string) string { return xs[g.r.IntN(len(xs))] }
func (g g) n(lo, hi int) int         { return lo + g.r.IntN(hi-lo+1) }

// Secret values, in the shapes the services issue them.
func (g g) awsID() string     { return g.pick("AKIA", "ASIA") + g.s(upnum, 16) }
func (g g) awsSecret() string { return g.s(b64, 40) } // holds / and + often
func (g g) ghp() string       { return g.pick("ghp_", "gho_", "ghu_", "ghs_", "ghr_") + g.s(alnum, 36) }
func (g g) ghPAT() string     { return "github_pat_11" + g.s(upnum, 20) + "_" + g.s(alnum, 59) }
func (g g) slack() string {
	return g.pick("xoxb-", "xoxp-") + g.s(digits, 12) + "-" + g.s(digits, 12) + "-" + g.s(alnum, 24)
}
func (g g) slackHook() string {
	return "https://hooks.slack.com/services/T" + g.s(upnum, 8) + "/B" + g.s(upnum, 10) + "/" + g.s(alnum, 24)
}
func (g g) stripe() string {
	return g.pick("sk_live_", "rk_live_", "sk_test_") + g.s(alnum, []int{24, 99}[g.r.IntN(2)])
}
func (g g) openai() string {
	if g.r.IntN(3) == 0 {
		return "sk-" + g.s(alnum, 20) + "T3BlbkFJ" + g.s(alnum, 20)
	}
	return "sk-proj-" + g.s(url64, 74) + "T3BlbkFJ" + g.s(url64, 74)
}
func (g g) anthropic() string { return "sk-ant-api03-" + g.s(url64, 93) + "AA" }
func (g g) google() string    { return "AIza" + g.s(url64, 35) }
func (g g) npm() string       { return "npm_" + g.s(alnum, 36) }
func (g g) hf() string {
	return "hf_" + g.s("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz", 34)
}
func (g g) gitlab() string { return "glpat-" + g.s(url64, 20) }
func (g g) jwt() string {
	head := base64.RawURLEncoding.EncodeToString([]byte(`{"alg":"HS256","typ":"JWT"}`))
	body := base64.RawURLEncoding.EncodeToString([]byte(fmt.Sprintf(`{"sub":"%s","iat":%d,"exp":%d,"role":"%s"}`, g.s(digits, 10), 1700000000+g.n(0, 9e7), 1800000000+g.n(0, 9e7), g.pick("admin", "user", "service"))))
	return head + "." + body + "." + g.s(url64, 43)
}
func (g g) password() string { return g.s(pwchar, g.n(12, 24)) }
func (g g) hexKey(n int) string {
	return g.s(hexd, n)
}
func (g g) privateKey() string {
	kind := g.pick("RSA ", "OPENSSH ", "EC ", "")
	var b strings.Builder
	b.WriteString("-----BEGIN " + kind + "PRIVATE KEY-----\n")
	for range g.n(6, 25) {
		b.WriteString(g.s(b64, 64) + "\n")
	}
	b.WriteString(g.s(b64, 20) + "==\n-----END " + kind + "PRIVATE KEY-----")
	return b.String()
}

// secretSamples are secrets in the forms transcripts hold them.
func secretSamples(g g) []sample {
	var out []sample
	add := func(form, text string, secrets ...string) {
		out = append(out, sample{Form: form, Text: text, Secrets: secrets})
	}
	for range 12 {
		// .env files, as cat .env or a read tool shows them
		id, sec, db, oa, an, st := g.awsID(), g.awsSecret(), g.password(), g.openai(), g.anthropic(), g.stripe()
		add("env-file", fmt.Sprintf("NODE_ENV=production\nPORT=3000\nAWS_ACCESS_KEY_ID=%s\nAWS_SECRET_ACCESS_KEY=%s\nDATABASE_PASSWORD=%s\nOPENAI_API_KEY=%s\nANTHROPIC_API_KEY=%s\nSTRIPE_SECRET_KEY=%s\n", id, sec, db, oa, an, st), id, sec, db, oa, an, st)
		hk, sl, jw := g.slackHook(), g.slack(), g.hexKey(64)
		add("env-file", fmt.Sprintf("# Slack\nSLACK_WEBHOOK_URL=%s\nSLACK_BOT_TOKEN=%s\nJWT_SECRET=%s\nLOG_LEVEL=debug\n", hk, sl, jw), hk, sl, jw)
		skb, gh := g.hexKey(128), g.ghp()
		add("env-file", fmt.Sprintf("SECRET_KEY_BASE=%s\nGITHUB_TOKEN=%s\n", skb, gh), skb, gh)
	}
	for range 12 {
		// a .env file inside a tool call's JSON arguments, as raw JSON text
		pw, tok := g.password(), g.ghp()
		env, _ := json.Marshal(map[string]string{"path": ".env", "content": fmt.Sprintf("SMTP_HOST=smtp.example.com\nSMTP_PASSWORD=%s\nGITHUB_TOKEN=%s\nDEBUG=1\n", pw, tok)})
		add("json-escaped-env", string(env), pw, tok)
	}
	for range 12 {
		// shell exports, as typed in a command or printed by env
		sec, gh, oa, pw := g.awsSecret(), g.ghPAT(), g.openai(), g.password()
		add("shell-export", fmt.Sprintf("export AWS_SECRET_ACCESS_KEY=\"%s\"\nexport GH_TOKEN=%s\nexport OPENAI_API_KEY='%s'\nexport PGPASSWORD=%s && psql -h db -U app", sec, gh, oa, pw), sec, gh, oa, pw)
		an, hf := g.anthropic(), g.hf()
		add("shell-export", fmt.Sprintf("ANTHROPIC_API_KEY=%s HF_TOKEN=%s python train.py --epochs 3", an, hf), an, hf)
		sec2 := g.awsSecret()
		add("shell-export", fmt.Sprintf("$ aws configure set aws_secret_access_key %s", sec2), sec2)
	}
	for range 12 {
		// JSON configs
		pw, key, tok, cs := g.password(), g.hexKey(32), g.npm(), g.password()
		add("json-config", fmt.Sprintf("{\n  \"database\": {\n    \"host\": \"db.internal\",\n    \"user\": \"app\",\n    \"password\": \"%s\"\n  },\n  \"apiKey\": \"%s\",\n  \"npmToken\": \"%s\",\n  \"client_secret\": \"%s\"\n}", pw, key, tok, cs), pw, key, tok, cs)
		pw2, goo := g.password(), g.google()
		add("json-config", fmt.Sprintf(`{"mcpServers":{"db":{"env":{"DB_PASSWORD":"%s","GOOGLE_API_KEY":"%s"}}}}`, pw2, goo), pw2, goo)
		pw3, sec3 := g.password(), g.hexKey(40)
		add("yaml-config", fmt.Sprintf("database:\n  username: app\n  password: %s\nauth:\n  client_secret: %s\n", pw3, sec3), pw3, sec3)
	}
	for range 12 {
		// connection strings with passwords
		for _, scheme := range []string{"postgres", "postgresql", "mysql", "mongodb+srv", "redis", "amqp"} {
			pw := g.password()
			pw = strings.NewReplacer("#", "", "?", "", "%", "").Replace(pw) // URL-safe as written in a DSN
			user := g.pick("app", "admin", "postgres", "svc_api", "root")
			add("connection-string", fmt.Sprintf("DATABASE_URL=%s://%s:%s@%s.example.com:5432/prod", scheme, user, pw, g.pick("db", "cluster0.ab1cd", "cache")), pw)
			pw2 := strings.NewReplacer("#", "", "?", "", "%", "").Replace(g.password())
			add("connection-string", fmt.Sprintf("conn = psycopg2.connect(\"%s://%s:%s@localhost/app\")", scheme, user, pw2), pw2)
		}
	}
	for range 15 {
		// AWS: key ids and secret keys (with / and +), credentials files
		id, sec := g.awsID(), g.awsSecret()
		add("aws-credentials", fmt.Sprintf("[default]\naws_access_key_id = %s\naws_secret_access_key = %s\nregion = us-east-1", id, sec), id, sec)
		id2, sec2 := g.awsID(), g.awsSecret()
		add("aws-json", fmt.Sprintf(`{"AccessKeyId": "%s", "SecretAccessKey": "%s", "Expiration": "2026-01-02T03:04:05Z"}`, id2, sec2), id2, sec2)
	}
	for range 15 {
		// tokens in commands and prose
		gh, sl, st, oa, an, jw, gl := g.ghp(), g.slack(), g.stripe(), g.openai(), g.anthropic(), g.jwt(), g.gitlab()
		add("token-command", fmt.Sprintf("git clone https://x-access-token:%s@github.com/acme/app.git", gh), gh)
		add("token-command", fmt.Sprintf("curl -H 'Authorization: Bearer %s' https://slack.com/api/chat.postMessage", sl), sl)
		add("token-command", fmt.Sprintf("curl https://api.stripe.com/v1/charges -u %s:", st), st)
		add("token-prose", fmt.Sprintf("Use this key: %s and tell me if it works.", oa), oa)
		add("token-prose", fmt.Sprintf("my anthropic key is %s", an), an)
		add("jwt", fmt.Sprintf("curl -H \"Authorization: Bearer %s\" http://localhost:8080/api/me", jw), jw)
		jw2 := g.jwt()
		add("jwt", fmt.Sprintf("The token in localStorage is %s — decode it?", jw2), jw2)
		add("token-prose", fmt.Sprintf("GitLab token %s expires tomorrow", gl), gl)
		or, ds := "sk-or-v1-"+g.hexKey(64), "sk-"+g.hexKey(32)
		add("token-prose", fmt.Sprintf("OPENROUTER_API_KEY=%s\nDEEPSEEK_API_KEY=%s", or, ds), or, ds)
	}
	lower := "abcdefghijklmnopqrstuvwxyz"
	for range 15 {
		// app passwords: letters only, as Gmail issues them
		ap := g.s(lower, 16)
		add("app-password", fmt.Sprintf("SMTP_HOST=smtp.gmail.com\nSMTP_PORT=587\nSMTP_PASSWORD=%s\nEMAIL_FROM=me@example.com", ap), ap)
		sp := g.s(lower, 4) + " " + g.s(lower, 4) + " " + g.s(lower, 4) + " " + g.s(lower, 4)
		add("app-password", fmt.Sprintf("smtp:\n  password: \"%s\"", sp), sp)
	}
	for range 15 {
		pk := g.privateKey()
		add("private-key", "$ cat ~/.ssh/id_rsa\n"+pk+"\n", pk)
	}
	for range 12 {
		// forms gitleaks' default set does not find
		gs := "GOCSPX-" + g.s(url64, 28)
		add("google-oauth", fmt.Sprintf(`{"web":{"client_id":"%s.apps.googleusercontent.com","client_secret":"%s","redirect_uris":["http://localhost:8080/cb"]}}`, g.s(digits, 12)+"-"+g.s("abcdefghijklmnopqrstuvwxyz0123456789", 32), gs), gs)
		gs2 := "GOCSPX-" + g.s(url64, 28)
		add("google-oauth", "GOOGLE_CLIENT_SECRET="+gs2, gs2)
		mp := strings.NewReplacer("(", "", ")", "", "!", "", "#", "").Replace(g.password())
		add("mysql-p", fmt.Sprintf("mysql -u %s -p%s -h db.internal %s < dump.sql", g.pick("root", "app", "admin"), mp, g.pick("app", "prod")), mp)
		mp2 := strings.NewReplacer("(", "", ")", "", "!", "", "#", "").Replace(g.password())
		add("mysql-p", fmt.Sprintf("docker exec -i db mysqldump -uroot -p%s --all-databases > all.sql", mp2), mp2)
		da := base64.StdEncoding.EncodeToString([]byte(g.pick("deploy", "ci-bot", "me") + ":" + g.password()))
		add("docker-auths", fmt.Sprintf("{\n\t\"auths\": {\n\t\t\"ghcr.io\": {\n\t\t\t\"auth\": \"%s\"\n\t\t}\n\t}\n}", da), da)
		rp := strings.NewReplacer("#", "", "?", "", "%", "").Replace(g.password())
		add("redis-url", fmt.Sprintf("REDIS_URL=redis://:%s@cache.internal:6379/0", rp), rp)
		ak := g.s(alnum, 32)
		add("json-api-key", fmt.Sprintf(`{"model": "gpt-4o", "api_key": "%s", "timeout": 30}`, ak), ak)
		ba := base64.StdEncoding.EncodeToString([]byte("admin:" + g.password()))
		add("basic-auth", fmt.Sprintf("GET /api/v1/users HTTP/1.1\nHost: internal.example.com\nAuthorization: Basic %s\nAccept: */*", ba), ba)
		az := base64.StdEncoding.EncodeToString([]byte(g.s(alnum, 64)))
		add("azure-storage", fmt.Sprintf("AZURE_STORAGE_CONNECTION_STRING=\"DefaultEndpointsProtocol=https;AccountName=%s;AccountKey=%s;EndpointSuffix=core.windows.net\"", g.s("abcdefghijklmnopqrstuvwxyz", 10), az), az)
		np := g.password()
		add("netrc", fmt.Sprintf("machine api.%s.com\n  login %s\n  password %s\n", g.pick("heroku", "github", "example"), g.pick("me@example.com", "deploy"), np), np)
		np2 := g.password()
		add("netrc", fmt.Sprintf("machine registry.example.com login ci password %s", np2), np2)
	}
	return out
}

// lookalikeSamples are ordinary text of sessions that looks random.
func lookalikeSamples(g g) []sample {
	var out []sample
	add := func(form, text string) { out = append(out, sample{Form: form, Text: text}) }
	sha := func() string { return g.hexKey(40) }
	for range 80 {
		add("git-sha", fmt.Sprintf("commit %s\nAuthor: Dev <dev@example.com>\n\n    fix parser", sha()))
		add("git-sha", fmt.Sprintf("%s %s refactor the %s", sha()[:7], sha()[:7], g.pick("lexer", "parser", "tests")))
		add("git-sha", fmt.Sprintf("https://github.com/acme/app/blob/%s/src/main.go#L%d", sha(), g.n(1, 900)))
		add("git-sha", fmt.Sprintf("index %s..%s 100644", sha()[:12], sha()[:12]))
		add("git-sha", fmt.Sprintf("\"commit\": \"%s\", \"parent\": \"%s\"", sha(), sha()))
	}
	for range 80 {
		d := g.hexKey(64)
		add("sha256", fmt.Sprintf("%s  dist/app-linux-amd64.tar.gz", d))
		add("sha256", fmt.Sprintf("image: ghcr.io/acme/app@sha256:%s", g.hexKey(64)))
		add("sha256", fmt.Sprintf("\"integrity\": \"sha512-%s\"", base64.StdEncoding.EncodeToString([]byte(g.s(alnum, 64)))))
		add("sha256", fmt.Sprintf("github.com/acme/lib v1.%d.0 h1:%s=", g.n(0, 30), g.s(b64, 43)))
		add("sha256", fmt.Sprintf("checksum: %s\nsize: %d", g.hexKey(64), g.n(1000, 9e6)))
	}
	uuid := func() string {
		b := make([]byte, 16)
		for i := range b {
			b[i] = byte(g.r.IntN(256))
		}
		h := hex.EncodeToString(b)
		return h[:8] + "-" + h[8:12] + "-4" + h[13:16] + "-a" + h[17:20] + "-" + h[20:]
	}
	for range 80 {
		add("uuid", fmt.Sprintf(`{"type":"message","id":"%s","parentId":"%s"}`, uuid(), uuid()))
		add("uuid", fmt.Sprintf("session_id=%s trace_id=%s", uuid(), uuid()))
		add("uuid", fmt.Sprintf("request-id: %s", uuid()))
		add("uuid", fmt.Sprintf("\"toolCallId\": \"toolu_%s\"", g.s(alnum, 24)))
	}
	css := []string{
		"transform: translate(-50%%, -50%%) rotate(%ddeg) scale(1.%d);",
		"--text: #%s;\n  --text-muted: #%s;",
		"box-shadow: 0 %dpx 3px rgba(0,0,0,.12), 0 1px 2px rgba(0,0,0,.24);",
		"font-family: -apple-system, BlinkMacSystemFont, \"Segoe UI\", Roboto, sans-serif; font-size: %dpx;",
		"grid-template-columns: repeat(auto-fill, minmax(%dpx, 1fr));",
		"transition: transform 0.%ds cubic-bezier(0.4, 0, 0.2, 1), opacity 150ms;",
		"background: linear-gradient(135deg, #%s 0%%, #%s 100%%);",
		"--key-color: #%s; --token-bg: #%s;",
		"mask-image: url(\"data:image/svg+xml;base64,%s\");",
		"animation: spin-%s %ds linear infinite;",
	}
	for range 25 {
		for _, c := range css {
			var args []any
			for range strings.Count(c, "%") - 2*strings.Count(c, "%%") {
				if strings.Contains(c, "base64") {
					args = append(args, base64.StdEncoding.EncodeToString([]byte("<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 24 24'><path d='M"+g.s(digits, 30)+"'/></svg>")))
				} else if strings.Contains(c, "#%s") {
					args = append(args, g.hexKey(6))
				} else if strings.Contains(c, "%s") && len(args) == 0 {
					args = append(args, g.s(alnum, 6))
				} else {
					args = append(args, g.n(1, 99))
				}
			}
			add("css", fmt.Sprintf(".c-%s {\n  %s\n}", g.s("abcdefghij", 5), fmt.Sprintf(c, args...)))
		}
	}
	for range 60 {
		png := base64.StdEncoding.EncodeToString([]byte("\x89PNG\r\n\x1a\n" + g.s(alnum+"\x00\x01\xff", 300)))
		add("base64-image", fmt.Sprintf("<img src=\"data:image/png;base64,%s\" alt=\"logo\">", png))
		add("base64-image", fmt.Sprintf("{\"type\":\"image\",\"mimeType\":\"image/png\",\"data\":\"%s\"}", png))
	}
	js := []string{
		`!function(e,t){"object"==typeof exports?module.exports=t():e.%s=t()}(this,function(){var e={key:"%s",token:t.token||null};return e})`,
		`const{authToken:a,apiKey:b}=n.%s;if(!a)throw new Error("missing auth token for %s")`,
		`function %s(t){return t.key===e.key&&t.secret===e.secret?t.access:null}var r="%s";`,
		`__webpack_require__.p+"static/js/"+({}[e]||e)+"."+{0:"%s",1:"%s"}[e]+".chunk.js"`,
		`e.exports={accessKeyId:process.env.AWS_ACCESS_KEY_ID,secretAccessKey:process.env.AWS_SECRET_ACCESS_KEY,region:"%s",bucket:"%s"}`,
		`<Item key={item.%s} token={tokens[%s]} />`,
		`localStorage.setItem("auth_token_%s",JSON.stringify({exp:Date.now()+%s}))`,
		`password:{type:String,required:!0,minlength:8,select:!1},salt:"%s",hashFn:"%s"`,
	}
	for range 30 {
		for _, j := range js {
			var args []any
			for range strings.Count(j, "%s") {
				args = append(args, g.pick(g.s("abcdefghijklmnopqrstuvwxyz", 6), g.hexKey(8), fmt.Sprint(g.n(1, 99999)), "data", "id", "uuid"))
			}
			add("minified-js", fmt.Sprintf(j, args...))
		}
	}
	other := []func() string{
		func() string { return fmt.Sprintf("max_tokens: %d\ntemperature: 0.%d", g.n(256, 64000), g.n(0, 9)) },
		func() string {
			return fmt.Sprintf(`"usage":{"input":%d,"output":%d,"cacheRead":%d,"totalTokens":%d}`, g.n(1, 9e5), g.n(1, 9e4), g.n(1, 9e5), g.n(1, 9e6))
		},
		func() string { return "password: ${DB_PASSWORD}\napi_key: ${{ secrets.API_KEY }}" },
		func() string {
			return fmt.Sprintf("key: ${{ runner.os }}-node-${{ hashFiles('**/package-lock.json') }}-%s", g.hexKey(8))
		},
		func() string {
			return fmt.Sprintf("/nix/store/%s-go-1.%d.%d", g.s("0123456789abcdfghijklmnpqrsvwxyz", 32), g.n(18, 26), g.n(0, 9))
		},
		func() string {
			return fmt.Sprintf("\"auth.login.%s\": \"Sign in to your account\"", g.pick("title", "button", "error"))
		},
		func() string {
			return fmt.Sprintf("PATH=/usr/local/bin:/usr/bin:/bin\nHOME=/home/%s\nSHELL=/bin/bash", g.pick("dev", "ubuntu", "runner"))
		},
		func() string {
			return fmt.Sprintf("apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: api-%s", g.s("abcdefghij", 5))
		},
		func() string {
			return fmt.Sprintf("tokenizer = AutoTokenizer.from_pretrained(\"%s/%s-7b\")", g.pick("meta-llama", "mistralai"), g.pick("Llama-2", "Mistral"))
		},
		func() string {
			return fmt.Sprintf("%s.%s.chunk.js  %d KiB", g.pick("main", "vendor", "runtime"), g.hexKey(8), g.n(1, 900))
		},
		func() string {
			return fmt.Sprintf("SECRET_KEY_LENGTH=64\nTOKEN_TTL=%d\nAUTH_PROVIDER=github", g.n(60, 86400))
		},
		func() string {
			return fmt.Sprintf("ok  \tgithub.com/acme/app/%s\t0.%03ds", g.pick("auth", "token", "keys"), g.n(1, 999))
		},
	}
	for range 25 {
		for _, f := range other {
			add("config-prose", f())
		}
	}
	return out
}

func TestGenerateCorpus(t *testing.T) {
	if !*gen {
		t.Skip("run with -gen to rewrite testdata/corpus")
	}
	g := g{rand.New(rand.NewPCG(17, 2026))}
	write := func(name string, ss []sample) {
		var b strings.Builder
		for _, s := range ss {
			line, err := json.Marshal(s)
			if err != nil {
				t.Fatal(err)
			}
			b.Write(line)
			b.WriteByte('\n')
		}
		if err := os.MkdirAll(filepath.Join("testdata", "corpus"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join("testdata", "corpus", name), []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("secrets.jsonl", secretSamples(g))
	write("lookalikes.jsonl", lookalikeSamples(g))
}
