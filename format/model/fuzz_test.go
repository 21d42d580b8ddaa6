package model_test

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/sesstool/sesstool/format"
	"github.com/sesstool/sesstool/format/model"
	"github.com/sesstool/sesstool/report"
	"github.com/sesstool/sesstool/session"
)

// FuzzModel: the dump's reader and validator never panic, a dump validate
// accepts reads without error, and what reads dumps again to a fixed point
// (dump, read, dump gives the same bytes).
//
// It does not convert what it reads to every layout, as the layouts' own
// fuzz targets do (internal/testkit/fuzzcheck): a hand-made model can break what
// every reader guarantees its writers (a message entry without a message,
// an entry without a time), and convert's check of its output is what
// stops such a session there.
func FuzzModel(f *testing.F) {
	seeds, _ := filepath.Glob("../../testdata/samples/model/*.jsonl")
	more, _ := filepath.Glob("testdata/invalid/*.jsonl")
	for _, p := range append(seeds, more...) {
		b, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		rep := &report.Report{}
		if err := (model.Format{}).ValidateReader("in", bytes.NewReader(data), rep, format.ValidateOptions{Workers: 1}); err != nil {
			return
		}
		s, err := readBytes(data)
		if err != nil {
			if rep.Errors() == 0 {
				t.Fatalf("validate accepts the dump but the reader fails: %v", err)
			}
			return
		}
		once, err := model.Dump(s)
		if err != nil {
			return // a value encoding/json refuses (NaN cannot come from JSON, but a raw value can be odd)
		}
		back, err := readBytes(once)
		if err != nil {
			t.Fatalf("a dump the writer made does not read: %v\n%s", err, once)
		}
		twice, err := model.Dump(back)
		if err != nil {
			t.Fatalf("a dump the writer made does not dump again: %v\n%s", err, once)
		}
		// An entry's source line is where it was read: in data, which may
		// hold blank lines the writer never writes, then in once. So once
		// and twice agree but for those lines (docs/model.md), and from the
		// writer's own dump on the bytes are a fixed point.
		if a, b := dumpWithoutLines(t, s), dumpWithoutLines(t, back); !bytes.Equal(a, b) {
			t.Fatalf("dump, read, dump differs in more than source lines:\n%s\n%s", a, b)
		}
		again, err := readBytes(twice)
		if err != nil {
			t.Fatalf("a dump the writer made does not read: %v\n%s", err, twice)
		}
		if thrice, err := model.Dump(again); err != nil || !bytes.Equal(twice, thrice) {
			t.Fatalf("dump, read, dump is not a fixed point (%v):\n%s\n%s", err, twice, thrice)
		}
	})
}

// dumpWithoutLines is the dump of s with no entry's source line.
func dumpWithoutLines(t *testing.T, s *session.Session) []byte {
	for _, e := range s.Entries {
		e.Line = 0
	}
	b, err := model.Dump(s)
	if err != nil {
		t.Fatalf("dump: %v", err)
	}
	return b
}

func readBytes(b []byte) (*session.Session, error) {
	r, err := (model.Format{}).OpenReader("in", bytes.NewReader(b))
	if err != nil {
		return nil, err
	}
	return session.ReadAll(r)
}
