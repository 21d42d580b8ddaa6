package qwen

import (
	"bufio"
	"fmt"
	"io"

	"github.com/sesstool/sesstool/exitcode"
	"github.com/sesstool/sesstool/format"
	"github.com/sesstool/sesstool/format/spell"
	"github.com/sesstool/sesstool/jsonx"
	"github.com/sesstool/sesstool/session"
	"github.com/tidwall/gjson"
)

// WriteVersion is the Qwen Code version a session from another layout is
// written as: the one whose records this layout spells.
const WriteVersion = "0.24.4"

// Write writes one session to the file out (created; replaced only with
// opt.Force) and returns its path. Into a Qwen Code home, convert files it
// at Place.
func (f Format) Write(r session.Reader, out string, opt format.WriteOptions) ([]string, error) {
	return format.WriteFile(Name, out, r, opt, f.WriteTo)
}

// WriteTo writes one session to w as Qwen Code JSONL. A session read from
// a Qwen Code file gives back its lines byte for byte (each merged with
// what the model holds of it); one from another layout is put on its
// active path and spelt as Qwen Code 0.24.4 records it.
func (f Format) WriteTo(w io.Writer, r session.Reader, opt format.WriteOptions) error {
	defer r.Close()
	bw := bufio.NewWriterSize(w, 1<<16)
	enc := newEncoder(bw, r.Meta(), opt, true)
	if err := session.Each(r, enc.entry); err != nil {
		return err
	}
	enc.finish()
	if enc.err != nil {
		return enc.err
	}
	if !enc.conv {
		// Qwen Code lists a session by its records and resumes its
		// conversation: a file of system records alone (or none) is one
		// validate refuses (no-conversation), so it is refused here, before
		// anything reaches the file.
		return &exitcode.Error{Code: exitcode.Invalid, Err: fmt.Errorf("session %s: %w: Qwen Code keeps a session for its conversation, and this session has no user, assistant or tool message it can hold", enc.meta.ID, format.ErrNothingToWrite)}
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("write: %w", err)
	}
	return nil
}

type encoder struct {
	w     *bufio.Writer
	meta  *session.Meta
	ids   *spell.IDs
	sid   string
	cwd   string
	opt   format.WriteOptions
	merge bool // false in tests that prove the model alone holds everything
	err   error
	// last is the uuid of the last line written: a line of another
	// layout's session (a linear path) hangs from it.
	last string
	n    int // lines written
	// conv is set once a user, assistant or tool_result line is written:
	// the line validate's no-conversation rule asks for
	conv bool
	// held is an assistant line of another layout's session that calls
	// tools, written once the next entry is known (hold)
	held *heldLine
	// parts are the tool messages read so far of a line answering
	// several calls, written as the one line once the last is read
	parts []*session.Entry
}

func newEncoder(w *bufio.Writer, m *session.Meta, opt format.WriteOptions, merge bool) *encoder {
	enc := &encoder{w: w, meta: m, ids: spell.NewIDs(caps.IDs, m, 0), cwd: cwdOf(m), opt: opt, merge: merge}
	enc.sid = SessionID(m)
	return enc
}

func (enc *encoder) line(raw, canon []byte) {
	if enc.err != nil {
		return
	}
	out := canon
	if enc.merge && len(raw) > 0 {
		out = jsonx.Merge(raw, canon)
	}
	if _, err := enc.w.Write(out); err != nil {
		enc.err = err
		return
	}
	enc.err = enc.w.WriteByte('\n')
	enc.n++
	if !enc.conv {
		switch gjson.GetBytes(out, "type").String() {
		case "user", "assistant", "tool_result":
			enc.conv = true
		}
	}
}

func (enc *encoder) entry(e *session.Entry) error {
	if e.Origin == Name {
		enc.own(e)
	} else {
		enc.foreign(e)
	}
	return enc.err
}

// own writes a line this layout read: its source bytes merged with what
// the model holds of it.
func (enc *encoder) own(e *session.Entry) {
	enc.flush()
	nt := noteOf(e.Private)
	switch {
	case e.Kind == session.KindMessage && e.Message != nil && nt != nil && nt.group != nil:
		enc.parts = append(enc.parts, e)
		if nt.index < nt.group.n-1 {
			return
		}
		enc.toolLine(enc.parts, nt)
		enc.parts = nil
	case e.Kind == session.KindMessage && e.Message != nil:
		l := enc.ownEnvelope(e, nt)
		enc.line(e.Raw, encodeMessage(e, l, nt, gjson.GetBytes(e.Raw, "usageMetadata")))
	case e.Kind == session.KindSessionInfo && e.Custom != nil:
		if gjson.GetBytes(e.Custom.Data, "systemPayload.customTitle").String() == e.Title {
			enc.line(nil, e.Custom.Data)
		} else {
			enc.line(nil, retitle(e.Custom.Data, e.Title))
		}
	case e.Custom != nil:
		// system records and compactions: as they were
		enc.line(nil, e.Custom.Data)
	default:
		enc.foreign(e)
		return
	}
	enc.last = e.ID
}

// toolLine writes the tool_result line the tool messages ps were read
// from: the envelope and extras of the last, the parent of the first, one
// functionResponse part each.
func (enc *encoder) toolLine(ps []*session.Entry, nt *note) {
	last := ps[len(ps)-1]
	l := enc.ownEnvelope(last, nt)
	l.parent = ps[0].ParentID
	var o jsonx.Obj
	l.start(&o)
	for _, f := range last.Extra {
		o.Extra(f.Key, f.Value)
	}
	o.Append("message", func(dst []byte) []byte {
		m := jsonx.ObjAt(dst)
		m.Str("role", "user")
		m.Append("parts", func(dst []byte) []byte {
			dst = append(dst, '[')
			for i, p := range ps {
				if i > 0 {
					dst = append(dst, ',')
				}
				pn := noteOf(p.Private)
				dst = appendResponsePart(dst, p.Message.ToolCallID, p.Message.ToolName, p.Message.Text(), p.Message.IsError, pn != nil && pn.responseRaw)
			}
			return append(dst, ']')
		})
		return m.Bytes()
	})
	enc.line(last.Raw, o.Bytes())
}

// ownEnvelope is the envelope of a line this layout read.
func (enc *encoder) ownEnvelope(e *session.Entry, nt *note) envelope {
	l := envelope{uuid: e.ID, parent: e.ParentID, session: enc.meta.ID, time: e.Time.Raw, typ: e.Type,
		cwd: enc.meta.Cwd, version: enc.meta.Version, members: map[string]bool{}}
	if nt != nil {
		l.noParent, l.noTime, l.noMessage = nt.noParent, nt.noTime, nt.noMessage
		for _, k := range nt.omitted {
			l.members[k] = true
		}
	}
	if l.time == "" && !e.Time.T.IsZero() {
		l.time = spell.ISO(e.Time.T)
	}
	return l
}

// heldLine is an assistant turn that calls tools, waiting for its
// results: the lines are written once every call is answered.
type heldLine struct {
	e       *session.Entry
	l       envelope
	open    map[string]bool // its calls not answered yet
	results []heldLine      // the tool messages answering them, in order
}

// hold takes e into the held turn when it belongs there. Qwen Code (as
// the APIs it speaks) answers a turn's calls right after the turn, and
// fills in a failure for a call it finds unanswered there. convert.Adapt has
// joined to the turn the assistant messages among its results
// (TurnJoinsWhy); a result of one of its calls waits with it, and the turn
// is written when every call is answered, or by the first entry of another
// kind.
func (enc *encoder) hold(e *session.Entry, l envelope) bool {
	h := enc.held
	if h == nil || e.Kind != session.KindMessage || e.Message == nil {
		enc.flush()
		return false
	}
	switch m := e.Message; {
	case m.Role == session.RoleAssistant && len(h.open) > 0:
		// convert.Adapt joins such a message to the turn (TurnJoinsWhy)
		if enc.err == nil {
			enc.err = fmt.Errorf("session %s: entry %q: an assistant message among the results of a turn's calls, which Qwen Code cannot record", enc.meta.ID, e.ID)
		}
		return true
	case m.Role == session.RoleTool && h.open[m.ToolCallID]:
		delete(h.open, m.ToolCallID)
		h.results = append(h.results, heldLine{e: e, l: l})
		if len(h.open) == 0 {
			enc.flush()
		}
		return true
	}
	enc.flush()
	return false
}

// flush writes the held turn and the results that came with it.
func (enc *encoder) flush() {
	h := enc.held
	if h == nil {
		return
	}
	enc.held = nil
	for _, x := range append([]heldLine{{e: h.e, l: h.l}}, h.results...) {
		x.l.parent = enc.last
		enc.line(nil, encodeMessage(x.e, x.l, nil, gjson.Result{}))
		enc.last = x.l.uuid
	}
}

// foreign writes an entry of another layout's session as a new line
// hanging from the line before.
func (enc *encoder) foreign(e *session.Entry) {
	l := envelope{parent: enc.last, session: enc.sid, cwd: enc.cwd, version: WriteVersion,
		members: map[string]bool{"sessionId": true, "cwd": true, "version": true}}
	if e.ID != "" {
		l.uuid = enc.ids.Of(e.ID)
	} else {
		l.uuid = enc.ids.Mint(enc.n)
	}
	t := e.Time.T
	if t.IsZero() {
		t = enc.meta.Created.T
	}
	l.time = spell.ISO(t)
	if enc.held != nil {
		if e.Kind == session.KindMessage && e.Message != nil {
			c, cl := enc.prepare(e, l)
			if enc.hold(c, cl) {
				return
			}
		} else {
			enc.flush()
		}
		l.parent = enc.last
	}
	switch {
	case e.Kind == session.KindSessionInfo:
		l.typ, l.provenance = "system", "system"
		enc.line(nil, encodeTitle(l, e.Title))
	case e.Kind == session.KindCompaction && e.Message != nil:
		// the summary of another layout, as the user line convert.Adapt made
		// it (CompactionAsUser), marked isCompactSummary
		c := *e
		c.Extra = session.Extras{{Key: compactMark, Value: []byte("true")}}
		enc.foreignMessage(&c, l)
	case e.Message != nil:
		enc.foreignMessage(e, l)
		if enc.held != nil {
			return // its line is written, and becomes the last, with the next entry
		}
	default:
		// convert.Adapt drops what Qwen Code has no line for (NoLineWhy)
		if enc.err == nil {
			enc.err = fmt.Errorf("session %s: entry %q: Qwen Code has no line for a %s entry like it", enc.meta.ID, e.ID, e.Kind)
		}
		return
	}
	enc.last = l.uuid
}

func (enc *encoder) foreignMessage(e *session.Entry, l envelope) {
	c, l := enc.prepare(e, l)
	calls := false
	for _, b := range c.Message.Content {
		calls = calls || b.Type == session.BlockToolCall
	}
	if calls && c.Message.Role == session.RoleAssistant {
		h := &heldLine{e: c, l: l, open: map[string]bool{}}
		for _, b := range c.Message.Content {
			if b.Type == session.BlockToolCall {
				h.open[b.ToolCallID] = true
			}
		}
		enc.held = h
		return
	}
	enc.line(nil, encodeMessage(c, l, nil, gjson.Result{}))
}

// prepare is a message of another layout as this layout spells it: the
// line's type, and none of the source's members the model has no slot for.
func (enc *encoder) prepare(e *session.Entry, l envelope) (*session.Entry, envelope) {
	switch e.Message.Role {
	case session.RoleAssistant:
		l.typ, l.provenance = "assistant", "assistant_output"
		l.noMessage = len(e.Message.Content) == 0
	case session.RoleTool:
		l.typ, l.provenance = "tool_result", "tool_result"
	default:
		l.typ, l.provenance = "user", "real_user"
	}
	c := *e
	c.Extra = nil // counted lost by convert.Adapt; never spelt as Qwen's
	if e.Kind == session.KindCompaction {
		c.Extra = e.Extra // the mark of a compaction summary
	}
	m := *e.Message
	m.Extra, m.SourceRole = nil, ""
	if u := m.Usage; u != nil && u.CacheWrite != 0 {
		// Gemini's usage has no cache-write count: it is input
		// (caps: CacheWriteAsInput)
		c := *u
		c.Input, c.CacheWrite = u.Input+u.CacheWrite, 0
		m.Usage = &c
	}
	if m.Role == session.RoleAssistant && m.Model == "" {
		m.Model = enc.meta.Model
	}
	c.Message = &m
	return &c, l
}

// finish writes what comes after the entries: the title of a session from
// another layout, where Qwen Code looks for it (the file's tail).
func (enc *encoder) finish() {
	enc.flush()
	if enc.meta.Origin == Name || enc.meta.Title == "" || enc.err != nil {
		return
	}
	l := envelope{parent: enc.last, session: enc.sid, cwd: enc.cwd, version: WriteVersion, typ: "system", provenance: "system",
		uuid: enc.ids.Mint(enc.n), time: spell.ISO(enc.meta.Updated.T), members: map[string]bool{"sessionId": true, "cwd": true, "version": true}}
	if enc.meta.Updated.T.IsZero() {
		l.time = spell.ISO(enc.meta.Created.T)
	}
	enc.line(nil, encodeTitle(l, enc.meta.Title))
}
