package convert

import (
	"github.com/sesstool/sesstool/format"
	"github.com/sesstool/sesstool/loss"
	"github.com/sesstool/sesstool/session"
)

// The content a target has no slot for is counted here, once, from its
// declaration (format.Caps), for every session from another layout: the
// session's own data, each message's data, and the members of the source
// the model has no slot for (Extras), which no layout holds of another's.
// Nothing is removed: a writer writes only what its layout has.

// countMeta counts the session data to has no slot for.
func countMeta(m *session.Meta, to format.Caps, layout string, lost *loss.Counter) {
	add := func(k loss.Kind, what string, lacks bool) {
		if lacks {
			lost.Drop(k, layout+" keeps no "+what, 1)
		}
	}
	add(loss.SessionTitle, "session title", m.Title != "" && !to.Title && !to.TitleInHome)
	add(loss.SessionModel, "session model", m.Model != "" && !to.SessionModel)
	add(loss.Provider, "session provider", m.Provider != "" && !to.Provider && m.Provider != to.FixedProvider)
	add(loss.ThinkingLevel, "thinking level", m.ThinkingLevel != "" && !to.ThinkingLevel)
	lost.Drop(loss.SessionField, layout+" has no slot for another layout's session fields", m.Unknown())
}

// countEntry counts what of an entry the target keeps (after its kind,
// role and blocks are adapted) it has no slot for.
func countEntry(e *session.Entry, to format.Caps, layout string, lost *loss.Counter) {
	lost.Drop(loss.EntryField, layout+" has no slot for another layout's entry fields", e.Unknown())
	if e.Message != nil {
		countMessage(e.Message, to, layout, lost)
	}
}

func countMessage(m *session.Message, to format.Caps, layout string, lost *loss.Counter) {
	add := func(k loss.Kind, what string, lacks bool) {
		if lacks {
			lost.Drop(k, layout+" keeps no "+what+" per message", 1)
		}
	}
	if u := m.Usage; u != nil {
		add(loss.Usage, "usage", !to.Usage)
		add(loss.Usage, "cost", to.Usage && !to.Cost && costs(u.Cost))
		add(loss.ReasoningTokens, "reasoning token count", to.Usage && !to.ReasoningTokens && u.Reasoning != 0)
		if to.Usage && to.CacheWriteAsInput && u.CacheWrite != 0 {
			lost.Add(loss.Usage, loss.Converted, layout+" has no cache-write count: cache writes are counted as input", 1)
		}
	}
	// The provider goes with the model: where the model is kept without
	// it, the provider is lost as the API is.
	add(loss.MessageModel, "model", !to.MessageModel && (m.Model != "" || m.Provider != ""))
	add(loss.MessageAPI, "API or provider", m.API != "" && !to.MessageAPI || to.MessageModel && m.Provider != "" && !to.MessageProvider)
	switch {
	case m.StopReason != "" && !to.StopReason:
		add(loss.StopReason, "stop reason or error", true)
	case m.Error != "" && !to.MessageError:
		add(loss.StopReason, "error text beside the stop reason", true)
	}
	add(loss.MessageDetails, "tool details", len(m.Details) > 0 && string(m.Details) != "null" && !to.MessageDetails)
	add(loss.MessageAuthor, "author", (m.AuthorID != "" || m.AuthorName != "") && !to.MessageAuthor)
	add(loss.MessageTokens, "token count", m.TokenCount != nil && !to.MessageTokens)
	add(loss.IsError, "error flag", m.IsError && !to.IsError)
	lost.Drop(loss.MessageField, layout+" has no slot for another layout's message fields", len(m.Extra))
	for i := range m.Content {
		b := &m.Content[i]
		if b.Type == session.BlockToolResult && b.IsError && !to.IsError {
			lost.Drop(loss.IsError, layout+" keeps no error flag per tool result", 1)
		}
		lost.Drop(loss.BlockField, layout+" has no slot for another layout's block fields", b.Unknown())
	}
}

// costs reports whether a cost says anything: a zero cost (OpenCode writes
// one for a message with none) is not lost where no cost is kept.
func costs(c *session.Cost) bool {
	return c != nil && c.Input+c.Output+c.CacheRead+c.CacheWrite+c.Total != 0
}
