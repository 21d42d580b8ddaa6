package format

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sesstool/sesstool/session"
)

// closer is a session.Reader with no entries that records its Close.
type closer struct{ closed bool }

func (c *closer) Meta() *session.Meta           { return &session.Meta{} }
func (c *closer) Next() (*session.Entry, error) { return nil, io.EOF }
func (c *closer) Close() error                  { c.closed = true; return nil }

func TestWriteFile(t *testing.T) {
	write := func(w io.Writer, r session.Reader, _ WriteOptions) error {
		defer r.Close()
		_, err := io.WriteString(w, "line\n")
		return err
	}
	fail := func(w io.Writer, r session.Reader, _ WriteOptions) error {
		defer r.Close()
		io.WriteString(w, "part")
		return errors.New("broken")
	}
	for _, c := range []struct {
		name    string
		setup   func(dir string) string // returns out
		force   bool
		writeTo func(io.Writer, session.Reader, WriteOptions) error
		wantErr string // "" for success
		want    string // the file's bytes afterwards
	}{
		{"new file", func(d string) string { return filepath.Join(d, "s.jsonl") }, false, write, "", "line\n"},
		{"a directory", func(d string) string { return d }, false, write, "is a directory (x writes one file per session)", ""},
		{"existing, no force", func(d string) string { return existing(t, d) }, false, write, "exists", "old\n"},
		{"existing, force", func(d string) string { return existing(t, d) }, true, write, "", "line\n"},
		{"writer fails", func(d string) string { return existing(t, d) }, true, fail, "broken", "old\n"},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			out := c.setup(dir)
			r := &closer{}
			got, err := WriteFile("x", out, r, WriteOptions{Force: c.force}, c.writeTo)
			if !r.closed {
				t.Error("the reader was not closed")
			}
			if c.wantErr == "" {
				if err != nil || len(got) != 1 || got[0] != out {
					t.Fatalf("WriteFile = %v, %v; want [%s]", got, err, out)
				}
			} else if err == nil || !strings.Contains(err.Error(), c.wantErr) || !strings.Contains(err.Error(), out) {
				t.Fatalf("error %v; want one naming %s and saying %q", err, out, c.wantErr)
			}
			if c.want != "" {
				if b, _ := os.ReadFile(out); string(b) != c.want {
					t.Errorf("file holds %q, want %q", b, c.want)
				}
			}
			if ents, _ := os.ReadDir(dir); len(ents) > 1 {
				t.Errorf("left behind: %v", ents) // no temporary file survives
			}
		})
	}
}

func existing(t *testing.T, dir string) string {
	p := filepath.Join(dir, "s.jsonl")
	if err := os.WriteFile(p, []byte("old\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestOpenFile(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "none.jsonl")
	if _, err := OpenFile(Ref{Path: missing}, nil); err == nil || !strings.HasPrefix(err.Error(), "read "+missing+":") {
		t.Errorf("missing file: error %v, want one starting %q", err, "read "+missing+":")
	}
	p := existing(t, t.TempDir())
	var got io.Closer
	_, err := OpenFile(Ref{Path: p}, func(name string, r io.Reader, c io.Closer) (session.Reader, error) {
		got = c
		return nil, errors.New("not a session")
	})
	if err == nil || err.Error() != "not a session" {
		t.Fatalf("error %v, want the opener's", err)
	}
	if f, ok := got.(*os.File); !ok || f.Close() == nil {
		t.Error("the file was not closed after the opener failed")
	}
}

// A Ref's Size bounds what is read: the lines appended after the run found
// the file are not.
func TestOpenFilePrefix(t *testing.T) {
	p := filepath.Join(t.TempDir(), "s.jsonl")
	if err := os.WriteFile(p, []byte("one\ntwo\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		size int64
		want string
	}{{0, "one\ntwo\nthree\n"}, {4, "one\n"}, {8, "one\ntwo\n"}, {100, "one\ntwo\nthree\n"}} {
		if tc.size == 0 {
			// the file grows after it is found
			f, _ := os.OpenFile(p, os.O_APPEND|os.O_WRONLY, 0)
			f.WriteString("three\n")
			f.Close()
		}
		var read []byte
		_, err := OpenFile(Ref{Path: p, Size: tc.size}, func(name string, r io.Reader, c io.Closer) (session.Reader, error) {
			defer c.Close()
			var err error
			read, err = io.ReadAll(r)
			return nil, err
		})
		if err != nil {
			t.Fatal(err)
		}
		if string(read) != tc.want {
			t.Errorf("size %d: read %q, want %q", tc.size, read, tc.want)
		}
	}
}
