package html

import (
	"strings"

	"github.com/sesstool/sesstool/export/transcript"
)

// chipInline is the longest injected text shown on the chip itself; a
// longer one, or one of several lines, folds under its label.
const chipInline = 80

// userText renders a user message's text: what the user wrote as
// Markdown, each piece its agent injected (transcript.Segments) as a small
// chip labelled with its tag, folded when long, so that a reminder or an
// IDE's note never reads as the prompt.
func userText(b *buf, text string) {
	for _, g := range transcript.Segments(text) {
		if g.Tag == "" {
			b.WriteString(`<div class="md">`)
			markdownTo(b, g.Text)
			b.WriteString(`</div>`)
			continue
		}
		label := `<span class="chip-tag">` + esc(g.Tag) + `</span>`
		if len(g.Text) <= chipInline && !strings.Contains(g.Text, "\n") {
			b.WriteString(`<p class="chips"><span class="chip" title="added by the agent">` + label)
			if g.Text != "" {
				b.WriteString(` ` + esc(g.Text))
			}
			b.WriteString(`</span></p>`)
			continue
		}
		b.WriteString(`<details class="chip" title="added by the agent"><summary>` + label + `</summary><pre class="chip-text">` + esc(g.Text) + `</pre></details>`)
	}
}

// userSnippet is the tree's line for a user message's text: what the user
// wrote, else the tags of what was injected ("[task-notification]").
func userSnippet(s string) string {
	segs := transcript.Segments(s)
	if len(segs) == 1 && segs[0].Tag == "" {
		return s
	}
	var own, tags []string
	for _, g := range segs {
		if g.Tag == "" {
			own = append(own, g.Text)
		} else {
			tags = append(tags, "["+g.Tag+"]")
		}
	}
	if len(own) > 0 {
		return strings.Join(own, " ")
	}
	return strings.Join(tags, " ")
}
