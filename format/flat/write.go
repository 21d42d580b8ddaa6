package flat

import (
	"bufio"
	"errors"
	"io"

	"github.com/sesstool/sesstool/format"
	"github.com/sesstool/sesstool/jsonx"
	"github.com/sesstool/sesstool/session"
)

// Write writes one session to the file out (created; replaced only with
// opt.Force) and returns its path.
func (f *Format) Write(r session.Reader, out string, opt format.WriteOptions) ([]string, error) {
	return format.WriteFile(Name, out, r, opt, f.WriteTo)
}

// WriteTo writes one session to w as flat JSONL. A session read from a flat
// file is streamed entry by entry and merged with its source bytes; one from
// another layout is flattened to its active path and given flat ids.
func (f *Format) WriteTo(w io.Writer, r session.Reader, opt format.WriteOptions) error {
	defer r.Close()
	bw := bufio.NewWriterSize(w, 1<<16)
	var err error
	if r.Meta().Origin == Name {
		err = writeNative(bw, r, true)
	} else {
		err = writeForeign(bw, r)
	}
	if err != nil {
		return err
	}
	return bw.Flush()
}

// lineWriter writes lines, merging each with its source bytes when asked.
type lineWriter struct {
	w     *bufio.Writer
	merge bool // false in tests that prove the model alone holds everything
	err   error
	buf   []byte // a message line is encoded here, reused from line to line
}

// messageLine writes a message entry's line, encoded into lw's buffer.
func (lw *lineWriter) messageLine(raw []byte, e *session.Entry, id, parent string, when session.Time, native bool) {
	lw.buf = appendMessageEntry(lw.buf[:0], e, id, parent, when, native)
	lw.line(raw, lw.buf)
}

func (lw *lineWriter) line(raw, canon []byte) {
	if lw.err != nil {
		return
	}
	out := canon
	if lw.merge && len(raw) > 0 {
		out = jsonx.Merge(raw, canon)
	}
	if _, err := lw.w.Write(out); err != nil {
		lw.err = err
		return
	}
	lw.err = lw.w.WriteByte('\n')
}

// writeNative writes a session that came from a flat file: ids, parent ids
// and spellings are the source's, so the output is the input byte for byte.
func writeNative(w *bufio.Writer, r session.Reader, merge bool) error {
	lw := &lineWriter{w: w, merge: merge}
	m := r.Meta()
	version := m.Version
	if !isIntString(version) {
		version = "1"
	}
	lw.line(m.Raw, encodeHeader(m, version, m.Created, true))
	if p := m.Parent; p != nil {
		lw.line(p.Raw, encodeBranch(p, p.Raw != nil))
	}
	for lw.err == nil {
		e, err := r.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return err
		}
		if e.Origin != Name {
			// A session of flat's own passes through the adaptation
			// untouched (convert.For), so an entry of another layout in it
			// has not been made fit for flat.
			return unadapted(e, "an entry of another layout in a session read from flat, which is written back as it was read")
		}
		if !complete(e) {
			return unadapted(e, "a flat "+string(e.Kind)+" entry without its payload")
		}
		native := true
		switch e.Kind {
		case session.KindMessage:
			lw.messageLine(e.Raw, e, e.ID, e.ParentID, e.Time, native)
		case session.KindCompaction:
			lw.line(e.Raw, encodeCompaction(e, e.ID, e.ParentID, e.Compaction.FirstKeptID, e.Time, native))
		default:
			lw.line(e.Raw, e.Custom.Data)
		}
	}
	return lw.err
}

func isIntString(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// complete reports whether e has the payload its kind needs, so a flat
// entry built by hand cannot make the writer dereference nil.
func complete(e *session.Entry) bool {
	switch e.Kind {
	case session.KindMessage:
		return e.Message != nil
	case session.KindCompaction:
		return e.Compaction != nil
	default:
		return e.Custom != nil
	}
}
