package transcript

import (
	"testing"
	"time"

	"github.com/sesstool/sesstool/session"
)

// Each prompt knows the tool calls and the time that followed it, up to
// the next prompt; the session its whole span.
func TestPrompts(t *testing.T) {
	t0 := time.Date(2026, 1, 2, 3, 0, 0, 0, time.UTC)
	at := func(s int) session.Time { return session.Time{T: t0.Add(time.Duration(s) * time.Second)} }
	call := session.Block{Type: session.BlockToolCall, ToolCallID: "c"}
	msg := func(id, parent string, s int, role session.Role, bs ...session.Block) *session.Entry {
		return &session.Entry{Kind: session.KindMessage, ID: id, ParentID: parent, Time: at(s), Message: &session.Message{Role: role, Content: bs}}
	}
	s := &session.Session{Entries: []*session.Entry{
		msg("u1", "", 0, session.RoleUser),
		msg("a1", "u1", 5, session.RoleAssistant, call, call),
		msg("r1", "a1", 7, session.RoleTool),
		msg("a2", "r1", 65, session.RoleAssistant, call),
		msg("u2", "a2", 100, session.RoleUser),
		msg("a3", "u2", 130, session.RoleAssistant),
	}}
	tr, err := New(s, "")
	if err != nil {
		t.Fatal(err)
	}
	p := tr.Prompts()
	if got := p["u1"]; got != (PromptStat{ToolCalls: 3, Took: 65 * time.Second}) {
		t.Errorf("first prompt: %+v", got)
	}
	if got := p["u2"]; got != (PromptStat{ToolCalls: 0, Took: 30 * time.Second}) {
		t.Errorf("second prompt: %+v", got)
	}
	if d := tr.Duration(); d != 130*time.Second {
		t.Errorf("duration %v", d)
	}
}
