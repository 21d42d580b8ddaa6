package tree

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/sesstool/sesstool/internal/testkit/benchdata"
	"github.com/sesstool/sesstool/session"
)

// readLog reads every entry and error the reader gives until the stream
// ends (io.EOF, or an error given twice: a read error), continuing after
// line errors as a caller may, and records them; ahead turns on ReadAhead
// first.
func readLog(t *testing.T, name string, in []byte, ahead bool) []string {
	t.Helper()
	r, err := Format{}.OpenReader(name, bytes.NewReader(in))
	return logReader(t, r, err, ahead)
}

// logReader is readLog for a reader already opened (r, err).
func logReader(t *testing.T, r session.Reader, err error, ahead bool) []string {
	t.Helper()
	if err != nil {
		return []string{"open: " + err.Error()}
	}
	defer r.Close()
	if ahead {
		r.(*reader).ReadAhead()
	}
	var log []string
	for range 1_000_000 {
		e, err := r.Next()
		if errors.Is(err, io.EOF) {
			return append(log, "EOF")
		}
		if err != nil {
			if msg := "error: " + err.Error(); len(log) == 0 || log[len(log)-1] != msg {
				log = append(log, msg)
				continue
			}
			return append(log, "again") // an error that ends the stream is returned again
		}
		log = append(log, fmt.Sprintf("%d %s<-%s %s %s %d", e.Line, e.ID, e.ParentID, e.Kind, e.Type, len(e.Raw)))
		if e.Message != nil {
			log = append(log, "  "+string(e.Message.Role)+": "+e.Message.Text())
		}
	}
	t.Fatal("the reader never ended")
	return nil
}

// TestReadAheadSameAsSerial reads every test file, valid and invalid (bad
// JSON, non-objects, undecodable entries, v1 id derivation), and a
// generated file of many batches, one line at a time and with ReadAhead: the
// entries and errors must be the same, in the same order.
func TestReadAheadSameAsSerial(t *testing.T) {
	errs := 0
	for name, in := range readInputs(t) {
		serial := readLog(t, name, in, false)
		ahead := readLog(t, name, in, true)
		if d := cmp.Diff(serial, ahead); d != "" {
			t.Errorf("%s: read-ahead differs from serial reading (-serial +ahead):\n%s", name, d)
		}
		for _, l := range serial {
			if strings.HasPrefix(l, "error: ") {
				errs++
			}
		}
		if len(in) > 1<<20 && len(serial) < 1000 {
			t.Errorf("%s: only %d records", name, len(serial))
		}
	}
	if errs < 3 {
		t.Errorf("only %d line errors over all inputs: the comparison does not cover errors", errs)
	}
}

// readInputs are the files the reading tests compare readers on: every
// test file, valid and invalid (bad JSON, non-objects, undecodable
// entries, v1 id derivation), and generated files of many batches, one of
// them with bad lines beyond the first batch.
func readInputs(t *testing.T) map[string][]byte {
	files, _ := filepath.Glob("testdata/*/*.jsonl")
	files = append(files, benchdata.SamplePath(t))
	if len(files) < 20 {
		t.Fatalf("only %d test files found", len(files))
	}
	inputs := map[string][]byte{}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		inputs[f] = b
	}
	inputs["generated v3"] = benchdata.TreeBytes(t, 3<<20, true)
	inputs["generated v1"] = benchdata.TreeBytes(t, 3<<20, false)
	// bad lines in the middle of a file, beyond the first batch
	gen := inputs["generated v3"]
	mid := bytes.IndexByte(gen[len(gen)/2:], '\n') + len(gen)/2 + 1
	inputs["generated with bad lines"] = append(append(bytes.Clone(gen[:mid]),
		"{\"type\":\"message\",\"id\":\"zz\",\n[1,2]\n\n{\"type\":\"message\",\"id\":\"zz2\",\"parentId\":null,\"timestamp\":5}\n"...), gen[mid:]...)
	return inputs
}

// TestReadAheadClose stops reading early: Close must end the read-ahead
// goroutines without the caller draining the stream.
func TestReadAheadClose(t *testing.T) {
	in := benchdata.TreeBytes(t, 4<<20, true)
	before := runtime.NumGoroutine()
	for range 20 {
		r, err := Format{}.OpenReader("x", bytes.NewReader(in))
		if err != nil {
			t.Fatal(err)
		}
		r.(*reader).ReadAhead()
		if _, err := r.Next(); err != nil {
			t.Fatal(err)
		}
		r.Close()
	}
	deadline := time.Now().Add(10 * time.Second)
	for runtime.NumGoroutine() > before && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if n := runtime.NumGoroutine(); n > before {
		t.Errorf("%d goroutines left running after Close (%d before)", n-before, before)
	}
}
