package tree

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/sesstool/sesstool/convert"
	"github.com/sesstool/sesstool/format"
	"github.com/sesstool/sesstool/jsonx"
	"github.com/sesstool/sesstool/loss"
	"github.com/sesstool/sesstool/session"
)

// roundTripInputs are every valid file: the hand-written v2/v3 files, the
// project's own samples, the real v1 samples of the shared folder when it is
// there, and v3 forms of those (ids added in file order).
func roundTripInputs(t *testing.T) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	local, _ := filepath.Glob("testdata/valid/*.jsonl")
	local = append(local, ownSampleFiles(t)...)
	real := realSamplesIfThere()
	for i, f := range append(local, real...) {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		out[f] = b
		if i >= len(local) {
			out[f+" (as v3)"] = upgradeV1(t, b)
		}
	}
	if len(out) < 4 {
		t.Fatalf("only %d round-trip inputs found", len(out))
	}
	return out
}

var (
	typeMember = regexp.MustCompile(`^\{"type":"[a-z_]+",`)
	keptIndex  = regexp.MustCompile(`"firstKeptEntryIndex":(\d+)`)
)

// upgradeV1 turns a v1 sample into a v3 file by splicing ids, parents and a
// version into each line's bytes, leaving everything else as it was, so
// real-world lines are exercised in the v3 shape too.
func upgradeV1(t *testing.T, b []byte) []byte {
	t.Helper()
	var out bytes.Buffer
	lines := bytes.Split(bytes.TrimSuffix(b, []byte("\n")), []byte("\n"))
	id := func(i int) string { return fmt.Sprintf("%08x", 0xe0000000+i) }
	for i, l := range lines {
		loc := typeMember.FindIndex(l)
		if loc == nil {
			t.Fatalf("line %d does not start with a type member", i+1)
		}
		var ins string
		switch {
		case i == 0:
			ins = `"version":3,`
		case i == 1:
			ins = fmt.Sprintf(`"id":"%s","parentId":null,`, id(i))
		default:
			ins = fmt.Sprintf(`"id":"%s","parentId":"%s",`, id(i), id(i-1))
		}
		l = append(append(append([]byte{}, l[:loc[1]]...), ins...), l[loc[1]:]...)
		l = keptIndex.ReplaceAllFunc(l, func(m []byte) []byte {
			var n int
			fmt.Sscan(string(keptIndex.FindSubmatch(m)[1]), &n)
			return []byte(fmt.Sprintf(`"firstKeptEntryId":"%s"`, id(n)))
		})
		out.Write(l)
		out.WriteByte('\n')
	}
	return out.Bytes()
}

// TestRoundTrip proves, for every line of every valid file, that the model
// holds everything (the canonical encoding alone is the same JSON value as
// the line) and that writing merges back to the very same bytes.
func TestRoundTrip(t *testing.T) {
	for name, in := range roundTripInputs(t) {
		t.Run(name, func(t *testing.T) {
			r, err := Format{}.OpenReader(name, bytes.NewReader(in))
			if err != nil {
				t.Fatal(err)
			}
			s, err := session.ReadAll(r)
			if err != nil {
				t.Fatal(err)
			}
			lines := bytes.Split(bytes.TrimSuffix(in, []byte("\n")), []byte("\n"))
			checkHeader(t, &s.Meta, lines)
			enc := &encoder{version: s.Meta.Version}
			for _, e := range s.Entries {
				src := lines[e.Line-1]
				canon := enc.entry(e)
				if !jsonx.Equal(canon, src) {
					t.Fatalf("line %d: canonical encoding differs from the input\n got: %.600s\nwant: %.600s", e.Line, canon, src)
				}
				if m := jsonx.Merge(e.Raw, canon); !bytes.Equal(m, src) {
					t.Fatalf("line %d: merged output differs from the input", e.Line)
				}
			}
			// Written straight from its reader the session is copied line
			// by line (verbatim); through any other reader each entry is
			// encoded and merged. Both must give the input back.
			for _, path := range []string{"verbatim", "model"} {
				var out bytes.Buffer
				var r2 session.Reader
				r2, _ = Format{}.OpenReader(name, bytes.NewReader(in))
				if _, ok := verbatim(r2); !ok {
					t.Fatalf("a fresh reader is not copied verbatim")
				}
				if path == "model" {
					r2 = modelPath{r2}
				}
				if err := (Format{}).WriteTo(&out, r2, format.WriteOptions{}); err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(out.Bytes(), in) {
					t.Fatalf("%s: written file differs from the input (%d vs %d bytes)", path, out.Len(), len(in))
				}
			}
		})
	}
}

func checkHeader(t *testing.T, m *session.Meta, lines [][]byte) {
	t.Helper()
	meta := *m
	meta.Extra = headerExtras(m)
	if n := note(m); n != nil && n.TitleOnlyInSlot {
		meta.Title = ""
	}
	canon := encodeHeader(&meta, m.Version)
	if !jsonx.Equal(canon, m.Raw) {
		t.Fatalf("header: canonical encoding differs\n got: %s\nwant: %s", canon, m.Raw)
	}
	if !bytes.Equal(jsonx.Merge(m.Raw, canon), m.Raw) {
		t.Fatalf("header: merged output differs")
	}
}

// A model change made after reading shows up in the output, spelled anew,
// while the rest of the line keeps its bytes.
func TestWriteChangedEntry(t *testing.T) {
	in, _ := os.ReadFile("testdata/valid/v3_all.jsonl")
	r, _ := Format{}.OpenReader("x", bytes.NewReader(in))
	s, err := session.ReadAll(r)
	if err != nil {
		t.Fatal(err)
	}
	s.Entries[3].Message.StopReason = "stop"
	var out bytes.Buffer
	if err := convert.WriteTo(Format{}, &out, &session.SliceReader{S: s}, format.WriteOptions{}, nil); err != nil {
		t.Fatal(err)
	}
	got := strings.Split(out.String(), "\n")[s.Entries[3].Line-1]
	want := strings.Replace(strings.Split(string(in), "\n")[s.Entries[3].Line-1], `"stopReason":"toolUse"`, `"stopReason":"stop"`, 1)
	if got != want {
		t.Fatalf("changed line:\n got %s\nwant %s", got, want)
	}
}

// A session from another format is written as v3 with pi's required members.
func TestWriteForeign(t *testing.T) {
	one := int64(7)
	s := &session.Session{Meta: session.Meta{ID: "x1", Cwd: "/w", Created: session.FromMillis(1767693600000)}}
	s.Entries = []*session.Entry{
		{Kind: session.KindMessage, ID: "u1", Time: session.FromMillis(1767693601000),
			Extra: session.Extras{{Key: "sidecar", Value: []byte(`1`)}},
			Message: &session.Message{Role: session.RoleUser, Content: []session.Block{{Type: session.BlockText, Text: "hi"}},
				Extra: session.Extras{{Key: "author", Value: []byte(`"x"`)}}}},
		{Kind: session.KindMessage, ID: "a1", ParentID: "u1", Time: session.FromMillis(1767693602000),
			Message: &session.Message{Role: session.RoleAssistant, Usage: &session.Usage{Input: 1, Output: 2, Total: &one},
				Content: []session.Block{{Type: session.BlockToolCall, ToolCallID: "c1", ToolName: "ls"}}}},
		{Kind: session.KindMessage, ID: "t1", ParentID: "a1", Time: session.FromMillis(1767693603000),
			Message: &session.Message{Role: session.RoleTool, ToolCallID: "c1", ToolName: "ls"}},
	}
	var out bytes.Buffer
	lost := &loss.Counter{}
	if err := convert.WriteTo(Format{}, &out, &session.SliceReader{S: s}, format.WriteOptions{}, lost); err != nil {
		t.Fatal(err)
	}
	if items := lost.Items(); len(items) != 2 || items[0].Kind != "entry-field" || items[1].Kind != "message-field" {
		t.Errorf("loss %+v", items)
	}
	// Ids are pi's own form, derived from the source ids (the same input
	// always gives the same ids); the stop reason is inferred from the call.
	want := `{"type":"session","version":3,"id":"5b7e9e64-7116-4845-abc1-c13aa721e626","timestamp":"2026-01-06T10:00:00.000Z","cwd":"/w"}
{"type":"message","id":"eeb99201","parentId":null,"timestamp":"2026-01-06T10:00:01.000Z","message":{"role":"user","content":[{"type":"text","text":"hi"}],"timestamp":1767693601000}}
{"type":"message","id":"fa17110a","parentId":"eeb99201","timestamp":"2026-01-06T10:00:02.000Z","message":{"role":"assistant","content":[{"type":"toolCall","id":"c1","name":"ls","arguments":{}}],"usage":{"input":1,"output":2,"cacheRead":0,"cacheWrite":0,"totalTokens":7},"stopReason":"toolUse","timestamp":1767693602000}}
{"type":"message","id":"734db2d3","parentId":"fa17110a","timestamp":"2026-01-06T10:00:03.000Z","message":{"role":"toolResult","content":[],"toolCallId":"c1","toolName":"ls","isError":false,"timestamp":1767693603000}}
`
	if out.String() != want {
		t.Fatalf("got:\n%s\nwant:\n%s", out.String(), want)
	}
	var rep bytes.Buffer
	_ = rep
	vr, err := Format{}.OpenReader("w", bytes.NewReader(out.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for {
		_, err := vr.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		n++
	}
	if n != 3 {
		t.Fatalf("read back %d entries, want 3", n)
	}
}

// modelPath hides the tree reader from the writer, so it encodes and
// merges every entry instead of copying lines.
type modelPath struct{ session.Reader }

// TestWriteForeignBefore1970: pi spells a message's time in milliseconds
// after 1970 (defs.json's msTime). Another layout's message time before
// 1970 is written as its entry's time, and when that is before 1970 too the
// message has none (the entry keeps its own); each is a named loss, and the
// file validates.
func TestWriteForeignBefore1970(t *testing.T) {
	old, _ := session.ParseTime("0026-03-04T10:00:03.300Z")
	s := &session.Session{Meta: session.Meta{ID: "x1", Cwd: "/w", Created: session.FromMillis(1767693600000)}}
	s.Entries = []*session.Entry{
		{Kind: session.KindMessage, ID: "u1", Time: session.FromMillis(1767693601000),
			Message: &session.Message{Role: session.RoleUser, Time: session.FromMillis(-5), Content: []session.Block{{Type: session.BlockText, Text: "own time"}}}},
		{Kind: session.KindMessage, ID: "a1", ParentID: "u1", Time: old,
			Message: &session.Message{Role: session.RoleAssistant, Content: []session.Block{{Type: session.BlockText, Text: "entry's time"}}}},
		{Kind: session.KindMessage, ID: "u2", ParentID: "a1", Time: session.FromMillis(1767693603000),
			Message: &session.Message{Role: session.RoleUser, Time: session.FromMillis(1767693603500), Content: []session.Block{{Type: session.BlockText, Text: "after 1970"}}}},
	}
	var out bytes.Buffer
	lost := &loss.Counter{}
	if err := convert.WriteTo(Format{}, &out, &session.SliceReader{S: s}, format.WriteOptions{}, lost); err != nil {
		t.Fatal(err)
	}
	got := map[loss.Action]int{}
	for _, it := range lost.Items() {
		if it.Kind == loss.Time {
			got[it.Action] += it.Count
		}
	}
	if got[loss.Converted] != 1 || got[loss.Dropped] != 1 {
		t.Errorf("lost %+v, want one time converted and one dropped", lost.Items())
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	for i, want := range []string{
		`"timestamp":"2026-01-06T10:00:01.000Z","message":{"role":"user","content":[{"type":"text","text":"own time"}],"timestamp":1767693601000}}`,
		`"timestamp":"0026-03-04T10:00:03.300Z","message":{"role":"assistant","content":[{"type":"text","text":"entry's time"}],"stopReason":"stop"}}`,
		`"timestamp":"2026-01-06T10:00:03.000Z","message":{"role":"user","content":[{"type":"text","text":"after 1970"}],"timestamp":1767693603500}}`,
	} {
		if !strings.HasSuffix(lines[i+1], want) {
			t.Errorf("line %d = %s\nwant it to end %s", i+2, lines[i+1], want)
		}
	}
	checkValid(t, out.Bytes())
}

// TestWriteForeignWithoutID: another layout's entry of a type only it knows
// may have no id (flat keeps such a line as it is); pi's v3 entry must have
// one, so it is given one no other entry has, and the file validates.
func TestWriteForeignWithoutID(t *testing.T) {
	s := &session.Session{Meta: session.Meta{ID: "x1", Cwd: "/w", Created: session.FromMillis(1767693600000)}}
	s.Entries = []*session.Entry{
		{Kind: session.KindOther, Type: "ranh", Time: session.FromMillis(1767693600500)},
		{Kind: session.KindMessage, ID: "u1", Time: session.FromMillis(1767693601000),
			Message: &session.Message{Role: session.RoleUser, Content: []session.Block{{Type: session.BlockText, Text: "hi"}}}},
		{Kind: session.KindOther, Type: "ranh", ParentID: "u1", Time: session.FromMillis(1767693602000)},
	}
	var out bytes.Buffer
	if err := convert.WriteTo(Format{}, &out, &session.SliceReader{S: s}, format.WriteOptions{}, &loss.Counter{}); err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for i, line := range strings.Split(strings.TrimSpace(out.String()), "\n")[1:] {
		id := regexp.MustCompile(`^\{"type":"[a-z]+","id":"([0-9a-f]{8})"`).FindStringSubmatch(line)
		if id == nil || seen[id[1]] {
			t.Errorf("entry %d has no id of its own: %s", i+1, line)
			continue
		}
		seen[id[1]] = true
	}
	checkValid(t, out.Bytes())
}

// checkValid fails t unless the tree file b validates without errors.
func checkValid(t *testing.T, b []byte) {
	t.Helper()
	p := filepath.Join(t.TempDir(), "written.jsonl")
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
	if rep := validateFile(t, p); rep.Errors() != 0 {
		var text bytes.Buffer
		rep.WriteText(&text, &text)
		t.Errorf("the file does not validate:\n%s", text.String())
	}
}
