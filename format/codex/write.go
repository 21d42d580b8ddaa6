package codex

import (
	"bufio"
	"fmt"
	"io"
	"time"

	"github.com/sesstool/sesstool/format"
	"github.com/sesstool/sesstool/format/spell"
	"github.com/sesstool/sesstool/jsonx"
	"github.com/sesstool/sesstool/session"
)

// CLIVersion is the Codex release whose rollouts sesstool writes: every
// line it writes passes that release's own schema (RolloutLine.json).
const CLIVersion = "0.169.0"

// Write writes one session to the file out (created; replaced only with
// opt.Force) and returns its path. Codex finds a rollout under
// $CODEX_HOME/sessions/YYYY/MM/DD/ (RolloutPath names it).
func (f Format) Write(r session.Reader, out string, opt format.WriteOptions) ([]string, error) {
	return format.WriteFile(Name, out, r, opt, f.WriteTo)
}

// WriteTo writes one session to w as a rollout, line by line. A session
// read from a rollout gives back its lines byte for byte (the TypeScript
// era's document is written as the rollout Codex writes now); one from
// another layout, adapted to the caps first (convert.For), is spelt as
// Codex 0.169 does.
func (f Format) WriteTo(w io.Writer, r session.Reader, opt format.WriteOptions) error {
	defer r.Close()
	bw := bufio.NewWriterSize(w, 1<<16)
	enc := newEncoder(bw, r.Meta())
	if err := enc.header(); err != nil {
		return err
	}
	err := session.Each(r, enc.entry)
	if err == nil {
		err = enc.err
	}
	if err != nil {
		return err
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("write: %w", err)
	}
	return nil
}

// RolloutPath is where Codex looks for the session meta describes, under
// its home: sessions/YYYY/MM/DD/rollout-YYYY-MM-DDThh-mm-ss-<uuid>.jsonl,
// from the session's creation time (UTC; the Unix epoch, as the header
// says, when it has none) and its id as the writer spells it.
func RolloutPath(m *session.Meta) string {
	t := m.Created.T.UTC()
	if m.Created.T.IsZero() {
		t = time.Unix(0, 0).UTC()
	}
	return fmt.Sprintf("%s/%04d/%02d/%02d/rollout-%s-%s.jsonl", SessionsDir, t.Year(), t.Month(), t.Day(), t.Format("2006-01-02T15-04-05"), SessionID(m))
}

// Place is where convert writes a session into a directory, which is then
// a Codex home: its RolloutPath, so Codex lists it as it is.
func (Format) Place(m *session.Meta) string { return RolloutPath(m) }

// SessionID is the id a session is written under: its own when it is a
// UUID (Codex's thread ids are), else one derived from it (package spell).
func SessionID(m *session.Meta) string { return spell.SessionID(caps.IDs, m, 0) }

// native reports whether e was read from a rollout line this writer can
// give back as it was.
func native(e *session.Entry) bool { return e.Origin == Name && len(e.Raw) > 0 }

// wrap is a response item of the TypeScript era's document as a line.
func wrap(ts string, item []byte) []byte {
	var o jsonx.Obj
	o.Str("timestamp", ts).Str("type", "response_item").Raw("payload", item)
	return o.Bytes()
}
