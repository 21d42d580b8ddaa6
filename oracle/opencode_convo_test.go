package oracle

import (
	"testing"

	"github.com/sesstool/sesstool/internal/testkit/convo"
	"github.com/sesstool/sesstool/internal/testkit/mockmodel"
)

// chatItems is the conversation a Chat Completions request carries: user
// and assistant texts, tool calls by name and tool results, in order
// (system messages are the agent's own, not the session's).
func chatItems(req mockmodel.ChatRequest) []convo.Item {
	var out []convo.Item
	for _, m := range req.Messages {
		switch m.Role {
		case "user":
			out = append(out, convo.Item{Kind: convo.User, Text: m.Text()})
		case "assistant":
			if t := m.Text(); t != "" {
				out = append(out, convo.Item{Kind: convo.Assistant, Text: t})
			}
			for _, c := range m.ToolCalls {
				out = append(out, convo.Item{Kind: convo.Call, Text: c.Function.Name})
			}
		case "tool":
			out = append(out, convo.Item{Kind: convo.Result, Text: m.Text()})
		}
	}
	return out
}

// conversationRequests are the agent's requests that carry the session's
// conversation (it offers tools), not its side requests (the title).
func conversationRequests(t *testing.T, mock *mockmodel.Server) []mockmodel.ChatRequest {
	t.Helper()
	var out []mockmodel.ChatRequest
	for _, r := range mock.RequestsTo("/chat/completions") {
		req, err := mockmodel.ParseChat(r.Body)
		if err != nil {
			t.Fatal(err)
		}
		if !mockmodel.ChatSide(req) {
			out = append(out, req)
		}
	}
	return out
}

func TestChatItems(t *testing.T) {
	req, err := mockmodel.ParseChat([]byte(`{"messages":[
		{"role":"system","content":"You are opencode"},
		{"role":"user","content":[{"type":"text","text":"hello"}]},
		{"role":"assistant","content":"I will run","tool_calls":[{"id":"c","type":"function","function":{"name":"bash","arguments":"{}"}}]},
		{"role":"tool","tool_call_id":"c","content":"out"},
		{"role":"assistant","content":null,"tool_calls":[{"id":"d","type":"function","function":{"name":"read","arguments":"{}"}}]}]}`))
	if err != nil {
		t.Fatal(err)
	}
	want := []convo.Item{{Kind: convo.User, Text: "hello"}, {Kind: convo.Assistant, Text: "I will run"}, {Kind: convo.Call, Text: "bash"},
		{Kind: convo.Result, Text: "out"}, {Kind: convo.Call, Text: "read"}}
	got := chatItems(req)
	if len(got) != len(want) {
		t.Fatalf("got %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("item %d = %v, want %v", i, got[i], want[i])
		}
	}
}
