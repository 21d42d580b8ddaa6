package copilot

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/sesstool/sesstool/format"
	"github.com/sesstool/sesstool/internal/testkit/peers"
	"github.com/sesstool/sesstool/internal/testkit/shared"
	"github.com/sesstool/sesstool/report"
	"github.com/sesstool/sesstool/session"
)

// realWorld is the folder of real Copilot CLI sessions in the shared
// data, or skips t without it.
func realWorld(t *testing.T) string {
	t.Helper()
	dir := filepath.Join(shared.Dir(), "real-world", "copilot")
	if _, err := os.Stat(dir); err != nil {
		peers.Need(t, "real-world Copilot CLI sessions not found in "+dir+" (set SESSTOOL_SHARED)")
	}
	return dir
}

// counts is what a session read holds, counted from the model.
type counts struct {
	Version        string
	ID, Cwd, Title string // Title from the workspace.yaml beside the log
	Entries        int
	Roles          map[session.Role]int
	Sidechain      int // entries of sub-agent runs
	Subagents      int // subagent.started
	ToolCalls      int
	Opaque         int // thinking blocks carrying reasoningOpaque
	Other          int // events the model has no slot for
	OutputTokens   int64
	SystemPromptSz int
}

func countSession(t *testing.T, ref format.Ref) counts {
	t.Helper()
	r, err := Format{}.Open(ref)
	if err != nil {
		t.Fatal(err)
	}
	s, err := session.ReadAll(r)
	if err != nil {
		t.Fatal(err)
	}
	c := counts{Version: s.Meta.Version, ID: s.Meta.ID, Cwd: s.Meta.Cwd, Title: s.Meta.Title, Entries: len(s.Entries), Roles: map[session.Role]int{}}
	for _, e := range s.Entries {
		if e.Sidechain != "" {
			c.Sidechain++
		}
		switch e.Kind {
		case session.KindSubagent:
			c.Subagents++
		case session.KindOther:
			c.Other++
		}
		if e.Message == nil {
			continue
		}
		c.Roles[e.Message.Role]++
		if e.Message.Role == session.RoleSystem {
			c.SystemPromptSz = len([]rune(e.Message.Text()))
		}
		if e.Message.Usage != nil {
			c.OutputTokens += e.Message.Usage.Output
		}
		for _, b := range e.Message.Content {
			switch {
			case b.Type == session.BlockToolCall:
				c.ToolCalls++
			case b.Type == session.BlockThinking && b.Private == (opaque{}):
				c.Opaque++
			}
		}
	}
	return c
}

// The two real sessions validate, read with the counts taken from the
// files by hand (and in their SOURCES.md), and written back as Copilot's
// log are the same bytes.
func TestRealWorld(t *testing.T) {
	dir := realWorld(t)
	tests := []struct {
		folder string
		want   counts
	}{
		// 34 events: session.start is the Meta; 5 assistant.message (3 with
		// reasoningOpaque), 5 tool.execution_complete, 5 tool requests, 8
		// events with agentId of which subagent.started and .completed mark
		// the run in the main conversation; 18 other events (the 33 less 12
		// messages, the model change and the two sub-agent marks); 747 output
		// tokens summed by hand.
		{"qiaolei81+copilot-session-viewer__session-demo", counts{
			Version: "1.0.55-1", ID: "030f200c-c26f-4ef0-9099-6d1156c83631", Cwd: "/Users/testuser/workspace/demo-project",
			Entries: 33, Roles: map[session.Role]int{session.RoleUser: 1, session.RoleSystem: 1, session.RoleAssistant: 5, session.RoleTool: 5},
			Sidechain: 6, Subagents: 1, ToolCalls: 5, Opaque: 3, Other: 18, OutputTokens: 747, SystemPromptSz: 27230}},
		// 25 events, re-serialised by Python (", " and ": " separators).
		{"qiaolei81+copilot-session-viewer__session-medium", counts{
			Version: "1.0.49-1", ID: "66957610-db49-4dea-972d-c079e1898044", Cwd: "/Users/testuser", Title: "list available models",
			Entries: 24, Roles: map[session.Role]int{session.RoleUser: 1, session.RoleSystem: 1, session.RoleAssistant: 2, session.RoleTool: 1},
			ToolCalls: 1, Opaque: 1, Other: 18, OutputTokens: 414, SystemPromptSz: 40296}},
	}
	for _, tt := range tests {
		t.Run(tt.folder, func(t *testing.T) {
			folder := filepath.Join(dir, tt.folder)
			refs, err := Format{}.Sessions(folder)
			if err != nil || len(refs) != 1 {
				t.Fatalf("Sessions(%s) = %v, %v; want its events.jsonl", folder, refs, err)
			}
			if !(Format{}).Detect(folder) || !(Format{}).Detect(refs[0].Path) {
				t.Errorf("not detected as copilot")
			}
			rep := &report.Report{}
			if err := (Format{}).Validate(folder, rep, format.ValidateOptions{}); err != nil {
				t.Fatal(err)
			}
			for _, f := range rep.Findings() {
				t.Errorf("finding: %s", f.Text())
			}
			got := countSession(t, refs[0])
			if !equalCounts(got, tt.want) {
				t.Errorf("counts\n got %+v\nwant %+v", got, tt.want)
			}
			src, _ := os.ReadFile(refs[0].Path)
			r, err := Format{}.Open(refs[0])
			if err != nil {
				t.Fatal(err)
			}
			var out bytes.Buffer
			if err := (Format{}).WriteTo(&out, r, format.WriteOptions{}); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(out.Bytes(), src) {
				t.Errorf("copilot -> copilot is not byte for byte (%d bytes in, %d out)", len(src), out.Len())
			}
		})
	}
}

func equalCounts(a, b counts) bool {
	if len(a.Roles) != len(b.Roles) {
		return false
	}
	for k, v := range b.Roles {
		if a.Roles[k] != v {
			return false
		}
	}
	a.Roles, b.Roles = nil, nil
	return a.Version == b.Version && a.ID == b.ID && a.Cwd == b.Cwd && a.Title == b.Title && a.Entries == b.Entries && a.Sidechain == b.Sidechain &&
		a.Subagents == b.Subagents && a.ToolCalls == b.ToolCalls && a.Opaque == b.Opaque && a.Other == b.Other &&
		a.OutputTokens == b.OutputTokens && a.SystemPromptSz == b.SystemPromptSz
}
