package convert

import (
	"testing"

	"github.com/sesstool/sesstool/format"
	"github.com/sesstool/sesstool/session"
)

// placing declares every rule for the entries a writer used to place and
// count itself (format.Caps: ConvertedWhy to ThinkingOwnOnlyWhy).
var placing = format.Caps{Own: []string{"pl"}, Sidechains: true,
	KindsConverted: []session.Kind{session.KindCompaction, session.KindSubagent, session.KindSubagentEnd},
	Roles:          []session.Role{session.RoleUser, session.RoleAssistant}, Fallback: format.FallbackUser,
	Blocks:          []session.BlockType{session.BlockText, session.BlockThinking},
	ThinkingOwnOnly: true, ThinkingOwnOnlyWhy: "own thinking only",
	ConvertedWhy: map[session.Kind]string{session.KindCompaction: "a summary line", session.KindSubagent: "a file of its own",
		session.KindSubagentEnd: "a file of its own"},
	CompactionAsUser: true, CustomMessages: format.CustomRule{As: format.CustomAsMessage}, NoLineWhy: "no such line",
	NoParentWhy: "names no parent", NoChildrenWhy: "names no children"}

// TestAdaptPlaced: what becomes of compactions, extension messages, the
// entries that start and end a sub-agent run, another layout's thinking
// and the links to other sessions, by the target's declaration alone.
func TestAdaptPlaced(t *testing.T) {
	u, a := session.RoleUser, session.RoleAssistant
	compaction := func(id, parent, summary string) *session.Entry {
		e := kind(id, parent, session.KindCompaction)
		if summary != "" {
			e.Compaction = &session.Compaction{Summary: summary}
		}
		return e
	}
	custom := func(e *session.Entry) *session.Entry { e.Kind = session.KindCustomMessage; return e }
	thinking := func(id, parent string) *session.Entry {
		e := msg(id, parent, a)
		e.Message.Content = []session.Block{{Type: session.BlockThinking, Text: "hmm"}}
		return e
	}
	noCompaction := placing
	noCompaction.KindsConverted, noCompaction.NoLineWhy = nil, "messages only"
	titled := noCompaction
	titled.KindsConverted = []session.Kind{session.KindSessionInfo}
	titled.ConvertedWhy = map[session.Kind]string{session.KindSessionInfo: "the last title is the session's"}
	title := func(id, parent, t string) *session.Entry {
		e := kind(id, parent, session.KindSessionInfo)
		e.Title = t
		return e
	}
	byID := placing
	byID.NoParentWhy, byID.NoParentPathWhy = "", "links a parent by id only"
	cases := []adaptCase{
		{name: "a title entry converted to the title; one without a title has no line", to: titled,
			entries: []*session.Entry{msg("a", "", u), title("t", "a", "Parser fix"), title("n", "t", ""), msg("b", "n", a)},
			want:    []string{"a< user", "t<a session_info", "b<t assistant"},
			lost:    []string{"1 session_info-entry converted", "1 session_info-entry dropped"},
			why:     []string{"session_info-entry converted: the last title is the session's", "session_info-entry dropped: messages only"}},
		{name: "the path of a parent linked by id only", to: byID,
			meta:    func(m *session.Meta) { m.Parent = &session.Parent{SessionID: "p", Path: "/p.jsonl"} },
			entries: []*session.Entry{msg("a", "", u)},
			want:    []string{"a< user"},
			lost:    []string{"1 parent-path dropped"}, why: []string{"parent-path dropped: links a parent by id only"}},
		{name: "a parent linked by id only, without a path", to: byID,
			meta:    func(m *session.Meta) { m.Parent = &session.Parent{SessionID: "p"} },
			entries: []*session.Entry{msg("a", "", u)},
			want:    []string{"a< user"}},
		{name: "converted kinds counted with the reason declared", to: placing,
			entries: []*session.Entry{msg("a", "", u), kind("s", "a", session.KindSubagent), kind("e", "s", session.KindSubagentEnd)},
			want:    []string{"a< user", "s<a subagent", "e<s subagent_end"},
			lost:    []string{"1 subagent-entry converted", "1 subagent_end-entry converted"},
			why:     []string{"subagent-entry converted: a file of its own", "subagent_end-entry converted: a file of its own"}},
		{name: "a compaction becomes the user message of its summary", to: placing,
			entries: []*session.Entry{msg("a", "", u), compaction("k", "a", "so far"), msg("b", "k", a)},
			want:    []string{"a< user", "k<a user", "b<k assistant"},
			lost:    []string{"1 compaction converted"}, why: []string{"compaction converted: a summary line"}},
		{name: "a compaction without its summary has no line; its children hang from its parent", to: placing,
			entries: []*session.Entry{msg("a", "", u), compaction("k", "a", ""), msg("b", "k", a)},
			want:    []string{"a< user", "b<a assistant"},
			lost:    []string{"1 compaction-entry dropped"}, why: []string{"compaction-entry dropped: no such line"}},
		{name: "a compaction the target neither holds nor converts has no line", to: noCompaction,
			entries: []*session.Entry{msg("a", "", u), compaction("k", "a", "so far")},
			want:    []string{"a< user"},
			lost:    []string{"1 compaction-entry dropped"}, why: []string{"compaction-entry dropped: messages only"}},
		{name: "extension messages written as their message; without one, and a message without one, no line", to: placing,
			entries: []*session.Entry{msg("a", "", u), custom(msg("c", "a", u)), custom(kind("x", "c", session.KindMessage)), kind("m", "x", session.KindMessage), msg("b", "m", a)},
			want:    []string{"a< user", "c<a user", "b<c assistant"},
			lost:    []string{"1 custom_message-entry dropped", "1 message-entry dropped"}},
		{name: "another layout's thinking left out; a message of thinking alone dropped", to: placing,
			entries: []*session.Entry{msg("a", "", u), with(msg("b", "a", a), session.BlockThinking), thinking("c", "b"), msg("d", "c", u)},
			want:    []string{"a< user", "b<a assistant", "d<b user"},
			lost:    []string{"2 thinking-block dropped"}, why: []string{"thinking-block dropped: own thinking only"}},
		{name: "links to other sessions the target's file has no place for", to: placing,
			meta: func(m *session.Meta) {
				m.Parent, m.Children = &session.Parent{SessionID: "p"}, []string{"c1", "c2"}
			},
			entries: []*session.Entry{msg("a", "", u)},
			want:    []string{"a< user"},
			lost:    []string{"2 child-session dropped", "1 parent-link dropped"}},
	}
	for _, c := range cases {
		t.Run(c.name, c.check)
	}
}
