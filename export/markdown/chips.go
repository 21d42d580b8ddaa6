package markdown

import (
	"bufio"
	"strings"

	"github.com/sesstool/sesstool/export/transcript"
)

// chipInline is the longest injected text written on its chip's line; a
// longer one, or one of several lines, is folded under its label.
const chipInline = 80

// userText writes a user message's text: what the user wrote as Markdown,
// each piece its agent injected (transcript.Segments) as a labelled chip,
// `system-reminder` and its text in a fold, so that it never reads as the
// prompt.
func userText(w *bufio.Writer, text string) {
	for _, g := range transcript.Segments(text) {
		switch {
		case g.Tag == "":
			if s := strings.TrimRight(g.Text, "\n"); strings.TrimSpace(s) != "" {
				w.WriteString(safeMarkdown(s) + "\n\n")
			}
		case len(g.Text) <= chipInline && !strings.Contains(g.Text, "\n"):
			w.WriteString("_injected_ " + codeSpan(g.Tag))
			if g.Text != "" {
				w.WriteString(" " + plain(g.Text))
			}
			w.WriteString("\n\n")
		default:
			details(w, "injected: "+g.Tag, fence(g.Text, ""))
		}
	}
}
