// Package convo is what the real agents' resume tests compare: the
// conversation a model is sent, as a list of items (user text, assistant
// text, tool call, tool result), taken from a session's active path on one
// side and from an agent's request to the mock model on the other.
package convo

import (
	"fmt"
	"strings"
	"testing"

	"github.com/sesstool/sesstool/pipeline"
	"github.com/sesstool/sesstool/registry"
	"github.com/sesstool/sesstool/session"
	"github.com/sesstool/sesstool/session/convtree"
)

// Kind is what an item is.
type Kind string

const (
	User      Kind = "user"
	Assistant Kind = "assistant"
	Call      Kind = "call"   // Text is the tool's name
	Result    Kind = "result" // Text is the result's text
)

// Item is one thing of a conversation.
type Item struct {
	Kind Kind
	Text string
}

func (i Item) String() string { return fmt.Sprintf("%s: %.80q", i.Kind, i.Text) }

// Sessions reads every session at path in the named layout.
func Sessions(t testing.TB, layout, path string) []*session.Session {
	t.Helper()
	f, err := registry.Lookup(layout)
	if err != nil {
		t.Fatal(err)
	}
	units, skips := pipeline.Walk(path, f)
	if pipeline.Code(skips) == 3 {
		t.Fatalf("reading %s: %v", path, skips)
	}
	var out []*session.Session
	for _, u := range units {
		refs, err := u.Format.Sessions(u.Path)
		if err != nil {
			t.Fatal(err)
		}
		for _, ref := range refs {
			r, err := u.Format.Open(ref)
			if err != nil {
				t.Fatal(err)
			}
			s, err := session.ReadAll(r)
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, s)
		}
	}
	return out
}

// Expected is the conversation of a session's active path (sub-agent runs
// left out, as a model resuming the main conversation never sees them):
// every user and assistant text, tool call and tool result, in order.
// Thinking is left out: an agent may rightly drop or re-sign it.
func Expected(s *session.Session) []Item {
	var out []Item
	for _, e := range convtree.NewConversation(convtree.Main(s.Entries), s.Meta.MessageLinks).Path() {
		if e.Kind != session.KindMessage || e.Message == nil {
			continue
		}
		out = append(out, items(e.Message)...)
	}
	return out
}

func items(m *session.Message) []Item {
	var out []Item
	role := m.Role
	for _, b := range m.Content {
		switch b.Type {
		case session.BlockText:
			switch role {
			case session.RoleUser:
				out = append(out, Item{User, b.Text})
			case session.RoleAssistant:
				out = append(out, Item{Assistant, b.Text})
			case session.RoleTool:
				out = append(out, Item{Result, b.Text})
			}
		case session.BlockToolCall:
			out = append(out, Item{Call, b.ToolName})
		case session.BlockToolResult:
			out = append(out, Item{Result, b.Text})
		}
	}
	return out
}

// Missing returns the items of want that got does not carry in order:
// each wanted item must match a later item of got of the same kind, whose
// text holds the wanted text's start (whitespace folded; tool names
// compared without case). Empty wanted texts are not looked for.
func Missing(want, got []Item) []Item {
	var miss []Item
	j := 0
	for _, w := range want {
		key := fold(w.Text)
		if key == "" {
			continue
		}
		if len(key) > 200 {
			key = key[:200]
		}
		k := j
		for ; k < len(got); k++ {
			if got[k].Kind == w.Kind && matches(w.Kind, key, fold(got[k].Text)) {
				break
			}
		}
		if k == len(got) {
			miss = append(miss, w)
			continue
		}
		j = k + 1
	}
	return miss
}

func matches(k Kind, want, got string) bool {
	if k == Call {
		return strings.EqualFold(want, got)
	}
	return strings.Contains(got, want)
}

// fold collapses runs of white space to one space and trims the ends, so
// an agent's re-wrapping of a text does not count as a loss.
func fold(s string) string { return strings.Join(strings.Fields(s), " ") }
