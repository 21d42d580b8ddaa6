package html

import (
	"bytes"
	"encoding/json"
	"fmt"
	"github.com/sesstool/sesstool/jsonx"
	"html"
	"math/rand/v2"
	"runtime"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/sesstool/sesstool/export/transcript"
	"github.com/sesstool/sesstool/session"
)

var texts = []string{
	"", "plain", `quote " backslash \ slash /`, "tab\tnew\nline\rcr", "\x00\x01\x1f\x7f",
	"<script>alert('x')</script> & \"more\"", "é ü 日本 🐈", "bad \xff utf8 \xe2\x82", "line\u2028sep\u2029para",
	"  lots   of\n\n white \t space  ", strings.Repeat("word ", 40), strings.Repeat("日本", 60) + " end",
	"\xff\xfe", "trailing space ",
}

// buf.text escapes exactly as html.EscapeString does; in json mode, as
// html.EscapeString then jsonx.AppendString do, as does every other write.
func TestText(t *testing.T) {
	for _, s := range texts {
		checkText(t, s)
	}
}

func FuzzText(f *testing.F) {
	for _, s := range texts {
		f.Add(s)
	}
	f.Fuzz(checkText)
}

func checkText(t *testing.T, s string) {
	var b buf
	b.WriteString("x")
	b.text(s)
	if got, want := b.String(), "x"+html.EscapeString(s); got != want {
		t.Errorf("text(%q) = %q, want %q", s, got, want)
	}
	// json mode: the same writes give the JSON string's text of what the
	// plain buf holds, each write ending at a character's end (the page's
	// writes do: what a session holds is valid UTF-8, and a string cut
	// short is one write with its "…")
	var plain, js buf
	js.json = true
	for _, w := range []*buf{&plain, &js} {
		w.WriteString(`<p class="a">` + s + "|")
		w.text(s + "|")
		w.Write([]byte(s + "\n"))
		w.WriteByte('"')
		w.WriteByte('\n')
		w.WriteRune('é')
		w.WriteRune(0x2028)
		w.text("<" + s + ">")
	}
	want := jsonx.AppendString(nil, plain.b)
	if got := `"` + js.String() + `"`; got != string(want) {
		t.Errorf("json mode with %q:\n got %q\nwant %q", s, got, want)
	}
}

// oneLine is the snippet rule it replaced, read lazily.
func TestOneLine(t *testing.T) {
	for _, s := range texts {
		checkOneLine(t, s)
	}
}

func FuzzOneLine(f *testing.F) {
	for _, s := range texts {
		f.Add(s)
	}
	f.Fuzz(checkOneLine)
}

func checkOneLine(t *testing.T, s string) {
	for _, max := range []int{1, 5, 90} {
		want := strings.Join(strings.Fields(s), " ")
		if r := []rune(want); len(r) > max {
			want = string(r[:max]) + "…"
		}
		// the old rule turned invalid UTF-8 into U+FFFD when it cut; the
		// page shows both the same (the payload's JSON replaces it too)
		if got := oneLine(s, max); string([]rune(got)) != string([]rune(want)) {
			t.Errorf("oneLine(%q, %d) = %q, want %q", s, max, got, want)
		}
	}
}

// appendNode appends n, with html as its HTML, as the worker does (with
// the HTML escaped as it is rendered).
func appendNode(dst []byte, n *node, html []byte) []byte {
	dst = appendNodeHead(dst, n)
	if len(html) > 0 {
		dst = append(dst, `,"h":`...)
		dst = jsonx.AppendString(dst, html)
	}
	return append(dst, '}', '\n')
}

func TestAppendNode(t *testing.T) {
	// an entry's JSON has no parent and no label: they close the data
	type entryJSON struct {
		ID      string `json:"id"`
		Visible bool   `json:"v,omitempty"`
		Role    string `json:"r"`
		Snippet string `json:"t"`
		HTML    string `json:"h,omitempty"`
	}
	nodes := []node{
		{ID: "a", Role: "user", Snippet: "hi"},
		{ID: "b\"<", Visible: true, Role: "assistant", Snippet: texts[5], HTML: "<p>x</p>\n\"q\""},
		{ID: "", Role: "", Snippet: "", HTML: ""},
	}
	for _, n := range nodes {
		got := appendNode(nil, &n, []byte(n.HTML))
		var enc bytes.Buffer
		e := json.NewEncoder(&enc)
		e.SetEscapeHTML(false) // as the payload always was
		if err := e.Encode(entryJSON{n.ID, n.Visible, n.Role, n.Snippet, n.HTML}); err != nil {
			t.Fatal(err)
		}
		want := bytes.TrimSpace(enc.Bytes())
		var a, b node
		if err := json.Unmarshal(got, &a); err != nil {
			t.Fatalf("%s: %v", got, err)
		}
		_ = json.Unmarshal(want, &b)
		if d := cmp.Diff(b, a); d != "" {
			t.Errorf("appendNode differs from encoding/json (-want +got):\n%s", d)
		}
		if !bytes.Equal(bytes.TrimSpace(got), want) {
			t.Errorf("appendNode = %s, encoding/json = %s", got, want)
		}
	}
}

func TestLang(t *testing.T) {
	for _, tc := range []struct{ in, name, file string }{
		{"go", "go", ""}, {"TypeScript", "typescript", ""}, {"c++", "c++", ""}, {"objective-c", "objective-c", ""},
		{"js {linenos=true}", "js", ""}, {`"><script>`, "", ""}, {strings.Repeat("a", 33), "", ""}, {"", "", ""},
	} {
		if got := langName(tc.in); got != tc.name {
			t.Errorf("langName(%q) = %q, want %q", tc.in, got, tc.name)
		}
	}
	for _, tc := range []struct{ file, want string }{
		{"src/main.go", "go"}, {"/a/b/App.TSX", "tsx"}, {`C:\proj\x.py`, "py"}, {"Makefile", "makefile"},
		{".gitignore", "gitignore"}, {"dir.d/README", "readme"}, {"a.tar.gz", "gz"}, {"x.<b>", ""},
	} {
		if got := langFor(tc.file); got != tc.want {
			t.Errorf("langFor(%q) = %q, want %q", tc.file, got, tc.want)
		}
	}
	var b buf
	codeBlock(&b, strings.Repeat("x", maxHighlight+1), "go")
	if strings.Contains(b.String(), "data-lang") {
		t.Error("a block over maxHighlight still has a language")
	}
}

// TestPayloadChunks renders a session of many chunks (and an empty one):
// the page's data must be one valid gzip stream (the test's decoder checks
// the CRC and size) holding every entry, in order, as rendered one at a time.
func TestPayloadChunks(t *testing.T) {
	for _, n := range []int{0, 1, chunkEntries, chunkEntries + 1, 7*chunkEntries + 5} {
		s := &session.Session{Meta: session.Meta{ID: "chunks"}}
		parent := ""
		for i := range n {
			id := fmt.Sprintf("e%05d", i)
			role := session.RoleUser
			if i%2 == 1 {
				role = session.RoleAssistant
			}
			text := fmt.Sprintf("message %d\n\n```go\nfunc f%d() {}\n```\n%s %s", i, i, strings.Repeat("filler ", i%50), texts[i%len(texts)])
			s.Entries = append(s.Entries, &session.Entry{Kind: session.KindMessage, Type: "message", ID: id, ParentID: parent,
				Message: &session.Message{Role: role, Content: []session.Block{{Type: session.BlockText, Text: text}}}})
			parent = id
		}
		tr, err := transcript.New(s, "")
		if err != nil {
			t.Fatal(err)
		}
		var page bytes.Buffer
		if err := Write(&page, tr); err != nil {
			t.Fatal(err)
		}
		leaf, nodes := decode(t, page.String())
		if len(nodes) != n {
			t.Fatalf("%d entries: %d nodes decoded", n, len(nodes))
		}
		if n > 0 && leaf != n-1 {
			t.Errorf("%d entries: leaf %d", n, leaf)
		}
		for i, e := range s.Entries {
			var h buf
			want := buildNode(tr, e, i, &h)
			// the page's JSON holds invalid UTF-8 as U+FFFD
			want.HTML, want.Snippet = string([]rune(h.String())), string([]rune(want.Snippet))
			want.Parent, want.Label = tr.Conv.Parent(i), tr.Labels[e.ID]
			if d := cmp.Diff(want, nodes[i]); d != "" {
				t.Fatalf("%d entries: node %d differs (-rendered alone +decoded):\n%s", n, i, d)
			}
		}
	}
}

var jsonTexts = []string{
	`{}`, `[]`, `{ }`, `[ ]`, `  {"a":1}  `, `{"a":[1,2,{"b":null}],"c":{}}`, `"str"`, ` 12 `, `true`,
	`{"s":"quote \" and \\ and , : { } [ ]","n":-1.5e10}`, "{\n\t\"x\" :\r [ ] , \"y\":[[]]}\n", `[{"a":{"b":{"c":[1]}}}]`,
	`{"é":"日本","e":"\u00e9"}`,
}

// indentJSON is json.Indent for valid JSON.
func TestIndentJSON(t *testing.T) {
	for _, s := range jsonTexts {
		checkIndent(t, s)
	}
	if got := prettyJSON([]byte(`{"a":`)); got != `{"a":` {
		t.Errorf("invalid JSON: %q, want it unchanged", got)
	}
}

func FuzzIndentJSON(f *testing.F) {
	for _, s := range jsonTexts {
		f.Add(s)
	}
	f.Fuzz(checkIndent)
}

func checkIndent(t *testing.T, s string) {
	if !json.Valid([]byte(s)) {
		return
	}
	var want bytes.Buffer
	if err := json.Indent(&want, []byte(s), "", "  "); err != nil {
		t.Fatalf("json.Indent(%q): %v", s, err)
	}
	if got := prettyJSON([]byte(s)); got != want.String() {
		t.Errorf("prettyJSON(%q) = %q, json.Indent gives %q", s, got, want.String())
	}
}

// TestSameBytesOnAnyCores renders a session of many chunks with 1, 2 and 5
// workers: chunk boundaries depend on entry counts only, so the page must
// be the same bytes.
func TestSameBytesOnAnyCores(t *testing.T) {
	s := &session.Session{Meta: session.Meta{ID: "cores"}}
	parent := ""
	for i := range 5*chunkEntries + 3 {
		id := fmt.Sprintf("e%05d", i)
		s.Entries = append(s.Entries, &session.Entry{Kind: session.KindMessage, Type: "message", ID: id, ParentID: parent,
			Message: &session.Message{Role: session.RoleUser, Content: []session.Block{{Type: session.BlockText, Text: strings.Repeat("text ", i)}}}})
		parent = id
	}
	tr, err := transcript.New(s, "")
	if err != nil {
		t.Fatal(err)
	}
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	var pages []string
	for _, n := range []int{1, 2, 5} {
		runtime.GOMAXPROCS(n)
		var b bytes.Buffer
		if err := Write(&b, tr); err != nil {
			t.Fatal(err)
		}
		pages = append(pages, b.String())
	}
	if pages[0] != pages[1] || pages[0] != pages[2] {
		t.Error("the page differs with the number of cores")
	}
}

// A panic while rendering on a worker comes back as Write's error: a
// goroutine's panic would otherwise end the process past main's guard.
func TestRenderPanicIsAnError(t *testing.T) {
	defer func(h func(*worker, job) *chunk) { renderHook = h }(renderHook)
	renderHook = func(*worker, job) *chunk { panic("boom") }
	s := &session.Session{Meta: session.Meta{ID: "p"}, Entries: []*session.Entry{{Kind: session.KindMessage, Type: "message", ID: "e1",
		Message: &session.Message{Role: session.RoleUser, Content: []session.Block{{Type: session.BlockText, Text: "hi"}}}}}}
	tr, err := transcript.New(s, "")
	if err != nil {
		t.Fatal(err)
	}
	err = Write(&bytes.Buffer{}, tr)
	if err == nil || !strings.Contains(err.Error(), "internal error: boom") {
		t.Fatalf("Write = %v, want the worker's panic as an error", err)
	}
}

// cssName without the regexp for ASCII names is what the regexp makes.
func TestCSSName(t *testing.T) {
	for _, s := range append(texts, "user", "toolResult", "bashExecution", "A-Z_09", "K", "İx", "Ωmega") {
		if got, want := cssName(s), cssRe.ReplaceAllString(strings.ToLower(s), "-"); got != want {
			t.Errorf("cssName(%q) = %q, want %q", s, got, want)
		}
	}
}

// plainText8 says of eight bytes what textPlain says of each.
func TestPlainText8(t *testing.T) {
	for c := range 256 {
		for pos := range 8 {
			b := []byte("abcdefgh")
			b[pos] = byte(c)
			if got, want := plainText8(load8(string(b), 0)), textPlain[c]; got != want {
				t.Fatalf("byte %#x at %d: plainText8 %v, textPlain %v", c, pos, got, want)
			}
		}
	}
	r := rand.New(rand.NewPCG(5, 6))
	for range 200_000 {
		var b [8]byte
		want := true
		for k := range b {
			b[k] = byte(r.IntN(256))
			if r.IntN(2) == 0 {
				b[k] = "a<>&'\"\\\x00\x1f\x7f\x80\xff z"[r.IntN(14)]
			}
			want = want && textPlain[b[k]]
		}
		if got := plainText8(load8(string(b[:]), 0)); got != want {
			t.Fatalf("%q: plainText8 %v, textPlain %v", b, got, want)
		}
	}
}
