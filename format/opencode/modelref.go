package opencode

import (
	"strings"

	"github.com/sesstool/sesstool/jsonx"
	"github.com/sesstool/sesstool/session"
)

// inForce is a model as OpenCode names one: its provider and model ids.
type inForce struct{ ProviderID, ModelID string }

// modelNamed is the model an entry names: an assistant message's own, or a
// model change's; zero when it names none.
func modelNamed(en *session.Entry) inForce {
	switch {
	case en.Kind == session.KindModelChange && en.ModelChange != nil:
		return inForce{en.ModelChange.Provider, en.ModelChange.ModelID}
	case en.Message != nil && en.Message.Model != "":
		return inForce{en.Message.Provider, en.Message.Model}
	}
	return inForce{}
}

// layoutProvider is OpenCode's provider id for the one service an agent
// that names no provider talks to (Claude Code writes a model, never a
// provider; Codex names its provider in session_meta, read as the
// session's).
var layoutProvider = map[string]string{"claude": "anthropic", "codex": "openai"}

// familyProvider is the provider that serves a model family, for a model
// named without its provider (goat names only the model): OpenCode's ids.
var familyProvider = []struct{ prefix, provider string }{
	{"claude-", "anthropic"}, {"gpt-", "openai"}, {"o1", "openai"}, {"o3", "openai"}, {"o4", "openai"},
	{"codex-", "openai"}, {"gemini-", "google"},
}

// sessionProvider is the session's provider when it is a model's: ash's
// is the chat it came through (cli, telegram), never a model's.
func sessionProvider(m *session.Meta) string {
	if m.Origin == "ash" {
		return ""
	}
	return m.Provider
}

// modelOf is the model a message is written with. OpenCode requires one
// on every user message, and `opencode run --session ID` continues with
// the last user message's: a name no provider offers
// (ProviderModelNotFoundError) stops the session there. So a message that
// names no model of its own (a user message never does outside OpenCode)
// gets the model in force at its place in the conversation: the last one
// an earlier message or model change named, else the session's first
// (the prompt that opens a session comes before any reply), else the
// session's. convert gave the messages of a session that names no model
// anywhere OpenCode's configured default (Caps.DefaultModel).
func (e *encoder) modelOf(m *session.Message) []byte {
	ref := inForce{m.Provider, m.Model}
	if ref.ModelID == "" {
		ref = e.model
		if ref.ModelID == "" {
			ref = inForce{sessionProvider(&e.s.Meta), e.s.Meta.Model}
		}
		if ref.ProviderID == "" {
			ref.ProviderID = m.Provider
		}
	}
	if ref.ProviderID == "" {
		ref.ProviderID = sessionProvider(&e.s.Meta)
	}
	if ref.ProviderID == "" {
		ref.ProviderID = layoutProvider[e.s.Meta.Origin]
	}
	for _, f := range familyProvider {
		if ref.ProviderID == "" && strings.HasPrefix(ref.ModelID, f.prefix) {
			ref.ProviderID = f.provider
		}
	}
	if ref.ModelID == "" {
		// convert gave every message of a session that names no model
		// OpenCode's default (Caps.DefaultModel); a session of OpenCode's
		// own names one on each
		ref = inForce{"unknown", "unknown"}
	}
	if ref.ProviderID == "" {
		ref.ProviderID = "unknown"
	}
	var o jsonx.Obj
	return o.Str("providerID", ref.ProviderID).Str("modelID", ref.ModelID).Bytes()
}
