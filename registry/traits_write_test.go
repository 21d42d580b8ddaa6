package registry_test

import (
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/sesstool/sesstool/atomicfile"
	"github.com/sesstool/sesstool/convert"
	"github.com/sesstool/sesstool/format"
	"github.com/sesstool/sesstool/format/goat"
	"github.com/sesstool/sesstool/loss"
	"github.com/sesstool/sesstool/registry"
	"github.com/sesstool/sesstool/session"
)

// chat is a session of n messages, user and assistant in turn, each
// linked to the one before, made as it is read. atEnd is called when a
// reading of it reaches its end.
type chat struct {
	n, i  int
	text  func(i int) string
	meta  session.Meta
	atEnd func()
}

func newChat(n int, text func(i int) string, atEnd func()) *chat {
	return &chat{n: n, text: text, atEnd: atEnd, meta: session.Meta{ID: "s1", Cwd: "/w", Created: session.FromMillis(1795235500000), Source: session.Source{Origin: "flat"}}}
}

func (c *chat) Meta() *session.Meta { return &c.meta }

func (c *chat) Next() (*session.Entry, error) {
	if c.i == c.n {
		if c.atEnd != nil {
			c.atEnd()
		}
		return nil, io.EOF
	}
	role := session.RoleUser
	if c.i%2 == 1 {
		role = session.RoleAssistant
	}
	e := &session.Entry{Kind: session.KindMessage, ID: fmt.Sprintf("e%07d", c.i), Time: session.FromMillis(1795235500000 + int64(c.i)*1000), Source: session.Source{Origin: "flat"},
		Message: &session.Message{Role: role, Content: []session.Block{{Type: session.BlockText, Text: c.text(c.i)}}}}
	if c.i > 0 {
		e.ParentID = fmt.Sprintf("e%07d", c.i-1)
	}
	c.i++
	return e, nil
}

func (c *chat) Close() error { return nil }

// written is how many bytes the files under dir hold, temporary files
// included.
func written(t *testing.T, dir string) int64 {
	var n int64
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		fi, err := d.Info()
		if err == nil {
			n += fi.Size()
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// outPath is where a test writes one session of f under dir.
func outPath(f format.Format, dir string) string {
	if _, file := f.(format.Stream); file {
		return filepath.Join(dir, "out"+registry.FileExt(f))
	}
	return dir
}

// holdsSession reports whether w holds the session it writes: handed a
// session of n messages of text (about 250 bytes each), which it may read
// again (Reopen), it has written nothing under out's directory dir by the
// time its last reading of the session reaches the end. Measuring what is
// written, not memory or time, the verdict does not depend on the
// machine's load.
func holdsSession(t *testing.T, w format.Writer, dir, out string, n int) bool {
	t.Helper()
	text := func(i int) string { return fmt.Sprintf("message %d %s", i, strings.Repeat("x", 240)) }
	var ends []int64
	atEnd := func() { ends = append(ends, written(t, dir)) }
	reopen := func() (session.Reader, error) { return newChat(n, text, atEnd), nil }
	opt := format.WriteOptions{Reopen: reopen}
	if _, err := w.Write(newChat(n, text, atEnd), out, opt); err != nil {
		t.Fatal(err)
	}
	if len(ends) == 0 {
		t.Fatal("the writer never read the session to its end")
	}
	before := ends[len(ends)-1]
	t.Logf("%d of %d bytes written when the last of %d readings ended", before, written(t, dir), len(ends))
	return before == 0
}

// A writer that holds the whole session says so (Traits.HoldsSession),
// and one that says so does: handed a session of 600 messages (150 kB
// of text, more than any writer buffers), a writer holds it when it has
// written nothing by the time its last reading of the session ends. What
// the writer declares sets convert's memory policy (registry.Streams) and
// whether it is handed Reopen (convert.For).
func TestHoldsSessionDeclared(t *testing.T) {
	defer atomicfile.Unsynced()()
	for _, f := range registry.All {
		w, ok := f.(format.Writer)
		if !ok {
			continue
		}
		t.Run(f.Name(), func(t *testing.T) {
			dir := t.TempDir()
			holds := holdsSession(t, w, dir, outPath(f, dir), 600)
			if declared := format.TraitsOf(f).HoldsSession; holds != declared {
				t.Errorf("the writer holds the session: %v; its Traits.HoldsSession: %v", holds, declared)
			}
			if registry.Streams(f.Name()) == holds {
				t.Errorf("registry.Streams(%s) = %v for a writer that holds the session: %v", f.Name(), registry.Streams(f.Name()), holds)
			}
		})
	}
}

// linesWriter writes one line per entry into the file out, as it reads
// them, or, when it holds, after it has read them all.
type linesWriter struct{ holds bool }

func (l linesWriter) Write(r session.Reader, out string, _ format.WriteOptions) ([]string, error) {
	f, err := os.Create(out)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var held []string
	for {
		e, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		line := e.ID + " " + e.Message.Content[0].Text + "\n"
		if l.holds {
			held = append(held, line)
		} else if _, err := f.WriteString(line); err != nil {
			return nil, err
		}
	}
	for _, line := range held {
		if _, err := f.WriteString(line); err != nil {
			return nil, err
		}
	}
	return []string{out}, nil
}

// The measure tells a writer that holds the session from one that
// streams it.
func TestHoldsSessionMeasure(t *testing.T) {
	for _, holds := range []bool{false, true} {
		dir := t.TempDir()
		if got := holdsSession(t, linesWriter{holds: holds}, dir, filepath.Join(dir, "out"), 100); got != holds {
			t.Errorf("a writer that holds: %v is measured as holding: %v", holds, got)
		}
	}
}

// probes are, for each write option a layout declares, a session and a
// value of the option that make a writer reading it write something else
// than without it. A new option needs its probe here.
var probes = map[string]struct {
	value string
	text  func(i int) string
}{
	"project": {"probe-project", func(i int) string { return fmt.Sprintf("m%d", i) }},
	// A message longer than goat reads is refused without the option and
	// cut with it.
	goat.OptTruncate: {"true", func(i int) string {
		if i == 2 {
			return strings.Repeat("a", goat.MaxLine+1)
		}
		return fmt.Sprintf("m%d", i)
	}},
}

// writeWith converts a session of text into a new directory, with the
// option values v handed to the writer as they are (not only those it
// declares), and returns the files written, by path relative to it, and
// the losses counted; or the error.
func writeWith(t *testing.T, f format.Format, text func(int) string, v format.OptionValues) (map[string]string, []loss.Item, error) {
	t.Helper()
	dir := t.TempDir()
	lost := &loss.Counter{}
	if _, err := convert.Write(f, newChat(4, text, nil), outPath(f, dir), format.WriteOptions{Options: v}, lost); err != nil {
		return nil, nil, err
	}
	files := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		rel, _ := filepath.Rel(dir, p)
		files[rel] = string(b)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return files, lost.Items(), nil
}

// A writer option is declared by exactly the layouts whose writers read
// it: handed the option, a writer that declares it writes (or refuses)
// something else than without it, and one that does not declare it writes
// the same. convert hands a writer only the options it declares, so an
// option read but not declared would never reach it.
func TestWriteOptionsDeclaredByTheirReaders(t *testing.T) {
	opts := registry.WriteOptions()
	if len(opts) == 0 {
		t.Fatal("no layout declares a write option")
	}
	for _, o := range opts {
		p, ok := probes[o.Name]
		if !ok {
			t.Errorf("option %q has no probe in this test", o.Name)
			continue
		}
		for _, f := range registry.All {
			if _, ok := f.(format.Writer); !ok {
				continue
			}
			without, lostWithout, errWithout := writeWith(t, f, p.text, nil)
			with, lostWith, errWith := writeWith(t, f, p.text, format.OptionValues{o.Name: p.value})
			reads := fmt.Sprint(errWithout) != fmt.Sprint(errWith) || !cmp.Equal(without, with) || !cmp.Equal(lostWithout, lostWith)
			if declares := slices.Contains(o.Layouts, f.Name()); reads != declares {
				t.Errorf("--%s: %s's writer reads it: %v (without: %v, with: %v); declares it: %v", o.Name, f.Name(), reads, errWithout, errWith, declares)
			}
		}
	}
}
