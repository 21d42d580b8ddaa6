package claude

import (
	"github.com/sesstool/sesstool/loss"
	"github.com/sesstool/sesstool/session"
)

// lossMeta counts what Claude Code's lines have no place for of a session
// from another layout.
func (w *writer) lossMeta() {
	m := w.meta
	add := func(kind loss.Kind, reason string, n int) { w.lost.Add(kind, loss.Dropped, reason, n) }
	if m.Model != "" || m.Provider != "" || m.ThinkingLevel != "" {
		add(loss.SessionModel, "Claude Code keeps the model per assistant message only", 1)
	}
	if m.Parent != nil {
		add(loss.ParentLink, "Claude Code's session file names no parent session", 1)
	}
	add(loss.ChildSession, "Claude Code's session file names no child sessions", len(m.Children))
	add(loss.SessionField, "Claude Code's lines have no slot for the source's other session fields", m.Unknown())
}

// lossMessage counts what a message from another layout loses.
func (w *writer) lossMessage(e *session.Entry) {
	m := e.Message
	add := func(kind loss.Kind, reason string, n int) { w.lost.Add(kind, loss.Dropped, reason, n) }
	for i := range m.Content {
		b := &m.Content[i]
		add(loss.BlockField, "Claude Code's content blocks have no slot for the source's other fields", b.Unknown())
	}
	if m.Provider != "" || m.API != "" {
		add(loss.MessageAPI, "Claude Code's message names its model only", 1)
	}
	add(loss.MessageDetails, "Claude Code's message has no such field", btoi(len(m.Details) > 0 && string(m.Details) != "null"))
	add(loss.MessageAuthor, "Claude Code's message has no such field", btoi(m.AuthorID != "" || m.AuthorName != ""))
	add(loss.MessageTokens, "Claude Code's message has no such field", btoi(m.TokenCount != nil))
	if m.Usage != nil {
		add(loss.ReasoningTokens, "Claude Code's usage has no reasoning tokens", btoi(m.Usage.Reasoning != 0))
		add(loss.Usage, "Claude Code's usage has tokens only, no cost", btoi(m.Usage.Cost != nil))
	}
	add(loss.MessageField, "Claude Code's message has no slot for the source's other fields", len(m.Extra))
	add(loss.EntryField, "Claude Code's line has no slot for the source's other fields", e.Unknown())
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}
