package transcript

import (
	"regexp"
	"strings"
)

// Agents put text of their own into user messages: Claude Code's
// <system-reminder>, the IDE's <ide_opened_file>, a slash command's
// <command-name>, its output's <local-command-stdout>, a background task's
// <task-notification> and the "Caveat: …" before local commands; Codex's
// <environment_context>, <user_instructions> and the AGENTS.md it reads.
// None of it is what the user asked, so none of it titles a session.

const injectedTags = `system-reminder|ide_opened_file|ide_selection|ide_diagnostics|command-name|command-message|command-args|` +
	`local-command-stdout|local-command-stderr|local-command-caveat|task-notification|environment_context|user_instructions|user-prompt-submit-hook`

var (
	injectedBlock = regexp.MustCompile(`(?s)<(?:` + injectedTags + `)>.*?</(?:` + injectedTags + `)>`)
	caveat        = regexp.MustCompile(`(?s)^Caveat: .*?(?:\n\s*\n|$)`)
)

// PromptText is what the user wrote in a user message's text: s without
// the text its agent put there. "" when it holds nothing else.
func PromptText(s string) string {
	s = strings.TrimSpace(injectedBlock.ReplaceAllString(s, ""))
	s = strings.TrimSpace(caveat.ReplaceAllString(s, ""))
	if strings.HasPrefix(s, "# AGENTS.md instructions") || strings.HasPrefix(s, "<INSTRUCTIONS>") {
		return ""
	}
	return s
}
