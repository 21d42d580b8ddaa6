package flat

import (
	"bytes"
	"io"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sesstool/sesstool/format"
	"github.com/sesstool/sesstool/report"
	"github.com/sesstool/sesstool/session"
)

// Every invalid case either reads and writes back byte for byte, or fails
// with an error naming the file and line; none panics.
func TestInvalidInputsReadOrFailCleanly(t *testing.T) {
	files, _ := filepath.Glob("testdata/invalid/*.jsonl")
	if len(files) < 15 {
		t.Fatalf("found %d invalid cases", len(files))
	}
	for _, f := range files {
		b := readFile(t, f)
		r, err := New().OpenReader(f, bytes.NewReader(b))
		if err != nil {
			if !strings.HasPrefix(err.Error(), f) {
				t.Errorf("%s: error does not name the file: %v", f, err)
			}
			continue
		}
		var out bytes.Buffer
		if err := New().WriteTo(&out, r, format.WriteOptions{}); err != nil {
			if !strings.HasPrefix(err.Error(), f+":") {
				t.Errorf("%s: error does not name file and line: %v", f, err)
			}
			continue
		}
		if !bytes.Equal(out.Bytes(), b) {
			t.Errorf("%s: read and written back, bytes differ:\n got %s\nwant %s", f, out.Bytes(), b)
		}
	}
}

// Lines of any length: a 5 MiB text block validates and round-trips.
func TestLongLine(t *testing.T) {
	head := `{"type":"session","id":"s","version":1,"timestamp":"2026-11-21T04:24:24Z","cwd":"/"}` + "\n"
	big := `{"type":"message","id":"aaaaaaa1","parent_id":"","timestamp":"2026-11-21T04:24:24Z","role":"user","message":{"role":"user","content":[{"type":"text","text":"` +
		strings.Repeat("x", 5<<20) + `"}],"timestamp":1}}` + "\n"
	in := []byte(head + big)
	rep := &report.Report{}
	if err := New().ValidateReader("big.jsonl", bytes.NewReader(in), rep, format.ValidateOptions{}); err != nil {
		t.Fatal(err)
	}
	if len(rep.Findings()) != 0 {
		t.Errorf("findings: %v", rep.Findings())
	}
	if got := roundTrip(t, in, true); !bytes.Equal(got, in) {
		t.Error("long line did not round-trip")
	}
}

// A reader error mid-file reaches the writer's caller with file and line.
func TestWriteStopsOnReadError(t *testing.T) {
	in := `{"type":"session","id":"s","version":1,"timestamp":"2026-11-21T04:24:24Z","cwd":"/"}` + "\n" + `{"type":"x"}` + "\n{broken\n"
	r, err := New().OpenReader("x.jsonl", strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	err = New().WriteTo(io.Discard, r, format.WriteOptions{})
	if err == nil || err.Error() != "x.jsonl:3: invalid JSON" {
		t.Errorf("got %v", err)
	}
	// And from another layout's reader, the same error surfaces.
	r, _ = New().OpenReader("x.jsonl", strings.NewReader(in))
	if _, err := session.ReadAll(r); err == nil {
		t.Error("ReadAll accepted a broken line")
	}
}
