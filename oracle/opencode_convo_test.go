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
			// one item per text part: a source message of several text
			// blocks is sent as one message of several parts
			for _, t := range m.Texts() {
				out = append(out, convo.Item{Kind: convo.User, Text: t})
			}
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

// missingByKind is convo.Missing for each kind of item on its own: every
// user text, assistant text, tool call and tool result of want is in got,
// in order among its kind. The kinds are not compared across each other,
// because Chat Completions fixes an order a transcript need not have: a
// reply's text before its calls, each call's result right after the
// reply (where a transcript may have a queued user message between
// them), and parallel calls together before their results.
func missingByKind(want, got []convo.Item) []convo.Item {
	var miss []convo.Item
	for _, k := range []convo.Kind{convo.User, convo.Assistant, convo.Call, convo.Result} {
		miss = append(miss, convo.Missing(ofKind(want, k), ofKind(got, k))...)
	}
	return miss
}

func ofKind(items []convo.Item, k convo.Kind) []convo.Item {
	var out []convo.Item
	for _, it := range items {
		if it.Kind == k {
			out = append(out, it)
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

func TestMissingByKind(t *testing.T) {
	u := convo.Item{Kind: convo.User, Text: "queued"}
	a := convo.Item{Kind: convo.Assistant, Text: "a"}
	c1, c2 := convo.Item{Kind: convo.Call, Text: "c1"}, convo.Item{Kind: convo.Call, Text: "c2"}
	r1, r2 := convo.Item{Kind: convo.Result, Text: "r1"}, convo.Item{Kind: convo.Result, Text: "r2"}
	cases := []struct {
		want, got []convo.Item
		miss      int
	}{
		// a transcript's interleaving against the API's order
		{[]convo.Item{c1, r1, c2, u, r2, a}, []convo.Item{a, c1, c2, r1, r2, u}, 0},
		// results out of order among themselves
		{[]convo.Item{c1, r1, r2}, []convo.Item{c1, r2, r1}, 1},
		// a lost call and a lost user text
		{[]convo.Item{u, c1, c2}, []convo.Item{c2}, 2},
	}
	for i, c := range cases {
		if got := missingByKind(c.want, c.got); len(got) != c.miss {
			t.Errorf("case %d: missing %v, want %d", i, got, c.miss)
		}
	}
}

func TestChatItems(t *testing.T) {
	req, err := mockmodel.ParseChat([]byte(`{"messages":[
		{"role":"system","content":"You are opencode"},
		{"role":"user","content":[{"type":"text","text":"hello"},{"type":"text","text":"<context>"}]},
		{"role":"assistant","content":"I will run","tool_calls":[{"id":"c","type":"function","function":{"name":"bash","arguments":"{}"}}]},
		{"role":"tool","tool_call_id":"c","content":"out"},
		{"role":"assistant","content":null,"tool_calls":[{"id":"d","type":"function","function":{"name":"read","arguments":"{}"}}]}]}`))
	if err != nil {
		t.Fatal(err)
	}
	want := []convo.Item{{Kind: convo.User, Text: "hello"}, {Kind: convo.User, Text: "<context>"}, {Kind: convo.Assistant, Text: "I will run"}, {Kind: convo.Call, Text: "bash"},
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
