package model

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"

	"github.com/sesstool/sesstool/format"
	"github.com/sesstool/sesstool/session"
)

// Write dumps one session to the file out (created; replaced only with
// opt.Force) and returns its path.
func (f Format) Write(r session.Reader, out string, opt format.WriteOptions) ([]string, error) {
	return format.WriteFile(Name, out, r, opt, f.WriteTo)
}

// WriteTo dumps one session to w, streaming: the meta line, then each entry
// as the reader yields it. The dump has a slot for everything the model
// holds, Extras included; what a layout keeps of its source outside the
// model (Source.Unmodelled) it cannot show, and convert's stage counts
// that (convert.For). Source bytes and a layout's notes on its own spelling
// are no content of the session.
func (Format) WriteTo(w io.Writer, r session.Reader, opt format.WriteOptions) error {
	defer r.Close()
	bw := bufio.NewWriterSize(w, 1<<16)
	enc := newEncoder(bw)
	meta := r.Meta()
	if err := enc.Encode(encodeMeta(meta)); err != nil {
		return fmt.Errorf("meta: %w", err)
	}
	n := 0
	err := session.Each(r, func(e *session.Entry) error {
		n++
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
