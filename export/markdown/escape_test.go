package markdown

import (
	"encoding/json"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/sesstool/sesstool/session"
	"golang.org/x/sys/unix"
)

func TestSafeMarkdown(t *testing.T) {
	for _, tc := range []struct{ name, in, want string }{
		{"markdown kept", "**bold** _it_ `code` [web](https://x.org)\n\n- a\n- b", "**bold** _it_ `code` [web](https\\://x.org)\n\n- a\n- b"},
		{"tags as text", "a <b>x</b> <!-- c --> z", "a &lt;b>x&lt;/b> &lt;!-- c --> z"},
		{"entities as text", "&lt; &amp; &#60;", "&amp;lt; &amp;amp; &amp;#60;"},
		{"code span kept", "see `<b>&amp;` here", "see `<b>&amp;` here"},
		{"fenced code kept", "```html\n<script>x</script>\n```", "```html\n<script>x</script>\n```"},
		{"indented code kept", "text\n\n    <b>&amp;\n", "text\n\n    <b>&amp;\n"},
		{"escaped as entities", `\<b> \&amp; \![x](https://y)`, `&lt;b> &amp;amp; &#33;[x](https\://y)`},
		{"bare url", "see https://x.org and www.y.org", `see https\://x.org and www\.y.org`},
		{"code span across lines escaped", "`a\n<b>`", "`a\n&lt;b>`"},
		{"code span with a pipe escaped", "`<b>|x`", "`&lt;b>|x`"},
		{"image becomes link", "![a](https://t/p.png)", `&#33;[a](https\://t/p.png)`},
		{"javascript link", "[a](javascript:alert(1))", "[a](javascript%3Aalert(1))"},
		{"escaped colon", `[a]( JaVaScRiPt\:alert(1))`, "[a]( JaVaScRiPt%3Aalert(1))"},
		{"reference definition", "[a][r]\n\n[r]: data:text/html,x", "[a][r]\n\n[r]: data%3Atext/html,x"},
		{"reference definition in a list", "- [r]: javascript:x\n\n[a][r]", "- [r]: javascript%3Ax\n\n[a][r]"},
		{"html block then indented line", "<style>\n    <b>", "&lt;style>\n    &lt;b>"},
		{"mail kept", "[m](mailto:a@b.c)", "[m](mailto:a@b.c)"},
		{"atx h1 demoted", "# Top\n\ntext", "#### Top\n\ntext"},
		{"atx h3 demoted", "### Three ###", "###### Three ###"},
		{"h6 stays h6", "###### Six", "###### Six"},
		{"setext h1", "Big\ntitle\n===\n\nafter", "#### Big title\n\nafter"},
		{"setext h2 in quote", "> sub\n> ---\n", "> ##### sub\n"},
		{"heading keeps escaping", "# a <b> `c`", "#### a &lt;b> `c`"},
		{"open fence closed", "```\nx <y>", "```\nx <y>\n````\n"},
		{"open tilde fence closed", "~~~~\nx", "~~~~\nx\n~~~~~\n"},
		{"closed fence untouched", "```\nx\n```", "```\nx\n```"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := safeMarkdown(tc.in); got != tc.want {
				t.Errorf("safeMarkdown(%q)\n got %q\nwant %q", tc.in, got, tc.want)
			}
		})
	}
}

func TestPlain(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"/home/u/proj", "/home/u/proj"},
		{"claude-opus-4.5", "claude-opus-4.5"},
		{"a <b> & c", "a &lt;b\\> &amp; c"},
		{"*x* _y_ `z` [l](u) # ! | ~ \\", `\*x\* \_y\_ \` + "`" + `z\` + "`" + ` \[l\](u) \# \! \| \~ \\`},
		{"https://x.org www.y.org a@b.c", `https\://x.org www\.y.org a\@b.c`},
		{"two\n\nlines", "two lines"},
		{"msg_01 my_proj _x_ a_ _b", `msg_01 my_proj \_x\_ a\_ \_b`},
	} {
		if got := plain(tc.in); got != tc.want {
			t.Errorf("plain(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestCodeSpan(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"fixed", "`fixed`"},
		{"a`b", "`` a`b ``"},
		{"`x", "`` `x ``"},
		{"", ""},
	} {
		if got := codeSpan(tc.in); got != tc.want {
			t.Errorf("codeSpan(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestToolLabel(t *testing.T) {
	long := "echo 0123456789012345678901234567890123456789012345678901234567890123456789012345678901234567890"
	for _, tc := range []struct {
		name string
		args any
		want string
	}{
		{"bash", map[string]any{"command": "npm test", "timeout": 5}, "bash: npm test"},
		{"edit", map[string]any{"path": "src/x.go", "oldText": "a", "newText": "b"}, "edit: src/x.go"},
		{"Write", map[string]any{"file_path": "/a/b.txt", "content": "x"}, "Write: /a/b.txt"},
		{"grep", map[string]any{"path": "src", "pattern": "TODO"}, "grep: TODO"},
		{"webfetch", map[string]any{"url": "https://x.org"}, "webfetch: https://x.org"},
		{"bash", map[string]any{"command": "a\n  b"}, "bash: a b"},
		{"bash", map[string]any{"command": long}, "bash: " + long[:80] + "…"},
		{"mystery", map[string]any{"n": 1}, "mystery"},
		{"", nil, "tool"},
	} {
		args, _ := json.Marshal(tc.args)
		if got := toolLabel(session.Block{ToolName: tc.name, Arguments: args}); got != tc.want {
			t.Errorf("toolLabel(%s %s) = %q, want %q", tc.name, args, got, tc.want)
		}
	}
}

func TestParseTools(t *testing.T) {
	for in, want := range map[string]Tools{"": ToolsFull, "full": ToolsFull, "summary": ToolsSummary, "none": ToolsNone} {
		if got, err := ParseTools(in); got != want || err != nil {
			t.Errorf("ParseTools(%q) = %q, %v", in, got, err)
		}
	}
	if _, err := ParseTools("some"); err == nil {
		t.Error("ParseTools(some): no error")
	}
}

// TestSafeMarkdownLinear: hostile input of a megabyte is escaped in linear
// time (a long run of backslashes once made every byte look back over it).
// The bound is on this thread's CPU time, not the wall clock, so a loaded
// machine cannot fail it: linear is milliseconds, quadratic hours.
func TestSafeMarkdownLinear(t *testing.T) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	for name, s := range map[string]string{
		"backslashes": strings.Repeat(`\`, 1<<20) + "<b>",
		"brackets":    strings.Repeat("<", 1<<20),
		"links":       strings.Repeat("[a](javascript:x) ", 1<<15),
		"fences":      strings.Repeat("```\n", 1<<14),
	} {
		start := threadCPU(t)
		out := safeMarkdown(s)
		if d := threadCPU(t) - start; d > 5*time.Second {
			t.Errorf("%s: %v for %d bytes", name, d, len(s))
		}
		if strings.Contains(out, "<b>") && name != "fences" {
			t.Errorf("%s: a tag survived", name)
		}
	}
}

// threadCPU is the CPU time this OS thread has used.
func threadCPU(t *testing.T) time.Duration {
	var ru unix.Rusage
	if err := unix.Getrusage(unix.RUSAGE_THREAD, &ru); err != nil {
		t.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
