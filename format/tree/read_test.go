package tree

import (
	"os"
	"strings"
	"testing"

	"github.com/sesstool/sesstool/format"
	"github.com/sesstool/sesstool/session"
	"github.com/sesstool/sesstool/session/convtree"
)

func readFile(t *testing.T, path string) *session.Session {
	t.Helper()
	r, err := Format{}.Open(format.Ref{Path: path})
	if err != nil {
		t.Fatal(err)
	}
	s, err := session.ReadAll(r)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func byID(s *session.Session, id string) *session.Entry {
	for _, e := range s.Entries {
		if e.ID == id {
			return e
		}
	}
	return nil
}

func TestReadV3(t *testing.T) {
	s := readFile(t, "testdata/valid/v3_all.jsonl")
	m := s.Meta
	if m.Version != "3" || m.ID != "0193f5a2-7c1e-7000-8000-000000000001" || m.Cwd != "/home/dev/project" ||
		m.Parent == nil || m.Parent.Path == "" || m.Created.T.IsZero() || m.Origin != "tree" {
		t.Fatalf("meta %+v", m)
	}
	e := func(id string) *session.Entry {
		x := byID(s, id)
		if x == nil {
			t.Fatalf("no entry %s", id)
		}
		return x
	}
	checks := []struct {
		name string
		ok   bool
	}{
		{"first entry is a root", e("a1000001").ParentID == "" && e("a1000001").Kind == session.KindModelChange},
		{"pi model change", e("a1000001").ModelChange.Provider == "anthropic" && e("a1000001").ModelChange.ModelID == "claude-sonnet-4-5" && !e("a1000001").ModelChange.Combined},
		{"omp model change", e("a1000012").ModelChange.Combined && e("a1000012").ModelChange.Provider == "openai" && e("a1000012").ModelChange.ModelID == "gpt-5.1-codex" && e("a1000012").ModelChange.Role == "default"},
		{"thinking level", *e("a1000002").ThinkingLevel == "high"},
		{"null thinking level kept as null", e("a1000013").ThinkingLevel == nil && string(e("a1000013").Extra.Get("thinkingLevel")) == "null"},
		{"user string content", e("a1000003").Message.Role == session.RoleUser && e("a1000003").Message.ContentIsString && e("a1000003").Message.Time.UnixMilli() == 1767693601000},
		{"assistant blocks", len(e("a1000004").Message.Content) == 3 && e("a1000004").Message.Content[0].Type == session.BlockThinking && e("a1000004").Message.Content[0].Signature == "sig-abc==" && e("a1000004").Message.Content[2].ToolCallID == "toolu_01" && e("a1000004").Message.Content[2].ToolName == "bash"},
		{"usage", e("a1000004").Message.Usage.CacheWrite == 1500 && *e("a1000004").Message.Usage.Total == 1665 && e("a1000004").Message.Usage.Cost.Total == 0.00666},
		{"assistant fields", e("a1000004").Message.API == "anthropic-messages" && e("a1000004").Message.StopReason == "toolUse" && e("a1000004").Message.Model == "claude-sonnet-4-5"},
		{"unknown message member in Extras", string(e("a1000004").Message.Extra.Get("responseId")) == `"msg_01XYZ"`},
		{"tool result", e("a1000005").Message.Role == session.RoleTool && e("a1000005").Message.SourceRole == "toolResult" && e("a1000005").Message.ToolCallID == "toolu_01" && !e("a1000005").Message.IsError && string(e("a1000005").Message.Details) == `{"exitCode":0}`},
		{"redacted thinking", e("a1000006").Message.Content[1].Redacted && e("a1000006").Message.Content[0].Signature == "ts1"},
		{"label", e("a1000007").Label.TargetID == "a1000004" && e("a1000007").Label.Label == "first answer"},
		{"bash", e("a1000008").Message.Role == session.RoleBash && e("a1000008").Message.Exec.Command == "go test ./..." && *e("a1000008").Message.Exec.ExitCode == 0},
		{"bash cancelled", e("a1000009").Message.Exec.Cancelled && e("a1000009").Message.Exec.Truncated && e("a1000009").Message.Exec.ExitCode == nil && e("a1000009").Message.Exec.FullOutputPath == "/tmp/pi-bash-1.log"},
		{"image", e("a100000a").Message.Content[1].Type == session.BlockImage && e("a100000a").Message.Content[1].MimeType == "image/png"},
		{"error message", e("a100000b").Message.Error != "" && e("a100000b").Message.StopReason == "error" && e("a100000b").Message.Content != nil && len(e("a100000b").Message.Content) == 0},
		{"custom", e("a100000c").Kind == session.KindCustom && e("a100000c").Custom.CustomType == "todo-extension"},
		{"custom_message", e("a100000d").Kind == session.KindCustomMessage && e("a100000d").Message.CustomType == "reminder" && *e("a100000d").Message.Display && e("a100000d").Message.Text() == "Remember to run the linter."},
		{"custom role", e("a100000f").Message.Role == session.RoleCustom && e("a100000f").Message.SourceRole == ""},
		{"compaction", e("a1000010").Compaction.FirstKeptID == "a100000a" && *e("a1000010").Compaction.TokensBefore == 51234 && !*e("a1000010").Compaction.FromHook},
		{"session_info", e("a1000011").Kind == session.KindSessionInfo && e("a1000011").Title == "Listing files"},
		{"branch", e("b2000001").BranchSummary.FromID == "a1000014" && e("b2000001").ParentID == "a1000006"},
		{"branch from root", e("c3000001").BranchSummary.FromID == "root"},
		{"label clear", e("c3000002").Label.Label == ""},
		{"raw and line kept", e("a1000001").Line == 2 && len(e("a1000001").Raw) > 0 && e("a1000001").Origin == "tree"},
	}
	for _, c := range checks {
		if !c.ok {
			t.Errorf("%s: not as expected", c.name)
		}
	}
	if _, b := convtree.ActivePath(s.Entries, s.Meta.MessageLinks); b != 3 {
		t.Errorf("branches %d, want 3", b)
	}
}

func TestReadOmpAndV2(t *testing.T) {
	s := readFile(t, "testdata/valid/v3_omp.jsonl")
	if s.Meta.Title != "Refactor the parser" || note(&s.Meta) == nil || note(&s.Meta).TitleSlot == nil {
		t.Fatalf("title slot not read: %+v", s.Meta)
	}
	roles := map[session.Role]bool{}
	others := map[string]bool{}
	for _, e := range s.Entries {
		if e.Message != nil {
			roles[e.Message.Role] = true
		}
		if e.Kind == session.KindOther {
			if e.Custom == nil || len(e.Custom.Data) == 0 {
				t.Errorf("%s: body not kept", e.Type)
			}
			others[e.Type] = true
		}
	}
	for _, r := range []session.Role{session.RoleDeveloper, session.RoleFiles, session.RolePython} {
		if !roles[r] {
			t.Errorf("role %s not read", r)
		}
	}
	if len(others) != 9 {
		t.Errorf("omp types read as other: %v", others)
	}
	py := byID(s, "Ab3dE_f6").Message
	if py.Exec.Command != "print(1+1)" || py.Exec.Output != "2\n" {
		t.Errorf("python exec %+v", py.Exec)
	}
	v2 := readFile(t, "testdata/valid/v2_hook.jsonl")
	hook := v2.Entries[1].Message
	if v2.Meta.Version != "2" || hook.Role != session.RoleCustom || hook.SourceRole != "hookMessage" || v2.Meta.Parent == nil {
		t.Fatalf("v2: %+v %+v", v2.Meta, hook)
	}
	if v2.Meta.Provider != "anthropic" || v2.Meta.Model != "claude-opus-4-5" || v2.Meta.ThinkingLevel != "off" {
		t.Errorf("v2 header defaults %+v", v2.Meta)
	}
}

// v1 entries get ids from session.DerivedID, chained in file order; the
// compaction's firstKeptEntryIndex (header = 0) becomes that line's id.
func TestReadV1DerivedIDs(t *testing.T) {
	s := readFile(t, realSample(t, "pi-mono_before-compaction.v1.jsonl"))
	if s.Meta.Version != "1" || len(s.Entries) != 1002 {
		t.Fatalf("version %s, %d entries", s.Meta.Version, len(s.Entries))
	}
	taken := map[string]bool{}
	prev := ""
	for _, e := range s.Entries {
		want := session.DerivedID(s.Meta.ID, e.Line, func(id string) bool { return taken[id] })
		taken[want] = true
		if e.ID != want || e.ParentID != prev {
			t.Fatalf("line %d: id %s parent %s, want %s %s", e.Line, e.ID, e.ParentID, want, prev)
		}
		prev = e.ID
	}
	var comps []*session.Entry
	for _, e := range s.Entries {
		if e.Kind == session.KindCompaction {
			comps = append(comps, e)
		}
	}
	wantIdx := map[int]int{360: 293, 629: 551}
	if len(comps) != 2 {
		t.Fatalf("%d compactions", len(comps))
	}
	for _, c := range comps {
		target := s.Entries[wantIdx[c.Line]-1] // entries[0] is index 1
		if c.Compaction.FirstKeptID != target.ID || target.Message == nil || target.Message.Role != session.RoleUser {
			t.Errorf("line %d: first kept %q, want %q (a user message)", c.Line, c.Compaction.FirstKeptID, target.ID)
		}
		if c.Extra.Get("firstKeptEntryIndex") != nil {
			t.Errorf("line %d: firstKeptEntryIndex left in Extras", c.Line)
		}
	}
}

func TestReadRefusesBadInput(t *testing.T) {
	for name, in := range map[string]string{
		"empty":     "",
		"no header": `{"type":"message","id":"a","parentId":null,"timestamp":"2026-01-01T00:00:00Z","message":{"role":"user","content":"x"}}` + "\n",
	} {
		if _, err := (Format{}).OpenReader(name, stringsReader(in)); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
	r, err := Format{}.OpenReader("bad", stringsReader(`{"type":"session","version":3,"id":"s","timestamp":"2026-01-01T00:00:00Z","cwd":"/"}`+"\n{oops\n"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.Next(); err == nil || err.Error() == "" {
		t.Fatal("a bad line must be an error naming it")
	} else if want := "bad:2:"; len(err.Error()) < len(want) || err.Error()[:len(want)] != want {
		t.Fatalf("error %q does not name the line", err)
	}
}

func TestDetect(t *testing.T) {
	slot, _ := os.ReadFile("testdata/valid/v3_omp.jsonl")
	cases := map[string]struct {
		head string
		want bool
	}{
		"v1":           {`{"type":"session","id":"x","timestamp":"2025-01-01T00:00:00Z","cwd":"/"}` + "\n", true},
		"v3":           {`{"type":"session","version":3,"id":"x","timestamp":"2025-01-01T00:00:00Z","cwd":"/"}` + "\n", true},
		"omp slot":     {string(slot[:600]), true},
		"blank first":  {"\n\n" + `{"type":"session","version":2,"id":"x","timestamp":"t","cwd":"/"}`, true},
		"flat v1":      {`{"type":"session","id":"x","version":1,"timestamp":"2025-01-01T00:00:00Z","cwd":"/"}` + "\n", false},
		"ash string":   {`{"type":"session","id":"x","version":"2","cwd":"/"}` + "\n", false},
		"message":      {`{"type":"message","id":"x"}` + "\n", false},
		"not json":     {"hello\n", false},
		"empty":        {"", false},
		"no id":        {`{"type":"session","cwd":"/"}` + "\n", false},
		"partial line": {`{"type":"session","id":"x","cwd":"/","a":"` + "\n", false},
	}
	for name, c := range cases {
		if got := (Format{}).DetectHead([]byte(c.head)); got != c.want {
			t.Errorf("%s: DetectHead = %v, want %v", name, got, c.want)
		}
	}
}

func stringsReader(s string) *strings.Reader { return strings.NewReader(s) }
