package convert

import (
	"encoding/json"
	"testing"

	"github.com/sesstool/sesstool/format"
	"github.com/sesstool/sesstool/session"
)

// TestAdaptCountsContent: the session and message data a target declares no
// slot for are counted once, by Adapt, from the declaration; what it keeps
// is not, nor is a zero cost, nor the provider it names for every session.
func TestAdaptCountsContent(t *testing.T) {
	tokens := int64(3)
	meta := func(m *session.Meta) {
		m.Title, m.Model, m.Provider, m.ThinkingLevel = "t", "m", "cli", "high"
		m.Extra = session.Extras{{Key: "x", Value: json.RawMessage(`1`)}}
	}
	entries := func() []*session.Entry {
		return []*session.Entry{{Kind: session.KindMessage, ID: "a", Source: session.Source{Origin: "src"},
			Extra: session.Extras{{Key: "y", Value: json.RawMessage(`2`)}},
			Message: &session.Message{Role: session.RoleAssistant, Model: "m", Provider: "p", API: "api", StopReason: "stop", Error: "boom",
				Details: json.RawMessage(`{}`), AuthorName: "me", TokenCount: &tokens,
				Usage: &session.Usage{Input: 1, CacheWrite: 2, Reasoning: 4, Cost: &session.Cost{}},
				Content: []session.Block{{Type: session.BlockText, Text: "hi", Extra: session.Extras{{Key: "z", Value: json.RawMessage(`3`)}}},
					{Type: session.BlockToolResult, IsError: true}}}}}
	}
	blocks := []session.BlockType{session.BlockText, session.BlockToolResult}
	cases := []adaptCase{
		{name: "nothing", to: format.Caps{Blocks: blocks}, lost: []string{
			"1 block-field dropped", "1 entry-field dropped", "1 is-error dropped", "1 message-api dropped", "1 message-author dropped",
			"1 message-details dropped", "1 message-model dropped", "1 message-token-count dropped", "1 provider dropped",
			"1 session-field dropped", "1 session-model dropped", "1 session-title dropped", "1 stop-reason dropped",
			"1 thinking-level dropped", "1 usage dropped"}},
		{name: "model without provider, stop without error, cache writes as input, fixed provider, title in home", to: format.Caps{Blocks: blocks,
			Usage: true, CacheWriteAsInput: true, MessageModel: true, StopReason: true, IsError: true, FixedProvider: "cli", TitleInHome: true,
			SessionModel: true, ThinkingLevel: true, MessageAPI: true, MessageDetails: true, MessageAuthor: true, MessageTokens: true}, lost: []string{
			"1 block-field dropped", "1 entry-field dropped", "1 message-api dropped", "1 reasoning-tokens dropped",
			"1 session-field dropped", "1 stop-reason dropped", "1 usage converted"}},
		{name: "everything but the source's own members", to: format.Caps{Blocks: blocks, Usage: true, Cost: true, ReasoningTokens: true, IsError: true,
			StopReason: true, MessageError: true, MessageModel: true, MessageProvider: true, MessageAPI: true, MessageDetails: true,
			MessageAuthor: true, MessageTokens: true, Title: true, SessionModel: true, Provider: true, ThinkingLevel: true}, lost: []string{
			"1 block-field dropped", "1 entry-field dropped", "1 session-field dropped"}},
		{name: "its own session", to: format.Caps{Own: []string{"src"}}},
	}
	for _, c := range cases {
		c.meta, c.entries, c.want = meta, entries(), []string{"a< assistant tool_result"}
		t.Run(c.name, c.check)
	}
}
