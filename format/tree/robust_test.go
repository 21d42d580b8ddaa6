package tree

import (
	"bytes"
	"errors"
	"io"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/sesstool/sesstool/convert"
	"github.com/sesstool/sesstool/jsonl"

	"github.com/sesstool/sesstool/export/html"
	"github.com/sesstool/sesstool/format"
	"github.com/sesstool/sesstool/report"
	"github.com/sesstool/sesstool/session"
)

// Lines far beyond bufio.Scanner's 64 KB, and CRLF endings, read, validate
// and round-trip.
func TestLongLinesAndCRLF(t *testing.T) {
	big := strings.Repeat("x", 5<<20)
	in := `{"type":"session","version":3,"id":"s","timestamp":"2026-01-06T10:00:00.000Z","cwd":"/"}` + "\n" +
		`{"type":"message","id":"m1","parentId":null,"timestamp":"2026-01-06T10:00:01.000Z","message":{"role":"user","content":"` + big + `","timestamp":1}}` + "\n"
	rep := &report.Report{}
	if err := (Format{}).ValidateReader("big", strings.NewReader(in), rep, format.ValidateOptions{}); err != nil {
		t.Fatal(err)
	}
	if rep.Errors()+rep.Warnings() != 0 || rep.Summary().Entries != 1 {
		t.Fatalf("big line: %+v", rep.Findings())
	}
	r, _ := Format{}.OpenReader("big", strings.NewReader(in))
	var out bytes.Buffer
	if err := (Format{}).WriteTo(&out, r, format.WriteOptions{}); err != nil || out.String() != in {
		t.Fatalf("big line round trip: err %v, %d bytes vs %d", err, out.Len(), len(in))
	}

	crlf := strings.ReplaceAll(in[:200], "x", "") // header only is enough for CRLF
	crlf = `{"type":"session","version":3,"id":"s","timestamp":"2026-01-06T10:00:00.000Z","cwd":"/"}` + "\r\n" +
		`{"type":"message","id":"m1","parentId":null,"timestamp":"2026-01-06T10:00:01.000Z","message":{"role":"user","content":"hi","timestamp":1}}` + "\r\n"
	rep = &report.Report{}
	if err := (Format{}).ValidateReader("crlf", strings.NewReader(crlf), rep, format.ValidateOptions{}); err != nil {
		t.Fatal(err)
	}
	if rep.Errors()+rep.Warnings() != 0 {
		t.Fatalf("crlf: %+v", rep.Findings())
	}
	r, _ = Format{}.OpenReader("crlf", strings.NewReader(crlf))
	s, err := session.ReadAll(r)
	if err != nil || len(s.Entries) != 1 || s.Entries[0].Message.Text() != "hi" {
		t.Fatalf("crlf read: %v", err)
	}
}

// Validation of a long linear session stays fast: the tool-result path walk
// and the cycle check are linear in practice.
func TestValidateManyEntries(t *testing.T) {
	var b strings.Builder
	b.WriteString(`{"type":"session","version":3,"id":"s","timestamp":"2026-01-06T10:00:00.000Z","cwd":"/"}` + "\n")
	prev := "null"
	const n = 60000
	for i := 0; i < n; i++ {
		id := "e" + itoa(i)
		if i%2 == 0 {
			b.WriteString(`{"type":"message","id":"` + id + `","parentId":` + prev + `,"timestamp":"2026-01-06T10:00:01.000Z","message":{"role":"assistant","content":[{"type":"toolCall","id":"c` + itoa(i) + `","name":"ls","arguments":{}}],"timestamp":1}}` + "\n")
		} else {
			b.WriteString(`{"type":"message","id":"` + id + `","parentId":` + prev + `,"timestamp":"2026-01-06T10:00:01.000Z","message":{"role":"toolResult","toolCallId":"c` + itoa(i-1) + `","toolName":"ls","content":[],"isError":false,"timestamp":1}}` + "\n")
		}
		prev = `"` + id + `"`
	}
	rep := &report.Report{}
	if err := (Format{}).ValidateReader("many", strings.NewReader(b.String()), rep, format.ValidateOptions{}); err != nil {
		t.Fatal(err)
	}
	if rep.Errors()+rep.Warnings() != 0 || rep.Summary().Entries != n {
		t.Fatalf("%d findings, %d entries", len(rep.Findings()), rep.Summary().Entries)
	}
}

func itoa(i int) string {
	if i == 0 {
		return "0"
	}
	var d []byte
	for ; i > 0; i /= 10 {
		d = append([]byte{byte('0' + i%10)}, d...)
	}
	return string(d)
}

// No input makes the reader, the writer or the validator panic.
func FuzzTree(f *testing.F) {
	for _, p := range []string{"testdata/valid/v3_all.jsonl", "testdata/valid/v3_omp.jsonl", "testdata/valid/v2_hook.jsonl",
		"testdata/invalid/cycle.jsonl", "testdata/invalid/schema.jsonl", "testdata/invalid/dangling-reference-v1.jsonl"} {
		b, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		rep := &report.Report{}
		_ = (Format{}).ValidateReader("f", bytes.NewReader(in), rep, format.ValidateOptions{Workers: 1})
		r, err := Format{}.OpenReader("f", bytes.NewReader(in))
		if err != nil {
			return
		}
		s, err := session.ReadAll(r)
		if err != nil && !errors.Is(err, io.EOF) {
			return
		}
		var out bytes.Buffer
		if err := convert.WriteTo(Format{}, &out, &session.SliceReader{S: s}, format.WriteOptions{}, nil); err != nil {
			t.Fatal(err)
		}
		renderTrusted(t, in)
		if log, teed := readLog(t, "f", in, false), teedOnly(t, in); !slices.Equal(log, teed) {
			t.Fatalf("reading the validator's lines differs from reading the file:\n%s", cmp.Diff(log, teed))
		}
	})
}

// teedOnly is teedLog's reading, with the reader ahead.
func teedOnly(t *testing.T, in []byte) []string {
	log, _ := teedLog(t, "f", in, true)
	return log
}

// renderTrusted reads in as export html does, from the lines its
// validation reads alongside (OpenTeed), trusting the syntax and decoding
// ahead, and renders it: a line that is not JSON must not crash it before
// the validation refuses the file, and the validation must end whatever
// the reader does.
func renderTrusted(t *testing.T, in []byte) {
	feed := jsonl.NewFeed(2)
	done := make(chan struct{})
	go func() {
		defer close(done)
		defer feed.End(errors.New("the validation stopped before the end")) // as Input.Check does
		_ = (Format{}).ValidateReader("f", bytes.NewReader(in), &report.Report{}, format.ValidateOptions{Tee: feed})
	}()
	defer func() {
		feed.Stop() // as export's wait does
		<-done
	}()
	r, err := Format{}.OpenTeed(format.Ref{Path: "f"}, feed)
	if err != nil {
		return
	}
	defer r.Close()
	rd := r.(*reader)
	rd.TrustSyntax()
	rd.ReadAhead()
	_, err = html.Stream(io.Discard, *r.Meta(), r.Next, "")
	if err != nil && strings.Contains(err.Error(), "internal error") {
		t.Fatal(err)
	}
}

// A number the schema library cannot compare (it panics on it) is a schema
// finding, not a crash.
func TestHugeNumberIsAFinding(t *testing.T) {
	in := `{"type":"session","version":3,"id":"s","timestamp":"2026-01-06T10:00:00.000Z","cwd":"/"}` + "\n" +
		`{"type":"compaction","id":"c","parentId":null,"timestamp":"2026-01-06T10:00:01.000Z","summary":"s","firstKeptEntryId":"c","tokensBefore":1e999999999}` + "\n"
	rep := &report.Report{}
	if err := (Format{}).ValidateReader("huge", strings.NewReader(in), rep, format.ValidateOptions{}); err != nil {
		t.Fatal(err)
	}
	fs := rep.Findings()
	if len(fs) == 0 || fs[0].Rule != "schema" || fs[0].Line != 2 {
		t.Fatalf("findings %+v", fs)
	}
}
