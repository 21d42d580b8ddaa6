package html

import (
	"bytes"
	"compress/gzip"
	"encoding/base64"
	"encoding/json"
	"io"
	"regexp"
	"strings"
	"testing"

	"github.com/sesstool/sesstool/export/transcript"
	fixture "github.com/sesstool/sesstool/internal/testkit/exportfixture"
	"github.com/sesstool/sesstool/internal/testkit/golden"
)

func render(t *testing.T, leaf string) string {
	t.Helper()
	tr, err := transcript.New(fixture.Session(), leaf)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := Write(&b, tr); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// decode returns the page's embedded data.
func decode(t *testing.T, page string) (leaf int, nodes []node) {
	t.Helper()
	m := regexp.MustCompile(`(?s)<script type="application/octet-stream" id="data">(.*?)</script>`).FindStringSubmatch(page)
	if m == nil {
		t.Fatal("no data block")
	}
	raw, err := base64.StdEncoding.DecodeString(m[1])
	if err != nil {
		t.Fatal(err)
	}
	zr, err := gzip.NewReader(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	js, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	var d struct {
		Leaf    int                 `json:"leaf"`
		Nodes   []node              `json:"nodes"`
		Parents []int               `json:"parents"`
		Labels  [][]json.RawMessage `json:"labels"`
	}
	if err := json.Unmarshal(js, &d); err != nil {
		t.Fatal(err)
	}
	if len(d.Parents) != len(d.Nodes) {
		t.Fatalf("%d parents for %d nodes", len(d.Parents), len(d.Nodes))
	}
	for i, p := range d.Parents {
		d.Nodes[i].Parent = p
	}
	for _, l := range d.Labels {
		var i int
		var s string
		if len(l) != 2 || json.Unmarshal(l[0], &i) != nil || json.Unmarshal(l[1], &s) != nil || i < 0 || i >= len(d.Nodes) {
			t.Fatalf("bad label %s", l)
		}
		d.Nodes[i].Label = s
	}
	return d.Leaf, d.Nodes
}

// TestStructure pins the page skeleton and every entry's pre-rendered HTML:
// the golden file is the decoded data, one entry per block, so a change in
// rendering shows as a readable diff.
func TestStructure(t *testing.T) {
	page := render(t, "")
	leaf, nodes := decode(t, page)
	var g strings.Builder
	skeleton := regexp.MustCompile(`(?s)<script type="application/octet-stream" id="data">.*?</script>`).ReplaceAllString(page, `<script type="application/octet-stream" id="data">…</script>`)
	skeleton = regexp.MustCompile(`(?s)<style>.*?</style>`).ReplaceAllString(skeleton, "<style>…</style>")
	skeleton = regexp.MustCompile(`(?s)<script>.*?</script>`).ReplaceAllString(skeleton, "<script>…</script>")
	skeleton = regexp.MustCompile(`'sha256-[^']*'`).ReplaceAllString(skeleton, "'sha256-…'")
	g.WriteString(skeleton)
	g.WriteString("\n==== data: leaf " + nodes[leaf].ID + "\n")
	for _, n := range nodes {
		h := n.HTML
		n.HTML = ""
		head, _ := json.Marshal(n)
		g.WriteString("\n---- " + string(head) + "\n" + h + "\n")
	}
	golden.Assert(t, "fixture.html.txt", []byte(g.String()))
}

func TestEscaping(t *testing.T) {
	page := render(t, "")
	_, nodes := decode(t, page)
	all := page
	for _, n := range nodes {
		all += n.HTML
	}
	for _, bad := range []string{fixture.Script, "<img src=x", "onerror=\"", " style=\"", "<script>window"} {
		if strings.Contains(all, bad) {
			t.Errorf("page contains %q unescaped", bad)
		}
	}
	for _, want := range []string{"&lt;script&gt;window.__pwned = 1&lt;/script&gt;", "&lt;img src=x onerror=&#34;window.__pwned2 = 1&#34;&gt;"} {
		if !strings.Contains(all, want) {
			t.Errorf("page lacks the escaped text %q", want)
		}
	}
	if !strings.Contains(page, `http-equiv="Content-Security-Policy" content="default-src &#39;none&#39;; img-src data:;`) {
		t.Error("CSP meta tag missing or allows more than data: images")
	}
	if strings.Contains(CSP, "unsafe-inline") || strings.Contains(CSP, "http") {
		t.Errorf("CSP too loose: %s", CSP)
	}
}

func TestLeafChoosesBranch(t *testing.T) {
	leaf, nodes := decode(t, render(t, "b2"))
	if nodes[leaf].ID != "b2" {
		t.Errorf("leaf = %s, want b2", nodes[leaf].ID)
	}
	if _, err := transcript.New(fixture.Session(), "nope"); err == nil {
		t.Error("unknown --leaf accepted")
	}
}

func TestDeterministic(t *testing.T) {
	if render(t, "") != render(t, "") {
		t.Error("two renders differ")
	}
}

func TestMarkdownSafety(t *testing.T) {
	tests := []struct{ in, want, bad string }{
		{"[x](javascript:alert(1))", `<p>x</p>`, "href"},
		{"![cat](https://evil.example/cat.png)", `[image: cat]`, "<img"},
		{"<div onclick=x>hi</div>", "&lt;div onclick=x&gt;", "<div onclick"},
		// code is escaped text tagged with its language; the browser colours it
		{"```go\nfunc main() {}\n```", `<pre class="code" data-lang="go"><code>func main() {}`, " style="},
		{"```html\n<img src=x onerror=alert(1)>\n```", `<code>&lt;img src=x onerror=alert(1)&gt;`, "<img"},
		{"```\"><script>x\n1\n```", `<pre class="code"><code>1`, "<script"},
	}
	for _, tc := range tests {
		got := markdown(tc.in)
		if !strings.Contains(got, tc.want) || strings.Contains(got, tc.bad) {
			t.Errorf("markdown(%q) = %q; want it to contain %q and not %q", tc.in, got, tc.want, tc.bad)
		}
	}
}
