package goat

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/sesstool/sesstool/format"
	"github.com/sesstool/sesstool/internal/testkit/golden"
	"github.com/sesstool/sesstool/jsonx"
	"github.com/sesstool/sesstool/report"
	"github.com/sesstool/sesstool/session"
)

const samples = "../../testdata/samples/goat"

var sampleStore = filepath.Join(samples, "generated/projects/srv-gen-goat-work-project/sessions")

func sampleSessions(t *testing.T) []string {
	t.Helper()
	dirs := storeSessions(sampleStore)
	if len(dirs) != 2 {
		t.Fatalf("want 2 sample sessions in %s, found %d", sampleStore, len(dirs))
	}
	return dirs
}

func validateText(t *testing.T, path string) (string, *report.Report) {
	t.Helper()
	rep := &report.Report{}
	if err := (Format{}).Validate(path, rep, format.ValidateOptions{Workers: 2}); err != nil {
		t.Fatalf("validate %s: %v", path, err)
	}
	var text, sum, js bytes.Buffer
	if err := rep.WriteText(&text, &sum); err != nil {
		t.Fatal(err)
	}
	if err := rep.WriteJSON(&js); err != nil {
		t.Fatal(err)
	}
	return text.String() + sum.String() + "--- json\n" + js.String(), rep
}

func TestDetect(t *testing.T) {
	tmp := t.TempDir()
	noID := filepath.Join(tmp, "noid")
	os.MkdirAll(noID, 0o755)
	os.WriteFile(filepath.Join(noID, MetadataFile), []byte(`{"cwd":"/x"}`), 0o644)
	os.WriteFile(filepath.Join(noID, MessagesFile), nil, 0o644)
	flat := filepath.Join(tmp, "flat")
	os.MkdirAll(flat, 0o755)
	os.WriteFile(filepath.Join(flat, MetadataFile), []byte(`{"id":"flat"}`), 0o644)
	os.WriteFile(filepath.Join(flat, MessagesFile), []byte(`{"uuid":"a","role":"user","content":"hi"}`+"\n"), 0o644)
	empty := filepath.Join(tmp, "empty")
	os.MkdirAll(empty, 0o755)
	os.WriteFile(filepath.Join(empty, MetadataFile), []byte(`{"id":"empty"}`), 0o644)
	os.WriteFile(filepath.Join(empty, MessagesFile), []byte("\n"), 0o644)
	dirs := sampleSessions(t)
	for _, c := range []struct {
		path string
		want bool
	}{
		{dirs[0], true},
		{dirs[1], true},
		{sampleStore, true},                           // a store of sessions
		{filepath.Dir(sampleStore), false},            // the project dir holds a store, not sessions
		{filepath.Join(dirs[0], MessagesFile), false}, // a file
		{noID, false},                                 // metadata without id
		{flat, false},                                 // seed's flat lines, not goat's nested message
		{empty, true},                                 // a session with no messages yet
		{filepath.Join(tmp, "does-not-exist"), false},
	} {
		if got := (Format{}).Detect(c.path); got != c.want {
			t.Errorf("Detect(%s) = %v, want %v", c.path, got, c.want)
		}
	}
	refs, err := Format{}.Sessions(sampleStore)
	if err != nil || len(refs) != 2 {
		t.Fatalf("Sessions(store) = %v, %v; want 2", refs, err)
	}
}

func TestValidateSamples(t *testing.T) {
	out, rep := validateText(t, sampleStore)
	if rep.Errors() != 0 || rep.Warnings() != 0 {
		t.Errorf("samples: %d errors, %d warnings:\n%s", rep.Errors(), rep.Warnings(), out)
	}
	// Samples validated through the store and one session at a time.
	for _, d := range sampleSessions(t) {
		if out, rep := validateText(t, d); rep.Errors()+rep.Warnings() != 0 {
			t.Errorf("%s:\n%s", d, out)
		}
	}
	golden.Assert(t, "validate/samples.txt", []byte(out))
}

// Each invalid case breaks one rule once; the case's folder is named after
// the rule, and the table says which file and line must carry it.
func TestValidateInvalid(t *testing.T) {
	const a, f = "3e7dfd39-96f7-438f-86f9-7f773e6d5295", "d94e39bb-a20b-4bcf-89d5-3e14595ee2e9"
	cases := []struct {
		rule, file string
		line       int
		severity   report.Severity
		dir        string // the case's folder when it is not the rule's name
	}{
		{"json-syntax", a + "/messages.jsonl", 3, report.Error, ""},
		{"schema", a + "/messages.jsonl", 6, report.Error, ""},
		{"duplicate-id", a + "/messages.jsonl", 5, report.Error, ""},
		{"bad-timestamp", a + "/messages.jsonl", 2, report.Error, ""},
		{"tool-arguments", a + "/messages.jsonl", 4, report.Error, ""},
		{"unknown-tool-call", a + "/messages.jsonl", 3, report.Error, ""},
		{"torn-line", a + "/messages.jsonl", 7, report.Error, ""},
		{"id-mismatch", a + "/metadata.json", 2, report.Error, ""},
		{"message-count", a + "/metadata.json", 7, report.Error, ""},
		{"unknown-parent", f + "/metadata.json", 5, report.Error, ""},
		{"parent-unchecked", f + "/metadata.json", 5, report.Warning, ""},
		{"missing-blob", a + "/checkpoints/session-end/manifest.json", 8, report.Error, ""},
		{"blob-hash", a + "/checkpoints/session-end/manifest.json", 8, report.Error, ""},
		{"blob-size", a + "/checkpoints/session-end/manifest.json", 9, report.Error, ""},
		{"missing-manifest", a + "/checkpoints/session-end/manifest.json", 0, report.Error, ""},
		{"transcript-session", a + "/transcript.jsonl", 1, report.Error, ""},
		// The same rules in the pretty-printed JSON files: the line is the member's.
		{"schema", a + "/metadata.json", 8, report.Error, "schema-metadata"},
		{"json-syntax", a + "/checkpoints/session-end/manifest.json", 14, report.Error, "json-syntax-manifest"},
		{"bad-timestamp", a + "/metadata.json", 5, report.Error, "bad-timestamp-metadata"},
		{"duplicate-key", a + "/metadata.json", 10, report.Error, "duplicate-key-metadata"},
	}
	seen := map[string]bool{}
	for _, c := range cases {
		if c.dir == "" {
			c.dir = c.rule
		}
		seen[c.dir] = true
		t.Run(c.dir, func(t *testing.T) {
			dir := filepath.Join("testdata", "invalid", c.dir)
			out, rep := validateText(t, filepath.Join(dir, "sessions"))
			golden.Assert(t, "validate/"+c.dir+".txt", []byte(out))
			fs := rep.Findings()
			if len(fs) != 1 {
				t.Fatalf("want exactly one finding, got %d:\n%s", len(fs), out)
			}
			want := filepath.Join(dir, "sessions", filepath.FromSlash(c.file))
			if g := fs[0]; g.Rule != c.rule || g.Path != want || g.Line != c.line || g.Severity != c.severity {
				t.Errorf("got %s, want %s %s:%d (%s)", g.Text(), c.severity, want, c.line, c.rule)
			}
		})
	}
	ents, _ := os.ReadDir(filepath.Join("testdata", "invalid"))
	for _, e := range ents {
		if !seen[e.Name()] {
			t.Errorf("testdata/invalid/%s has no row in the table", e.Name())
		}
	}
}

// filesOf lists a session directory's files (lock sidecars excluded) by
// relative path.
func filesOf(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || strings.HasSuffix(p, ".lock") {
			return err
		}
		b, err := os.ReadFile(p)
		rel, _ := filepath.Rel(dir, p)
		out[filepath.ToSlash(rel)] = b
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// roundTripSessions are the samples plus a hand-made session with unknown
// members at every level, arguments that are not JSON, escapes Go would spell
// differently, an empty blob (no size), local zones and a transcript.
func roundTripSessions(t *testing.T) []string {
	extra := storeSessions(filepath.Join("testdata", "roundtrip", "sessions"))
	if len(extra) != 1 {
		t.Fatalf("want 1 session under testdata/roundtrip, got %d", len(extra))
	}
	return append(sampleSessions(t), extra...)
}

func TestRoundTripBytes(t *testing.T) {
	for _, dir := range roundTripSessions(t) {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			r, err := Format{}.Open(format.Ref{Path: dir})
			if err != nil {
				t.Fatal(err)
			}
			out := t.TempDir()
			written, err := Format{}.Write(r, out, format.WriteOptions{})
			if err != nil {
				t.Fatal(err)
			}
			want, got := filesOf(t, dir), filesOf(t, filepath.Join(out, filepath.Base(dir)))
			// the session directory, then every file
			if len(written) != len(want)+1 || written[0] != filepath.Join(out, filepath.Base(dir)) {
				t.Errorf("Write reported %d paths (first %q), want the session directory and the input's %d files", len(written), written[0], len(want))
			}
			var names []string
			for n := range want {
				names = append(names, n)
			}
			sort.Strings(names)
			for _, n := range names {
				if g, ok := got[n]; !ok {
					t.Errorf("%s: not written", n)
				} else if !bytes.Equal(g, want[n]) {
					t.Errorf("%s differs:\nwant %q\n got %q", n, want[n], g)
				}
			}
			for n := range got {
				if want[n] == nil {
					t.Errorf("%s: written but not in the input", n)
				}
			}
		})
	}
}

// TestRoundTripCanonical proves the model holds everything: the encoding from
// the model alone, without the source bytes, is the same JSON as the input,
// for every line and every JSON file; and merging it with the source bytes
// gives the input back exactly.
func TestRoundTripCanonical(t *testing.T) {
	for _, dir := range roundTripSessions(t) {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			r, err := Format{}.Open(format.Ref{Path: dir})
			if err != nil {
				t.Fatal(err)
			}
			s, err := session.ReadAll(r)
			if err != nil {
				t.Fatal(err)
			}
			p := &plan{model: s.Meta.Model, title: s.Meta.Title, created: s.Meta.Created, updated: s.Meta.Updated}
			msgs := 0
			for _, e := range s.Entries {
				if isTranscript(e) {
					continue
				}
				msgs++
				canon := encodeLine(e, e.ID, true)
				if !jsonx.Equal(canon, e.Raw) {
					t.Errorf("line %d: canonical encoding differs:\nsrc   %s\ncanon %s", e.Line, e.Raw, canon)
				}
				if m := jsonx.Merge(e.Raw, canon); !bytes.Equal(m, e.Raw) {
					t.Errorf("line %d: merge differs:\nsrc   %s\nmerge %s", e.Line, e.Raw, m)
				}
			}
			if want := strings.Count(string(mustRead(t, filepath.Join(dir, MessagesFile))), "\n"); msgs != want {
				t.Errorf("read %d messages, file has %d lines", msgs, want)
			}
			if canon := canonMetadata(&s.Meta, p); !jsonx.Equal(canon, s.Meta.Raw) {
				t.Errorf("metadata canonical encoding differs:\nsrc   %s\ncanon %s", s.Meta.Raw, canon)
			}
			for _, cp := range s.Meta.Checkpoints {
				if canon := canonManifest(cp, true); !jsonx.Equal(canon, cp.Raw) {
					t.Errorf("checkpoint %s canonical encoding differs:\nsrc   %s\ncanon %s", cp.ID, cp.Raw, canon)
				}
			}
		})
	}
}

func mustRead(t *testing.T, p string) []byte {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestReadModel pins how goat's shapes land in the model.
func TestReadModel(t *testing.T) {
	dir := sampleSessions(t)[0]
	r, err := Format{}.Open(format.Ref{Path: dir})
	if err != nil {
		t.Fatal(err)
	}
	s, err := session.ReadAll(r)
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Entries) != 8 {
		t.Fatalf("want 1 transcript + 7 messages, got %d entries", len(s.Entries))
	}
	tr := s.Entries[0]
	if tr.Kind != session.KindOther || tr.Custom.CustomType != TranscriptType || tr.Type != "transcript:assistant" {
		t.Errorf("transcript entry: %+v", tr)
	}
	msgs := s.Entries[1:]
	if msgs[0].ParentID != "" || msgs[1].ParentID != msgs[0].ID || msgs[6].ParentID != msgs[5].ID {
		t.Errorf("messages are not chained in file order")
	}
	if m := msgs[0].Message; m.Role != session.RoleUser || !m.ContentIsString || m.Text() != "List the Go files and fix main.go" {
		t.Errorf("user string content: %+v", m)
	}
	a := msgs[1].Message
	if len(a.Content) != 2 || a.Content[1].Type != session.BlockToolCall || a.Content[1].ToolName != "Bash" || string(a.Content[1].Arguments) != `{"command":"ls *.go"}` {
		t.Errorf("assistant tool call: %+v", a.Content)
	}
	if m := msgs[2].Message; m.Role != session.RoleTool || m.ToolCallID != "toolu_01A" || m.ToolName != "Bash" {
		t.Errorf("tool message: %+v", m)
	}
	if m := msgs[3].Message; !m.ContentIsNull || len(m.Content) != 1 {
		t.Errorf("null content: %+v", m)
	}
	img := msgs[5].Message.Content[1]
	if img.Type != session.BlockImage || img.MimeType != "image/png" || img.Data != "iVBORw0KGgo=" || string(img.Extra.Get("image_url.detail")) != `"auto"` {
		t.Errorf("image part: %+v", img)
	}
	if len(s.Meta.Checkpoints) != 1 || len(s.Meta.Checkpoints[0].Files) != 2 || s.Meta.Checkpoints[0].Files[0].Blob == "" || s.Meta.Checkpoints[0].Files[1].Exists {
		t.Errorf("checkpoints: %+v", s.Meta.Checkpoints)
	}
	if s.Meta.ID != filepath.Base(dir) || s.Meta.Model != "claude-sonnet-4-5-20250929" || string(s.Meta.Extra.Get("message_count")) != "7" {
		t.Errorf("meta: %+v", s.Meta)
	}
}

func jsonRaw(s string) json.RawMessage { return json.RawMessage(s) }
