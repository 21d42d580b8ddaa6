package copilot

import (
	"bytes"
	"os"
	"testing"

	"github.com/sesstool/sesstool/format"
	"github.com/sesstool/sesstool/report"
	"github.com/sesstool/sesstool/session"
)

// liveLog is the session Copilot CLI 1.0.102 wrote here, offline against
// the mock model (oracle.TestCopilotLive, kept with SESSTOOL_AGENT_OUT):
// one prompt, the shell tool called once, a final text.
const liveLog = "testdata/live/copilot-1.0.102.jsonl"

// What Copilot CLI 1.0.102 writes validates without a finding, reads with
// the counts of the mock's script (its session.usage_record events give
// each reply's tokens: 100 in, 20 out, twice), and is written back byte
// for byte.
func TestLiveLog(t *testing.T) {
	rep := &report.Report{}
	if err := (Format{}).Validate(liveLog, rep, format.ValidateOptions{}); err != nil {
		t.Fatal(err)
	}
	for _, f := range rep.Findings() {
		t.Errorf("finding: %s", f.Text())
	}
	got := countSession(t, format.Ref{Path: liveLog})
	want := counts{Version: "1.0.102", ID: "82878223-96f2-46e7-a239-56fcde9a03d7", Cwd: "/tmp/TestCopilotLive219607500/002",
		Entries: 13, Roles: map[session.Role]int{session.RoleUser: 1, session.RoleSystem: 1, session.RoleAssistant: 2, session.RoleTool: 1},
		ToolCalls: 1, Other: 8, OutputTokens: 40, SystemPromptSz: got.SystemPromptSz}
	if !equalCounts(got, want) || got.SystemPromptSz == 0 {
		t.Errorf("counts\n got %+v\nwant %+v", got, want)
	}
	r, err := Format{}.Open(format.Ref{Path: liveLog})
	if err != nil {
		t.Fatal(err)
	}
	s, err := session.ReadAll(r)
	if err != nil {
		t.Fatal(err)
	}
	var in int64
	for _, e := range s.Entries {
		if e.Message != nil && e.Message.Usage != nil {
			in += e.Message.Usage.Input
		}
	}
	if in != 200 {
		t.Errorf("input tokens %d, want 200 (two calls of 100)", in)
	}
	src, _ := os.ReadFile(liveLog)
	r, _ = Format{}.Open(format.Ref{Path: liveLog})
	var out bytes.Buffer
	if err := (Format{}).WriteTo(&out, r, format.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(out.Bytes(), src) {
		t.Error("copilot -> copilot is not byte for byte")
	}
}
