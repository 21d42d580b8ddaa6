package markdown

import (
	"bytes"
	"fmt"
	"io"
	"math/rand/v2"
	"testing"

	"github.com/sesstool/sesstool/export/transcript"
	fixture "github.com/sesstool/sesstool/internal/testkit/exportfixture"
	"github.com/sesstool/sesstool/internal/testkit/golden"
	"github.com/sesstool/sesstool/session"
)

// stream writes s as export markdown does: a skeleton read first, then the
// entries read again.
func stream(t *testing.T, s *session.Session, leaf string, tools Tools) ([]byte, error) {
	t.Helper()
	sk := transcript.Skeleton{Results: true}
	for _, e := range s.Entries {
		sk.Add(e)
	}
	tr, err := transcript.New(&session.Session{Meta: s.Meta, Entries: sk.Entries}, leaf)
	if err != nil {
		return nil, err
	}
	r := &session.SliceReader{S: s}
	var b bytes.Buffer
	err = Stream(&b, tr, r.Next, tools)
	return b.Bytes(), err
}

// TestStreamGolden: the streamed transcript is the goldens' bytes.
func TestStreamGolden(t *testing.T) {
	for _, tc := range goldenCases {
		t.Run(tc.name, func(t *testing.T) {
			b, err := stream(t, tc.s(), tc.leaf, tc.tools)
			if err != nil {
				t.Fatal(err)
			}
			golden.Assert(t, tc.name, b)
		})
	}
}

// randomSession is a tree with branches, sub-agent runs before and after
// the entry that starts them, results before, right after and far after
// their calls, on other branches, repeated call ids and labels.
func randomSession(r *rand.Rand) *session.Session {
	s := &session.Session{Meta: session.Meta{ID: "r"}}
	var ids []string
	add := func(e *session.Entry) {
		if e.ParentID == "" && len(ids) > 0 && r.IntN(10) > 0 {
			e.ParentID = ids[len(ids)-1-r.IntN(min(len(ids), 4))]
		}
		s.Entries = append(s.Entries, e)
		if e.Sidechain == "" {
			ids = append(ids, e.ID)
		}
	}
	n := 20 + r.IntN(60)
	for i := range n {
		id := fmt.Sprintf("e%d", i)
		call := fmt.Sprintf("c%d", r.IntN(n/2))
		var e *session.Entry
		switch r.IntN(8) {
		case 0, 1:
			e = &session.Entry{Kind: session.KindMessage, ID: id, Message: &session.Message{Role: session.RoleUser,
				Content: []session.Block{{Type: session.BlockText, Text: "user " + id}}}}
		case 2, 3:
			e = &session.Entry{Kind: session.KindMessage, ID: id, Message: &session.Message{Role: session.RoleAssistant, Model: "m",
				Content: []session.Block{{Type: session.BlockText, Text: "reply " + id}, {Type: session.BlockToolCall, ToolCallID: call, ToolName: "bash", Arguments: []byte(`{"command":"ls"}`)}}}}
		case 4, 5:
			e = &session.Entry{Kind: session.KindMessage, ID: id, Message: &session.Message{Role: session.RoleTool, ToolCallID: call, ToolName: "bash",
				Content: []session.Block{{Type: session.BlockText, Text: "out " + id}}}}
		case 6:
			e = &session.Entry{Kind: session.KindSubagent, ID: id, Subagent: &session.Subagent{ID: fmt.Sprintf("run%d", r.IntN(3))}}
		default:
			if len(ids) > 0 {
				e = &session.Entry{Kind: session.KindLabel, ID: id, Label: &session.Label{TargetID: ids[r.IntN(len(ids))], Label: "l" + id}}
			} else {
				e = &session.Entry{Kind: session.KindMessage, ID: id, Message: &session.Message{Role: session.RoleUser}}
			}
		}
		if r.IntN(6) == 0 {
			e.Sidechain = fmt.Sprintf("run%d", r.IntN(3))
			e.ParentID = ""
			s.Entries = append(s.Entries, e)
			continue
		}
		add(e)
	}
	return s
}

// TestStreamAgrees: on random sessions the streamed transcript is
// WriteTools's, byte for byte, for the active path and other leaves.
func TestStreamAgrees(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	var results, runs int
	for k := range 2000 {
		s := randomSession(r)
		leaf := ""
		if k%3 == 0 {
			leaf = s.Entries[r.IntN(len(s.Entries))].ID
		}
		want := func() []byte {
			tr, err := transcript.New(s, leaf)
			if err != nil {
				t.Fatal(err)
			}
			var b bytes.Buffer
			if err := WriteTools(&b, tr, ToolsFull); err != nil {
				t.Fatal(err)
			}
			return b.Bytes()
		}()
		got, err := stream(t, s, leaf, ToolsFull)
		if err != nil {
			t.Fatalf("session %d: %v", k, err)
		}
		if !bytes.Equal(got, want) {
			t.Fatalf("session %d: streamed\n%s\nheld\n%s", k, got, want)
		}
		results += bytes.Count(got, []byte("**Result:**"))
		runs += bytes.Count(got, []byte("### User\n\nuser e")) // sidechain users shown too
	}
	if results == 0 || runs == 0 {
		t.Errorf("the sessions paired %d results and showed %d user messages: not what they are for", results, runs)
	}
}

// TestStreamChanged: a session that has other entries on its second read
// is an error, not a wrong transcript.
func TestStreamChanged(t *testing.T) {
	s := fixture.Session()
	sk := transcript.Skeleton{Results: true}
	for _, e := range s.Entries {
		sk.Add(e)
	}
	tr, err := transcript.New(&session.Session{Meta: s.Meta, Entries: sk.Entries}, "")
	if err != nil {
		t.Fatal(err)
	}
	for _, entries := range [][]*session.Entry{s.Entries[:len(s.Entries)-1], append(s.Entries, s.Entries[0])} {
		r := &session.SliceReader{S: &session.Session{Entries: entries}}
		if err := Stream(io.Discard, tr, r.Next, ToolsFull); err == nil {
			t.Errorf("%d entries read again from %d: no error", len(entries), len(s.Entries))
		}
	}
}
