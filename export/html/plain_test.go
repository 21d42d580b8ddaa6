package html

import (
	"regexp"
	"strings"
	"testing"

	"github.com/sesstool/sesstool/export/transcript"
	fixture "github.com/sesstool/sesstool/internal/testkit/exportfixture"
	"github.com/sesstool/sesstool/session"
)

// TestHeadingLevels: a prompt is an h2, a reply an h3, other cards have
// no heading, and a message's own Markdown headings are three levels
// below (never above an h4).
func TestHeadingLevels(t *testing.T) {
	for _, tc := range []struct {
		name string
		m    *session.Message
		want []string
	}{
		{"prompt", &session.Message{Role: session.RoleUser, Content: []session.Block{{Type: session.BlockText, Text: "# Plan\n\n## Step\n\nText"}}},
			[]string{`<h2 class="who">user</h2>`, "<h4>Plan</h4>", "<h5>Step</h5>"}},
		{"reply", &session.Message{Role: session.RoleAssistant, Model: "m", Content: []session.Block{{Type: session.BlockText, Text: "### Three\n\n###### Six\n\nSetext\n======"}}},
			[]string{`<h3 class="who">assistant · m</h3>`, "<h6>Three</h6>", "<h6>Six</h6>", "<h4>Setext</h4>"}},
		{"tool result", &session.Message{Role: session.RoleTool, ToolName: "bash", Content: []session.Block{{Type: session.BlockText, Text: "ok"}}},
			[]string{`<span class="who">tool result: bash</span>`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := &session.Entry{Kind: session.KindMessage, Type: "message", ID: "x", Message: tc.m}
			tr := &transcript.Transcript{Results: map[string]*session.Entry{}, Paired: map[*session.Entry]bool{}}
			b := buf{args: &argMemo{}}
			entryHTML(&b, tr, e, 0)
			got := b.String()
			for _, w := range tc.want {
				if !strings.Contains(got, w) {
					t.Errorf("no %s in\n%s", w, got)
				}
			}
			if h := regexp.MustCompile(`<h[1-3]>`).FindString(got); h != "" {
				t.Errorf("a heading of the message's own text at %s outranks the messages'", h)
			}
		})
	}
}

// TestPlainHTML: outside the page's data, as HTML a browser shows without
// a script, are the list of every prompt of the shown branch (and of no
// other), each a link target, and the first cards of the branch.
func TestPlainHTML(t *testing.T) {
	for _, leaf := range []string{"", "b2"} {
		tr, err := transcript.New(fixture.Session(), leaf)
		if err != nil {
			t.Fatal(err)
		}
		var b strings.Builder
		if err := Write(&b, tr); err != nil {
			t.Fatal(err)
		}
		page := regexp.MustCompile(`(?s)<script.*?</script>`).ReplaceAllString(b.String(), "")
		list := regexp.MustCompile(`(?s)<details id="outline" open>.*?</details>`).FindString(page)
		var want []string
		onPath := map[string]bool{}
		for _, e := range tr.Path {
			onPath[e.ID] = true
			if e.Message != nil && e.Message.Role == session.RoleUser {
				want = append(want, e.ID)
			}
		}
		items := regexp.MustCompile(`<li (?:id="([^"]*)" )?data-i="\d+"><a href="#([^"]*)">`).FindAllStringSubmatch(list, -1)
		if len(items) != len(want) {
			t.Fatalf("leaf %q: %d prompts listed, want %d: %s", leaf, len(items), len(want), list)
		}
		for k, it := range items {
			if it[2] != want[k] {
				t.Errorf("leaf %q: prompt %d links to %s, want %s", leaf, k, it[2], want[k])
			}
			// the target is the item itself, or the card among the first ones
			if it[1] == "" && !strings.Contains(page, `<article class="msg role-user" id="`+it[2]+`"`) {
				t.Errorf("leaf %q: prompt %s is not a link target", leaf, it[2])
			}
		}
		cards := regexp.MustCompile(`<article class="[^"]*" id="([^"]*)"`).FindAllStringSubmatch(page, -1)
		if len(cards) == 0 || len(cards) > firstCards {
			t.Errorf("leaf %q: %d cards in the HTML, want 1 to %d", leaf, len(cards), firstCards)
		}
		for _, c := range cards {
			if !onPath[c[1]] {
				t.Errorf("leaf %q: card %s is not on the shown branch", leaf, c[1])
			}
		}
	}
}

// TestPromptCut: a prompt is listed up to promptMax characters; its card
// holds the whole.
func TestPromptCut(t *testing.T) {
	p := newPlain()
	long := strings.Repeat("é", promptMax+10)
	p.add(3, &session.Entry{Message: &session.Message{Role: session.RoleUser, Content: []session.Block{{Type: session.BlockText, Text: long}}}})
	p.add(4, &session.Entry{Message: &session.Message{Role: session.RoleUser, Content: []session.Block{{Type: session.BlockText, Text: "<system-reminder>x</system-reminder>"}}}})
	if got := p.prompts[3]; got != strings.Repeat("é", promptMax)+"…" {
		t.Errorf("long prompt kept as %d runes", len([]rune(got)))
	}
	if _, ok := p.prompts[4]; ok {
		t.Error("text an agent put in a user message is listed as a prompt")
	}
}
