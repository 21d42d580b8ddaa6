package format

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sesstool/sesstool/jsonl"
	"github.com/sesstool/sesstool/session"
)

// headerReader is the smallest JSON Lines reader: its start reads the
// first line as the session id and refuses "bad".
type headerReader struct {
	*Lines
	meta session.Meta
}

func (r *headerReader) Meta() *session.Meta { return &r.meta }

func (r *headerReader) Next() (*session.Entry, error) {
	l, err := r.NextNonBlank()
	if err != nil {
		return nil, err
	}
	return &session.Entry{ID: string(l.Bytes), Source: session.Source{Line: l.N}}, nil
}

func startHeader(l *Lines) (*headerReader, error) {
	first, err := l.NextNonBlank()
	if err != nil {
		return nil, err
	}
	if string(first.Bytes) == "bad" {
		return nil, errors.New(l.Name + ": bad header")
	}
	return &headerReader{Lines: l, meta: session.Meta{ID: string(first.Bytes)}}, nil
}

// TestLinesStartUp: the three ways a JSON Lines reader starts (a file, the
// validator's feed, a stream) all hand the start function the same lines
// and name, give a nil reader when it fails, and release what they hold:
// the file is closed and the feed stopped.
func TestLinesStartUp(t *testing.T) {
	for _, c := range []struct {
		name, text string
		ok         bool
	}{
		{"good", "s1\n\ne1\ne2\n", true},
		{"bad header", "bad\ne1\n", false},
		{"empty", "", false},
	} {
		path := filepath.Join(t.TempDir(), "s.jsonl")
		if err := os.WriteFile(path, []byte(c.text), 0o644); err != nil {
			t.Fatal(err)
		}
		feed := jsonl.NewFeed(4)
		var lines []jsonl.Line
		for i, l := range strings.Split(strings.TrimSuffix(c.text, "\n"), "\n") {
			if l != "" {
				lines = append(lines, jsonl.Line{Bytes: []byte(l), N: i + 1})
			}
		}
		if len(lines) > 0 {
			feed.Send(lines) // room for four batches: it does not block
		}
		ended := c.name != "bad header" // left open, so only a stop can refuse the next batch
		if ended {
			feed.End(nil)
		}
		for _, open := range []struct {
			how  string
			open func() (session.Reader, error)
		}{
			{"file", func() (session.Reader, error) { return OpenLines(Ref{Path: path}, startHeader) }},
			{"feed", func() (session.Reader, error) { return TeeLines(Ref{Path: path}, feed, startHeader) }},
			{"stream", func() (session.Reader, error) { return ReadLines(path, strings.NewReader(c.text), startHeader) }},
		} {
			r, err := open.open()
			if !c.ok {
				if err == nil || r != nil {
					t.Errorf("%s, %s: reader %v, error %v; want no reader and an error", c.name, open.how, r, err)
				}
				continue
			}
			if err != nil {
				t.Fatalf("%s, %s: %v", c.name, open.how, err)
			}
			var ids []string
			if err := session.Each(r, func(e *session.Entry) error { ids = append(ids, e.ID); return nil }); err != nil {
				t.Fatalf("%s, %s: %v", c.name, open.how, err)
			}
			if got := r.Meta().ID + " " + strings.Join(ids, " "); got != "s1 e1 e2" {
				t.Errorf("%s, %s: read %q, want %q", c.name, open.how, got, "s1 e1 e2")
			}
			if err := r.Close(); err != nil {
				t.Errorf("%s, %s: close: %v", c.name, open.how, err)
			}
		}
		// a reader that failed to start stops the feed, so its filler (the
		// validation) sends no more and does not wait for it
		if !ended && feed.Send([]jsonl.Line{{Bytes: []byte("late"), N: 9}}) {
			t.Errorf("%s: the feed still takes lines after its reader failed", c.name)
		}
	}
}
