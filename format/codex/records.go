package codex

import (
	"bytes"

	"github.com/sesstool/sesstool/session"
)

// Codex's records that are not the conversation (session/records.go): the
// turn context repeated every turn, token counts, turn starts and ends,
// the session's state, and the events that copy what the response items
// already hold (the user's and the agent's messages, reasoning, a command's
// or a patch's end).
func init() {
	session.DeclareBookkeeping(Name, "turn_context", "state", "session_meta",
		"event_msg:token_count", "event_msg:task_started", "event_msg:task_complete",
		"event_msg:user_message", "event_msg:agent_message", "event_msg:agent_reasoning*",
		"event_msg:exec_command_end", "event_msg:patch_apply_end", "event_msg:web_search_end")
	session.DeclareNote(Name, "event_msg:context_compacted", func(session.Custom) string { return "context compacted" })
	// The user items Codex writes itself (the environment, AGENTS.md) are
	// harness text, not prompts: a one-line note says what was injected.
	session.DeclareNote(Name, "context", contextNote)
}

// contextNote names what a context item of Codex's own holds.
func contextNote(c session.Custom) string {
	switch {
	case bytes.Contains(c.Data, []byte("<environment_context>")):
		return "environment context (added by Codex)"
	case bytes.Contains(c.Data, []byte("<user_instructions>")), bytes.Contains(c.Data, []byte("AGENTS.md")):
		return "AGENTS.md instructions (added by Codex)"
	default:
		return "context added by Codex"
	}
}
