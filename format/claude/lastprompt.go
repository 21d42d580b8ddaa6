package claude

import (
	"strings"

	"github.com/sesstool/sesstool/jsonx"
	"github.com/sesstool/sesstool/session"
)

// Claude Code (its --resume picker and its SDK's listSessions) shows a
// session only under a name: a title line, a last-prompt line, or a first
// prompt that does not start with a tag. A session of another layout
// whose prompts open with a tag (pi's <user_message_time>, a command's
// <command-name>) and that has no title would not be listed, so the
// writer ends it, as Claude Code ends its own turns, with a last-prompt
// line naming the last prompt and the line it was resumed from.

// notePrompt keeps the text of a prompt of the main conversation and
// the line written for it as the leaf so far.
func (w *writer) notePrompt(e *session.Entry, l line) {
	if e.Sidechain != "" {
		return
	}
	w.leaf = l.uuid
	if e.Kind != session.KindMessage || e.Message == nil || e.Message.Role != session.RoleUser {
		return
	}
	for _, b := range e.Message.Content {
		if b.Type == session.BlockText && strings.TrimSpace(b.Text) != "" {
			if w.firstPrompt == "" {
				w.firstPrompt = b.Text
			}
			w.lastPrompt = b.Text
			return
		}
	}
}

// writeLastPrompt writes the last-prompt line when the session would
// otherwise have no name Claude Code lists it by.
func (w *writer) writeLastPrompt() error {
	if w.own || w.meta.Title != "" || w.lastPrompt == "" || !strings.HasPrefix(strings.TrimSpace(w.firstPrompt), "<") {
		return nil
	}
	var o jsonx.Obj
	o.Str("type", "last-prompt")
	o.Str("lastPrompt", w.lastPrompt)
	if w.leaf != "" {
		o.Str("leafUuid", w.leaf)
	}
	o.Str("sessionId", w.sid)
	return w.emit("", o.Bytes())
}
