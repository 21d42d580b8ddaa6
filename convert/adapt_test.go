package convert

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/sesstool/sesstool/format"
	"github.com/sesstool/sesstool/loss"
	"github.com/sesstool/sesstool/session"
)

// adaptCase is one session from layout "src" adapted for a declared target.
type adaptCase struct {
	name    string
	to      format.Caps
	entries []*session.Entry
	reopen  bool
	meta    func(*session.Meta) // the session's, when it matters
	want    []string            // "id<parent role-or-kind" of each entry given
	lost    []string            // "count kind action"
	why     []string            // "kind action: reason", when checked
}

func msg(id, parent string, role session.Role) *session.Entry {
	return &session.Entry{Kind: session.KindMessage, ID: id, ParentID: parent, Source: session.Source{Origin: "src"},
		Message: &session.Message{Role: role, Content: []session.Block{{Type: session.BlockText, Text: id}}}}
}

func kind(id, parent string, k session.Kind) *session.Entry {
	return &session.Entry{Kind: k, ID: id, ParentID: parent, Source: session.Source{Origin: "src"}}
}

func with(e *session.Entry, ts ...session.BlockType) *session.Entry {
	for _, t := range ts {
		e.Message.Content = append(e.Message.Content, session.Block{Type: t})
	}
	return e
}

func side(e *session.Entry) *session.Entry { e.Sidechain = "agent"; return e }

// signed gives every block of e a signature.
func signed(e *session.Entry) *session.Entry {
	for i := range e.Message.Content {
		e.Message.Content[i].Signature = "sig"
	}
	return e
}

var (
	linear = format.Caps{Own: []string{"lin"}, Linear: true, Roles: []session.Role{session.RoleUser, session.RoleAssistant},
		Fallback: format.FallbackDrop, Blocks: []session.BlockType{session.BlockText, session.BlockImage}, ImagesOn: []session.Role{session.RoleUser}}
	tree = format.Caps{Own: []string{"tr"}, Sidechains: true, Kinds: []session.Kind{session.KindCompaction},
		Roles: []session.Role{session.RoleUser, session.RoleAssistant, session.RoleSystem}, Fallback: format.FallbackUser,
		Alias: map[session.Role]session.Role{session.RoleDeveloper: session.RoleSystem}, Blocks: []session.BlockType{session.BlockText}}
	signing = format.Caps{Own: []string{"sg"}, Roles: []session.Role{session.RoleAssistant}, Kinds: []session.Kind{session.KindLabel},
		Blocks:     []session.BlockType{session.BlockText, session.BlockThinking, session.BlockToolCall},
		Signatures: []session.BlockType{session.BlockText}}
)

func TestAdapt(t *testing.T) {
	u, a := session.RoleUser, session.RoleAssistant
	// a -> b -> c, a -> d (two abandoned tips: three lines), b -> f (leaf, last entry), and a sub-agent entry
	branched := []*session.Entry{msg("a", "", u), msg("b", "a", a), msg("c", "b", u), msg("d", "a", u), side(msg("s", "b", u)), msg("f", "b", u)}
	cases := []adaptCase{
		{name: "linear target, read twice", to: linear, entries: branched, reopen: true,
			want: []string{"a< user", "b<a assistant", "f<b user"},
			lost: []string{"2 branch flattened", "2 off-path-entry dropped", "1 sidechain-entry dropped"}},
		{name: "linear target, held", to: linear, entries: branched,
			want: []string{"a< user", "b<a assistant", "f<b user"},
			lost: []string{"2 branch flattened", "2 off-path-entry dropped", "1 sidechain-entry dropped"}},
		{name: "tree target keeps branches and sub-agent runs", to: tree, entries: branched,
			want: []string{"a< user", "b<a assistant", "c<b user", "d<a user", "s<b user", "f<b user"}},
		{name: "a dropped kind's children hang from its parent", to: tree,
			entries: []*session.Entry{msg("a", "", u), kind("m", "a", session.KindModelChange), kind("l", "m", session.KindLabel), msg("b", "l", a), kind("k", "b", session.KindCompaction)},
			want:    []string{"a< user", "b<a assistant", "k<b compaction"},
			lost:    []string{"1 label-entry dropped", "1 model_change-entry dropped"}},
		{name: "roles: alias, user fallback", to: tree,
			entries: []*session.Entry{msg("a", "", session.RoleDeveloper), msg("b", "a", session.RoleBash), msg("c", "b", session.RoleSystem)},
			want:    []string{"a< system", "b<a user", "c<b system"},
			lost:    []string{"1 bash-message converted", "1 developer-message converted"}},
		{name: "blocks: not held, images for some roles only", to: linear,
			entries: []*session.Entry{with(msg("a", "", u), session.BlockImage), with(msg("b", "a", a), session.BlockImage, session.BlockThinking)},
			want:    []string{"a< user image", "b<a assistant"},
			lost:    []string{"1 image-block dropped", "1 thinking-block dropped"}},
		{name: "tree target: the leaf it drops leaves the path's last kept entry last, held", to: tree,
			entries: []*session.Entry{msg("a", "", u), msg("b", "a", a), msg("c", "b", u), msg("x", "a", a), kind("l", "c", session.KindLabel)},
			want:    []string{"a< user", "b<a assistant", "x<a assistant", "c<b user"},
			lost:    []string{"1 label-entry dropped"}},
		{name: "tree target: the leaf it drops leaves the path's last kept entry last, read twice", to: tree, reopen: true,
			entries: []*session.Entry{msg("a", "", u), msg("b", "a", a), msg("c", "b", u), msg("x", "a", a), kind("l", "c", session.KindLabel)},
			want:    []string{"a< user", "b<a assistant", "x<a assistant", "c<b user"},
			lost:    []string{"1 label-entry dropped"}},
		{name: "tree target: a leaf it keeps stays where it is", to: tree,
			entries: []*session.Entry{msg("a", "", u), msg("b", "a", a), kind("l", "b", session.KindLabel), msg("x", "a", a)},
			want:    []string{"a< user", "b<a assistant", "x<a assistant"},
			lost:    []string{"1 label-entry dropped"}},
		{name: "signatures: kept where declared, else dropped and counted", to: signing,
			entries: []*session.Entry{signed(with(msg("a", "", a), session.BlockThinking, session.BlockToolCall))},
			want:    []string{"a< assistant signed thinking tool_call"},
			lost:    []string{"1 thinking-signature dropped", "1 tool_call-signature dropped"}},
		{name: "signatures: on blocks the target drops, not counted", to: linear,
			entries: []*session.Entry{signed(with(msg("a", "", a), session.BlockThinking))},
			want:    []string{"a< assistant"},
			lost:    []string{"1 text-signature dropped", "1 thinking-block dropped"}},
		{name: "roles: drop, children follow", to: linear,
			entries: []*session.Entry{msg("a", "", u), msg("b", "a", session.RoleBash), msg("c", "b", a)},
			want:    []string{"a< user", "c<a assistant"},
			lost:    []string{"1 bash-message dropped"}},
	}
	for _, c := range cases {
		t.Run(c.name, c.check)
	}
}

// check adapts the case's session for its target and compares the entries
// given and the losses counted with what it wants.
func (c adaptCase) check(t *testing.T) {
	s := &session.Session{Meta: session.Meta{ID: "s", Source: session.Source{Origin: "src"}}, Entries: c.entries}
	if c.meta != nil {
		c.meta(&s.Meta)
	}
	var reopen func() (session.Reader, error)
	opened := 0
	if c.reopen {
		reopen = func() (session.Reader, error) { opened++; return &session.SliceReader{S: s}, nil }
	}
	lost := &loss.Counter{}
	r, err := Adapt(&session.SliceReader{S: s}, reopen, c.to, "x", lost)
	if err != nil {
		t.Fatal(err)
	}
	got := describe(t, r)
	if d := cmp.Diff(c.want, got); d != "" {
		t.Errorf("entries (-want +got):\n%s", d)
	}
	if d := cmp.Diff(c.lost, counted(lost)); d != "" {
		t.Errorf("loss (-want +got):\n%s", d)
	}
	if c.why != nil {
		var why []string
		for _, it := range lost.Items() {
			why = append(why, fmt.Sprintf("%s %s: %s", it.Kind, it.Action, it.Reason))
		}
		if d := cmp.Diff(c.why, why); d != "" {
			t.Errorf("loss reasons (-want +got):\n%s", d)
		}
	}
	if c.reopen && opened != 1 {
		t.Errorf("reopened %d times, want 1 (two passes, memory flat)", opened)
	}
	if again, _ := Adapt(r, reopen, c.to, "x", lost); again != r {
		t.Error("adapting an adapted session again is not a no-op")
	}
}

// TestAdaptOwn: a session of the target's own origin passes untouched, even
// what the target would not take from another layout.
func TestAdaptOwn(t *testing.T) {
	s := &session.Session{Meta: session.Meta{Source: session.Source{Origin: "lin"}}, Entries: []*session.Entry{msg("a", "", session.RoleBash), msg("b", "", session.RoleUser)}}
	in := &session.SliceReader{S: s}
	lost := &loss.Counter{}
	r, err := Adapt(in, nil, linear, "x", lost)
	if err != nil || r != session.Reader(in) {
		t.Fatalf("own session: got %T, %v; want the reader itself", r, err)
	}
	if items := lost.Items(); len(items) != 0 {
		t.Errorf("own session counted losses: %v", items)
	}
}

// TestAdaptChanged: the second read must see the entries the first did.
func TestAdaptChanged(t *testing.T) {
	s := &session.Session{Meta: session.Meta{Source: session.Source{Origin: "src"}}, Entries: []*session.Entry{msg("a", "", session.RoleUser), msg("b", "a", session.RoleUser)}}
	for _, n := range []int{1, 3} {
		reopen := func() (session.Reader, error) {
			c := &session.Session{Meta: s.Meta}
			for i := 0; i < n; i++ {
				c.Entries = append(c.Entries, msg(fmt.Sprint(i), "", session.RoleUser))
			}
			return &session.SliceReader{S: c}, nil
		}
		r, err := Adapt(&session.SliceReader{S: s}, reopen, linear, "x", nil)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := session.ReadAll(r); err == nil || !strings.Contains(err.Error(), "first read") {
			t.Errorf("%d entries on the second read: err = %v, want a changed-input error", n, err)
		}
	}
}

func describe(t *testing.T, r session.Reader) []string {
	t.Helper()
	var out []string
	err := session.Each(r, func(e *session.Entry) error {
		what := string(e.Kind)
		if e.Message != nil {
			what = string(e.Message.Role)
			for _, b := range e.Message.Content {
				if b.Signature != "" {
					what += " signed"
				}
				if b.Type != session.BlockText {
					what += " " + string(b.Type)
				}
			}
		}
		out = append(out, e.ID+"<"+e.ParentID+" "+what)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func counted(c *loss.Counter) []string {
	var out []string
	for _, it := range c.Items() {
		out = append(out, fmt.Sprintf("%d %s %s", it.Count, it.Kind, it.Action))
	}
	return out
}

// TestPathTimes: the span of the path counts the entries the target drops.
func TestPathTimes(t *testing.T) {
	at := func(e *session.Entry, ms int64) *session.Entry { e.Time = session.FromMillis(ms); return e }
	s := &session.Session{Meta: session.Meta{Source: session.Source{Origin: "src"}}, Entries: []*session.Entry{
		at(kind("m", "", session.KindModelChange), 1000), at(msg("a", "m", session.RoleUser), 2000),
		at(msg("x", "a", session.RoleUser), 2500), at(msg("b", "a", session.RoleAssistant), 3000), at(kind("l", "b", session.KindLabel), 4000)}}
	r, err := Adapt(&session.SliceReader{S: s}, nil, linear, "x", nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, _, ok := format.PathTimes(r); ok {
		t.Error("PathTimes answered before anything was read")
	}
	if got := describe(t, r); !cmp.Equal(got, []string{"a< user", "b<a assistant"}) {
		t.Errorf("entries = %q", got)
	}
	first, last, ok := format.PathTimes(r)
	if !ok || first.UnixMilli() != 1000 || last.UnixMilli() != 4000 {
		t.Errorf("PathTimes = %d, %d, %v; want 1000, 4000, true", first.UnixMilli(), last.UnixMilli(), ok)
	}
	if _, _, ok := format.PathTimes(&session.SliceReader{S: s}); ok {
		t.Error("PathTimes answered for a reader Adapt did not return")
	}
}
