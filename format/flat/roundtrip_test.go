package flat

import (
	"bufio"
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sesstool/sesstool/format"
	"github.com/sesstool/sesstool/jsonx"
	"github.com/sesstool/sesstool/report"
	"github.com/sesstool/sesstool/session"
)

// roundTrip reads b into the model and writes it back, merged with the
// source bytes (merge) or from the model alone.
func roundTrip(t *testing.T, b []byte, merge bool) []byte {
	t.Helper()
	r, err := New().OpenReader("in.jsonl", bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	w := bufio.NewWriter(&out)
	if err := writeNative(w, r, merge); err != nil {
		t.Fatal(err)
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	return out.Bytes()
}

// roundTripInputs are the samples plus a file that uses every place the
// model keeps unknown members, and spellings json.Marshal would not choose.
func roundTripInputs(t *testing.T) map[string][]byte {
	files, _ := filepath.Glob(filepath.Join(samples, "*.jsonl"))
	files = append(files, "testdata/roundtrip/extras.jsonl", "testdata/invalid/fork-parent.jsonl")
	in := map[string][]byte{}
	for _, f := range files {
		in[f] = readFile(t, f)
	}
	if len(in) < 4 {
		t.Fatalf("want at least 4 inputs, have %d", len(in))
	}
	return in
}

func TestRoundTripBytes(t *testing.T) {
	for name, b := range roundTripInputs(t) {
		if got := roundTrip(t, b, true); !bytes.Equal(got, b) {
			t.Errorf("%s: merged output differs from the input:\n got %s\nwant %s", name, got, b)
		}
	}
}

// TestRoundTripModel proves the model holds everything: the canonical
// encoding alone, without the source bytes, is the same JSON line for line.
func TestRoundTripModel(t *testing.T) {
	for name, b := range roundTripInputs(t) {
		got := roundTrip(t, b, false)
		gl, wl := lines(got), lines(b)
		if len(gl) != len(wl) {
			t.Fatalf("%s: %d lines out, %d in", name, len(gl), len(wl))
		}
		for i := range wl {
			if !jsonx.Equal([]byte(gl[i]), []byte(wl[i])) {
				t.Errorf("%s:%d: canonical line is not the same JSON:\n got %s\nwant %s", name, i+1, gl[i], wl[i])
			}
		}
	}
}

// The canonical encoding of the samples is byte-identical too, because the
// writer uses the agent's member order: the merge has nothing to restore.
func TestCanonicalMatchesAgentSpelling(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join(samples, "*.jsonl"))
	for _, f := range files {
		b := readFile(t, f)
		if got := roundTrip(t, b, false); !bytes.Equal(got, b) {
			t.Errorf("%s: canonical output differs:\n got %s\nwant %s", f, got, b)
		}
	}
}

func lines(b []byte) []string {
	return strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
}

// TestReadModel pins how the sample maps onto the neutral model.
func TestReadModel(t *testing.T) {
	r, err := New().Open(format.Ref{Path: filepath.Join(samples, "20261121-042424-f487536d.jsonl")})
	if err != nil {
		t.Fatal(err)
	}
	s, err := session.ReadAll(r)
	if err != nil {
		t.Fatal(err)
	}
	if s.Meta.ID != "f487536d-24df-45e3-832d-2955dbb7faf6" || s.Meta.Version != "1" || s.Meta.Cwd != "/home/user/project" || s.Meta.Parent != nil {
		t.Errorf("meta: %+v", s.Meta)
	}
	if len(s.Entries) != 9 {
		t.Fatalf("want 9 entries, got %d", len(s.Entries))
	}
	u := s.Entries[0]
	if u.ParentID != "" || u.Message.Role != session.RoleUser || len(u.Message.Content) != 2 ||
		u.Message.Content[1].Type != session.BlockImage || u.Message.Content[1].MimeType != "image/png" ||
		u.Message.Time.UnixMilli() != 1795235064481 || u.Time.Raw != "2026-11-21T04:24:24Z" {
		t.Errorf("user entry: %+v %+v", u, u.Message)
	}
	a := s.Entries[1].Message
	if a.Role != session.RoleAssistant || a.Content[0].Type != session.BlockThinking || a.Content[2].ToolCallID != "toolu_01A" ||
		string(a.Content[2].Arguments) != `{"command":"ls *.go"}` || a.Usage.CacheRead != 80 || a.Usage.TotalTokens() != 150 || a.Usage.Cost == nil || a.StopReason != "tool_use" {
		t.Errorf("assistant: %+v", a)
	}
	tr := s.Entries[5].Message
	if tr.Role != session.RoleTool || tr.SourceRole != "tool_result" || tr.ToolCallID != "toolu_01B" || !tr.IsError || tr.ToolName != "bash" {
		t.Errorf("tool result: %+v", tr)
	}
	c := s.Entries[6]
	if c.Kind != session.KindCompaction || c.Compaction.FirstKeptID != "719c16f7" || *c.Compaction.TokensBefore != 45000 || c.ParentID != "21905c7f" {
		t.Errorf("compaction: %+v %+v", c, c.Compaction)
	}
	last := s.Entries[8].Message
	if last.StopReason != "error" || last.Error != "overloaded_error" || len(last.Content) != 0 || last.ContentIsNull {
		t.Errorf("error message: %+v", last)
	}
	for _, e := range s.Entries {
		if len(e.Extra) > 0 || (e.Message != nil && len(e.Message.Extra) > 0) {
			t.Errorf("line %d: unexpected extras %v", e.Line, e.Extra)
		}
	}

	r, err = New().Open(format.Ref{Path: filepath.Join(samples, "20261121-042425-a1bea1d6.jsonl")})
	if err != nil {
		t.Fatal(err)
	}
	fork, err := session.ReadAll(r)
	if err != nil {
		t.Fatal(err)
	}
	p := fork.Meta.Parent
	if p == nil || p.ID != "0037c602" || p.EntryID != "0bce3d6c" || p.Summary != "User was listing Go files before the fork." ||
		p.Path != "/srv/gen/flat/out/sessions/20261121-042424-f487536d.jsonl" || len(fork.Entries) != 3 {
		t.Errorf("fork: parent %+v, %d entries", p, len(fork.Entries))
	}
}

func TestReadErrors(t *testing.T) {
	cases := map[string]string{
		"":                                   "empty file",
		`{"type":"message","id":"a"}` + "\n": "in.jsonl:1: not a flat session",
		`{"type":"session","version":1}` + "\n{oops\n": "",
	}
	for in, want := range cases {
		r, err := New().OpenReader("in.jsonl", strings.NewReader(in))
		if err == nil {
			_, err = session.ReadAll(r)
		}
		if want == "" {
			want = "in.jsonl:2: invalid JSON"
		}
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: error %v, want %q", in, err, want)
		}
	}
}

func TestWriteFile(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(samples, "20261121-042424-f487536d.jsonl")
	out := filepath.Join(dir, "copy.jsonl")
	open := func() session.Reader {
		r, err := New().Open(format.Ref{Path: src})
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	if _, err := New().Write(open(), out, format.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	if got := readFile(t, out); !bytes.Equal(got, readFile(t, src)) {
		t.Error("written file differs from the source")
	}
	if _, err := New().Write(open(), out, format.WriteOptions{}); err == nil || !strings.Contains(err.Error(), "already exists") {
		t.Errorf("overwrite without Force: %v", err)
	}
	if _, err := New().Write(open(), out, format.WriteOptions{Force: true}); err != nil {
		t.Errorf("overwrite with Force: %v", err)
	}
	rep := &report.Report{}
	if err := New().Validate(out, rep, format.ValidateOptions{}); err != nil || rep.Errors()+rep.Warnings() != 0 {
		t.Errorf("written file does not validate clean: %v %v", err, rep.Findings())
	}
	if _, err := os.Stat(filepath.Join(dir, ".copy.jsonl.tmp")); err == nil {
		t.Error("temporary file left behind")
	}
}
