package fuzzcheck

import (
	"bytes"
	"errors"
	"io"
	"reflect"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/sesstool/sesstool/format"
	"github.com/sesstool/sesstool/internal/testkit/hangwatch"
	"github.com/sesstool/sesstool/jsonl"
	"github.com/sesstool/sesstool/report"
	"github.com/sesstool/sesstool/session"
)

// CheckTeed reads data both ways when s's reader can take its lines from
// its validator (format.Teed, export html's one read of a session): from
// the input itself, and from the lines its validation hands over while it
// runs. The meta, entries and errors must be the same, in order, and so
// must the findings. It reports whether s is Teed.
func CheckTeed(t testing.TB, s format.Stream, name string, data []byte) bool {
	t.Helper()
	tf, ok := s.(format.Teed)
	if !ok {
		return false
	}
	alone := &report.Report{}
	if err := s.ValidateReader(name, bytes.NewReader(data), alone, format.ValidateOptions{Workers: 1}); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	r, err := s.OpenReader(name, bytes.NewReader(data))
	fromInput := record(t, r, err)

	feed := jsonl.NewFeed(1)
	withTee := &report.Report{}
	done := make(chan error, 1)
	go func() {
		defer feed.End(errors.New("the validation stopped before the end")) // as Input.Check does
		done <- s.ValidateReader(name, bytes.NewReader(data), withTee, format.ValidateOptions{Workers: 1, Tee: feed})
	}()
	r, err = tf.OpenTeed(format.Ref{Path: name}, feed)
	fromFeed := record(t, r, err)
	if err := hangwatch.Recv(t, done, name+": the validation never ended once its reader was closed"); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	all := cmp.Exporter(func(reflect.Type) bool { return true })
	if d := cmp.Diff(fromInput, fromFeed, all); d != "" {
		t.Errorf("%s: %s reads differently from its validator's lines (-input +teed):\n%s", name, s.(format.Format).Name(), d)
	}
	if d := cmp.Diff(texts(alone), texts(withTee)); d != "" {
		t.Errorf("%s: the findings differ when the lines are handed over (-alone +teed):\n%s", name, d)
	}
	return true
}

// readRecord is what a reader gave: its meta, every entry, and every
// error up to the end of the stream (io.EOF, or an error given twice).
type readRecord struct {
	Meta    *session.Meta
	Entries []*session.Entry
	Errors  []string
}

func record(t testing.TB, r session.Reader, err error) readRecord {
	t.Helper()
	if err != nil {
		return readRecord{Errors: []string{"open: " + err.Error()}}
	}
	defer r.Close()
	rec := readRecord{Meta: r.Meta()}
	for range 10_000_000 {
		e, err := r.Next()
		if errors.Is(err, io.EOF) {
			return rec
		}
		if err != nil {
			if n := len(rec.Errors); n > 0 && rec.Errors[n-1] == err.Error() {
				return rec
			}
			rec.Errors = append(rec.Errors, err.Error())
			continue
		}
		rec.Entries = append(rec.Entries, e)
	}
	t.Fatal("the reader never ended")
	return rec
}

func texts(rep *report.Report) []string {
	var out []string
	for _, f := range rep.Findings() {
		out = append(out, f.Text())
	}
	return out
}
