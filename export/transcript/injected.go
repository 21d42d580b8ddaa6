package transcript

import (
	"regexp"
	"strings"

	"github.com/sesstool/sesstool/session"
)

// Agents put text of their own into user messages: Claude Code's
// <system-reminder>, the IDE's <ide_opened_file>, a slash command's
// <command-name>, its output's <local-command-stdout>, a background task's
// <task-notification> and the "Caveat: …" before local commands; Codex's
// <environment_context>, <user_instructions> and the AGENTS.md it reads.
// None of it is what the user asked: none of it titles a session, starts a
// prompt or counts as one, and the exporters show each piece as a small
// labelled chip inside the message (Segments), not as prose.

const injectedTags = `system-reminder|ide_opened_file|ide_selection|ide_diagnostics|command-name|command-message|command-args|` +
	`local-command-stdout|local-command-stderr|local-command-caveat|task-notification|environment_context|user_instructions|user-prompt-submit-hook`

var (
	injectedBlock = regexp.MustCompile(`(?s)<(` + injectedTags + `)>(.*?)</(?:` + injectedTags + `)>`)
	caveat        = regexp.MustCompile(`(?s)^Caveat: .*?(?:\n\s*\n|$)`)
	// Claude Code's line after a background task's notification, and its
	// note that the user stopped a turn
	taskTrailer = regexp.MustCompile(`^\s*Read the output file to retrieve the result: [^\n]*`)
	interrupted = regexp.MustCompile(`^\s*\[Request interrupted by user[^\]\n]*\]\s*$`)
)

// Segment is a piece of a user message's text: what the user wrote (Tag
// "") or a piece its agent put there, named by its tag ("system-reminder",
// "caveat", "AGENTS.md"), Text being what is inside the tag.
type Segment struct {
	Tag, Text string
}

// Segments splits a user message's text into what the user wrote and what
// its agent injected, in order; pieces of only white space are left out.
// Text with no injected piece is one segment, s itself.
func Segments(s string) []Segment {
	if interrupted.MatchString(s) {
		return []Segment{{Tag: "interrupted", Text: strings.TrimSpace(s)}}
	}
	if !strings.Contains(s, "<") && !strings.Contains(s, "Caveat: ") {
		return []Segment{{Text: s}}
	}
	if t := strings.TrimSpace(s); strings.HasPrefix(t, "# AGENTS.md instructions") || strings.HasPrefix(t, "<INSTRUCTIONS>") {
		return []Segment{{Tag: "AGENTS.md", Text: t}}
	}
	var out []Segment
	own := func(x string) {
		if l := strings.TrimLeft(x, " \t\r\n"); strings.HasPrefix(l, "Caveat: ") {
			c := caveat.FindString(l)
			out = append(out, Segment{Tag: "caveat", Text: strings.TrimSpace(c)})
			x = l[len(c):]
		}
		if strings.TrimSpace(x) != "" {
			out = append(out, Segment{Text: x})
		}
	}
	at := 0
	for _, m := range injectedBlock.FindAllStringSubmatchIndex(s, -1) {
		own(s[at:m[0]])
		g := Segment{Tag: s[m[2]:m[3]], Text: strings.TrimSpace(s[m[4]:m[5]])}
		at = m[1]
		if g.Tag == "task-notification" {
			if t := taskTrailer.FindStringIndex(s[at:]); t != nil {
				g.Text += "\n" + strings.TrimSpace(s[at:at+t[1]])
				at += t[1]
			}
		}
		out = append(out, g)
	}
	own(s[at:])
	if len(out) == 1 && out[0].Tag == "" {
		out[0].Text = s // nothing injected: the text as it is
	}
	return out
}

// PromptText is what the user wrote in a user message's text: s without
// the text its agent put there. "" when it holds nothing else.
func PromptText(s string) string {
	var own []string
	for _, g := range Segments(s) {
		if g.Tag == "" {
			own = append(own, strings.TrimSpace(g.Text))
		}
	}
	return strings.TrimSpace(strings.Join(own, "\n\n"))
}

// Injected reports whether m is a user message whose text is all injected
// (a <task-notification>, an IDE's note, a command's output): shown with
// its chips, but not a prompt.
func Injected(m *session.Message) bool {
	if m == nil || m.Role != session.RoleUser {
		return false
	}
	text := false
	for _, b := range m.Content {
		switch b.Type {
		case session.BlockText:
			if PromptText(b.Text) != "" {
				return false
			}
			text = text || strings.TrimSpace(b.Text) != ""
		case session.BlockImage, session.BlockFile:
			return false
		}
	}
	return text
}
