package model

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"

	"github.com/sesstool/sesstool/atomicfile"
	"github.com/sesstool/sesstool/format"
	"github.com/sesstool/sesstool/loss"
	"github.com/sesstool/sesstool/session"
)

// Write dumps one session to the file out (created; replaced only with
// opt.Force) and returns its path.
func (f Format) Write(r session.Reader, out string, opt format.WriteOptions) ([]string, error) {
	if fi, err := os.Stat(out); err == nil && fi.IsDir() {
		r.Close()
		return nil, fmt.Errorf("write %s: is a directory (a model dump is one file per session)", out)
	}
	af, err := atomicfile.Create(out, 0o644, opt.Force)
	if err != nil {
		r.Close()
		return nil, err
	}
	if err := f.WriteTo(af, r, opt); err != nil {
		af.Abort()
		return nil, fmt.Errorf("write %s: %w", out, err)
	}
	if err := af.Commit(); err != nil {
		return nil, err
	}
	return []string{out}, nil
}

// WriteTo dumps one session to w, streaming: the meta line, then each entry
// as the reader yields it. The dump has a slot for everything the model
// holds, Extras included; of what it leaves out (source bytes, a layout's
// Private note on its own spelling) only what a note says the model has no
// slot for (an OpenCode side file, an ash history line's own members) is
// counted as lost.
func (Format) WriteTo(w io.Writer, r session.Reader, opt format.WriteOptions) error {
	defer r.Close()
	bw := bufio.NewWriterSize(w, 1<<16)
	enc := newEncoder(bw)
	meta := r.Meta()
	if err := enc.Encode(encodeMeta(meta)); err != nil {
		return fmt.Errorf("meta: %w", err)
	}
	opt.Loss.Drop(loss.SessionField, "the model has no slot for what the layout keeps beside its members", meta.Unmodelled())
	n := 0
	err := session.Each(r, func(e *session.Entry) error {
		n++
		countUnmodelled(opt.Loss, e)
		if err := enc.Encode(encodeEntry(e, meta.Origin)); err != nil {
			return fmt.Errorf("entry %d (id %q): %w", n, e.ID, err)
		}
		return nil
	})
	if err != nil {
		return err
	}
	return bw.Flush()
}

// countUnmodelled counts what a layout's notes on e keep that the model
// has no slot for: Extras are dumped, the notes are not.
func countUnmodelled(lost *loss.Counter, e *session.Entry) {
	lost.Drop(loss.EntryField, "the model has no slot for what the layout keeps beside its members", e.Unmodelled())
	if e.Message != nil {
		for i := range e.Message.Content {
			lost.Drop(loss.BlockField, "the model has no slot for what the layout keeps beside its members", e.Message.Content[i].Unmodelled())
		}
	}
}

// newEncoder writes one compact object per line and leaves <, > and & as
// they are: a dump is read by people and jq, not pasted into HTML.
func newEncoder(w io.Writer) *json.Encoder {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	return enc
}

// Dump returns the whole dump of a session held in memory (tests, and
// callers that want the bytes).
func Dump(s *session.Session) ([]byte, error) {
	var b bytes.Buffer
	if err := (Format{}).WriteTo(&b, &session.SliceReader{S: s}, format.WriteOptions{}); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}
