package model_test

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/sesstool/sesstool/convert"
	"github.com/sesstool/sesstool/format"
	"github.com/sesstool/sesstool/loss"
	"github.com/sesstool/sesstool/registry"
	"github.com/sesstool/sesstool/session"
)

// zeroTime matches a time that means nothing, as any layout spells it: Go's
// zero time, the Unix epoch, or a time member of 0 milliseconds or less.
var zeroTime = regexp.MustCompile(`0001-01-01T00:00:00|1970-01-01T00:00:00|"(timestamp|created|updated|completed|start|end|created_at|updated_at|initialized)":(0|-[0-9]+)[,}]`)

// TestNoZeroTimes writes every session of every sample the project made
// (and testdata/times), and of the shared samples when they are there
// (not under -short), with every writer of
// another layout, and finds no zero time in what is written: an entry
// without a time of its own (an ash tool result) takes a time that means
// something (its call's).
func TestNoZeroTimes(t *testing.T) {
	// testdata/times: an ash session whose tool result, as ash writes it,
	// has no time, on the active path
	all := append(samples(t, "../../testdata/samples"), samples(t, "testdata/times")...)
	// The shared samples (real sessions, some large) multiply every
	// writer's work; -short, the edit-test loop, keeps the project's own.
	if dir := os.Getenv("SESSTOOL_SHARED"); dir != "" && !testing.Short() {
		all = append(all, samples(t, filepath.Join(dir, "samples"))...)
	}
	if len(all) < 10 {
		t.Fatalf("only %d sample sessions found", len(all))
	}
	for _, target := range registry.All {
		_, ok := target.(format.Writer)
		if !ok {
			continue
		}
		caps, _ := format.CapsOf(target)
		for _, s := range all {
			if s.f.Name() == target.Name() || caps.Owns(s.f.Name()) || len(s.bad) > 0 {
				continue // a layout's own session is written as it was read; an invalid one is not converted
			}
			t.Run(s.name+"/"+target.Name(), func(t *testing.T) {
				open := func() (r session.Reader, err error) { return s.f.Open(s.ref) }
				r, err := open()
				if err != nil {
					t.Fatal(err)
				}
				dir := t.TempDir()
				out := dir
				if _, single := target.(format.Stream); single {
					out = filepath.Join(out, "session.out")
				}
				if _, err := convert.Write(target, r, out, format.WriteOptions{Reopen: open}, &loss.Counter{}); err != nil {
					t.Fatalf("write: %v", err)
				}
				err = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
					if err != nil || d.IsDir() {
						return err
					}
					b, err := os.ReadFile(p)
					if err != nil {
						return err
					}
					for _, m := range zeroTime.FindAllIndex(b, 3) {
						t.Errorf("%s: a zero time: %q", filepath.Base(p), b[max(0, m[0]-100):min(len(b), m[1]+20)])
					}
					return nil
				})
				if err != nil {
					t.Fatal(err)
				}
			})
		}
	}
}
