package qwen

import (
	"bufio"
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sesstool/sesstool/format"
	"github.com/sesstool/sesstool/jsonx"
	"github.com/sesstool/sesstool/session"
)

const samples = "../../testdata/samples/qwen"

// roundTrip reads b into the model and writes it back, merged with the
// source bytes (merge) or from the model alone.
func roundTrip(t *testing.T, b []byte, merge bool) []byte {
	t.Helper()
	r, err := Format{}.OpenReader("in.jsonl", bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	var out bytes.Buffer
	w := bufio.NewWriter(&out)
	enc := newEncoder(w, r.Meta(), format.WriteOptions{}, merge)
	if err := session.Each(r, enc.entry); err != nil {
		t.Fatal(err)
	}
	enc.finish()
	if enc.err != nil {
		t.Fatal(enc.err)
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	return out.Bytes()
}

// roundTripInputs are the samples and the invalid cases whose every line
// is JSON: what validate refuses is still read and written back as it was.
func roundTripInputs(t *testing.T) map[string][]byte {
	files, _ := filepath.Glob(filepath.Join(samples, "*.jsonl"))
	files = append(files, "testdata/invalid/schema.jsonl", "testdata/invalid/links.jsonl")
	in := map[string][]byte{}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		in[f] = b
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

// TestRoundTripModel proves the model holds every message line: its
// canonical encoding alone, without the source bytes, is the same JSON.
// (System records the model has no slot for are carried whole.)
func TestRoundTripModel(t *testing.T) {
	for name, b := range roundTripInputs(t) {
		got := roundTrip(t, b, false)
		gl, wl := strings.Split(strings.TrimSpace(string(got)), "\n"), strings.Split(strings.TrimSpace(string(b)), "\n")
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

// A changed title is written into the title line, the rest as it was.
func TestRetitle(t *testing.T) {
	b, err := os.ReadFile(filepath.Join(samples, "features.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	r, err := Format{}.OpenReader("in.jsonl", bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	s, err := session.ReadAll(r)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, e := range s.Entries {
		if e.Kind == session.KindSessionInfo {
			e.Title = "Renamed"
			n++
		}
	}
	if n != 1 {
		t.Fatalf("%d title entries, want 1", n)
	}
	var out bytes.Buffer
	if err := (Format{}).WriteTo(&out, &session.SliceReader{S: s}, format.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	want := strings.Replace(string(b), `"customTitle":"Read the README"`, `"customTitle":"Renamed"`, 1)
	if out.String() != want {
		t.Errorf("retitled output:\n%s\nwant\n%s", out.String(), want)
	}
}
