// Package fuzzcheck holds the properties every reader's fuzz target checks,
// so each layout's target only builds its input:
//
//   - nothing panics (the fuzzer fails the run on a panic);
//   - a session that validate accepts is read without error;
//   - a session that validate accepts, written by every writer (the convert
//     path: reader, model, writer), validates as the target layout;
//   - a layout whose reader can take its lines from its validator reads the
//     same either way (CheckTeed).
package fuzzcheck

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sesstool/sesstool/atomicfile"
	"github.com/sesstool/sesstool/convert"
	"github.com/sesstool/sesstool/format"
	"github.com/sesstool/sesstool/loss"
	"github.com/sesstool/sesstool/pipeline"
	"github.com/sesstool/sesstool/registry"
	"github.com/sesstool/sesstool/report"
	"github.com/sesstool/sesstool/session"
)

// Check validates path as layout f and, when it is valid, reads every
// session in it and converts each to every writable layout. It is the
// seeded tests' property (CheckSeeds): converting one input to every
// layout takes a fuzz target under ten executions a second, so fuzz
// targets use CheckOne.
func Check(t testing.TB, f format.Format, path string) {
	t.Helper()
	check(t, f, path, func(format.Format) bool { return true })
}

// CheckOne is Check with one conversion per input: the writable layout
// choice picks (a byte of the fuzzer's input, so the fuzzer explores every
// target), or none when choice is empty.
func CheckOne(t testing.TB, f format.Format, path string, choice []byte) {
	t.Helper()
	ws := Writers()
	var pick format.Format
	if len(choice) > 0 {
		h := 0
		for _, b := range choice {
			h = h*31 + int(b)
		}
		pick = ws[(h%len(ws)+len(ws))%len(ws)]
	}
	check(t, f, path, func(target format.Format) bool { return target == pick })
}

// Writers is every layout sesstool writes, in the registry's order.
func Writers() []format.Format {
	var out []format.Format
	for _, f := range registry.All {
		if _, ok := f.(format.Writer); ok {
			out = append(out, f)
		}
	}
	return out
}

func check(t testing.TB, f format.Format, path string, to func(format.Format) bool) {
	t.Helper()
	rep := &report.Report{}
	if err := f.Validate(path, rep, format.ValidateOptions{Workers: 1}); err != nil {
		return // an I/O error, not a finding: nothing more to check
	}
	refs, serr := f.Sessions(path)
	if serr == nil {
		for _, ref := range refs {
			readAll(f, ref) // must not panic, whatever it returns
		}
	}
	if rep.Errors() > 0 {
		return
	}
	if serr != nil {
		t.Fatalf("validate accepts %s but listing its sessions fails: %v", path, serr)
	}
	for _, ref := range refs {
		if _, err := readAll(f, ref); err != nil {
			t.Fatalf("validate accepts %s but reading session %q fails: %v", path, ref.ID, err)
		}
		for _, target := range Writers() {
			if to(target) {
				convertTo(t, f, ref, target)
			}
		}
	}
}

// CheckStream runs the same properties through a single-file layout's
// reader functions (standard input's path).
func CheckStream(t testing.TB, s format.Stream, data []byte) {
	t.Helper()
	rep := &report.Report{}
	if err := s.ValidateReader("in", bytes.NewReader(data), rep, format.ValidateOptions{Workers: 1}); err != nil {
		return
	}
	r, err := s.OpenReader("in", bytes.NewReader(data))
	if err == nil {
		_, err = session.ReadAll(r)
	}
	if rep.Errors() == 0 && err != nil {
		t.Fatalf("ValidateReader accepts the input but OpenReader fails: %v", err)
	}
	CheckTeed(t, s, "in", data)
}

func readAll(f format.Format, ref format.Ref) (*session.Session, error) {
	r, err := f.Open(ref)
	if err != nil {
		return nil, err
	}
	return session.ReadAll(r)
}

// convertTo writes one valid session as target and validates what was written.
func convertTo(t testing.TB, src format.Format, ref format.Ref, target format.Format) {
	t.Helper()
	conversions = append(conversions, target.Name())
	// A throwaway directory needs no fsync, and on a busy disk the syncs
	// were most of a conversion's time.
	defer atomicfile.Unsynced()()
	dir, err := os.MkdirTemp("", "fuzzcheck-*")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(dir)
	out := dir
	if _, file := target.(format.Stream); file {
		out = filepath.Join(dir, "out"+ext(target))
	}
	r, err := src.Open(ref)
	if err != nil {
		t.Errorf("reopen %s: %v", ref.Path, err)
		return
	}
	// As convert does: the batch names the sessions converted together (here
	// this one alone), so a writer knows which parent links it can keep, and
	// a linear writer may read the session a second time.
	batch := map[string]bool{r.Meta().ID: true}
	reopen := func() (session.Reader, error) { return src.Open(ref) }
	_, err = convert.Write(target, r, out, format.WriteOptions{Force: true, Batch: batch, Reopen: reopen}, &loss.Counter{})
	r.Close()
	if errors.Is(err, format.ErrNothingToWrite) || errors.Is(err, format.ErrNoTime) {
		return // a documented refusal: the layout's program keeps no such session
	}
	if err != nil {
		t.Errorf("%s -> %s: a valid input fails to convert: %v", src.Name(), target.Name(), err)
		return
	}
	rep := &report.Report{}
	units, skips := pipeline.Walk(out, target)
	if pipeline.Code(skips) == 3 {
		t.Errorf("%s -> %s: walk output: %v", src.Name(), target.Name(), skips)
		return
	}
	if len(units) == 0 {
		t.Errorf("%s -> %s: the output holds no %s session", src.Name(), target.Name(), target.Name())
		return
	}
	for _, u := range units {
		if err := u.Format.Validate(u.Path, rep, format.ValidateOptions{Workers: 1}); err != nil {
			t.Errorf("%s -> %s: validate output: %v", src.Name(), target.Name(), err)
			return
		}
	}
	var b strings.Builder
	for _, f := range rep.Findings() {
		if f.Severity == report.Error {
			fmt.Fprintln(&b, f.Text())
		}
	}
	if b.Len() > 0 {
		t.Errorf("%s -> %s: the converted output does not validate:\n%s", src.Name(), target.Name(), b.String())
	}
}

func ext(f format.Format) string {
	if e, ok := f.(format.Extensioner); ok {
		return e.Ext()
	}
	return ".jsonl"
}

// WriteFiles writes name -> content under dir, creating folders.
func WriteFiles(t testing.TB, dir string, files map[string][]byte) {
	t.Helper()
	for name, b := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// Root is the repository root (found from this package's directory up).
func Root() string {
	wd, _ := os.Getwd()
	for d := wd; ; d = filepath.Dir(d) {
		if _, err := os.Stat(filepath.Join(d, "go.mod")); err == nil {
			return d
		}
		if filepath.Dir(d) == d {
			return wd
		}
	}
}

// conversions names the target of each of convert's calls, for the test
// that a fuzz input costs one conversion.
var conversions []string
