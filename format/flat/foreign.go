package flat

import (
	"bufio"
	"fmt"

	"github.com/sesstool/sesstool/exitcode"
	"github.com/sesstool/sesstool/format/spell"

	"github.com/sesstool/sesstool/format"
	"github.com/sesstool/sesstool/session"
)

// A session from another layout is written as the agent would have: linear
// (the active path only), 8-hex ids chained by parent_id from "", and only
// what flat can hold. The adaptation (convert.For) removes everything else
// and counts it in the loss report, by flat's caps.

// writeForeign writes a session convert.Adapt has adapted for flat (the
// active path, the roles flat has): the writer is handed it adapted
// (convert.For).
func writeForeign(w *bufio.Writer, r session.Reader) error {
	m := *r.Meta()
	meta := m
	ids := spell.NewIDs(caps.IDs, &m, 0)
	meta.ID = ids.Session()
	fs := newForeignState(ids)
	format.PathIDs(r, func(id string) {
		if ids.Keeps(id) {
			fs.ids.reserve(id) // keep pi-style ids; never derive them for another entry
		}
	})
	lw := &lineWriter{w: w}
	started := false
	start := func(first *session.Entry) {
		started = true
		created := m.Created
		if created.T.IsZero() && first != nil {
			created = first.Time
		}
		if created.T.IsZero() {
			lw.err = &exitcode.Error{Code: exitcode.Invalid, Err: fmt.Errorf("session %s: %w: flat times every line", m.ID, format.ErrNoTime)}
			return
		}
		fs.lastTime = created
		fs.header(lw, &meta, m.Parent, created)
	}
	err := session.Each(r, func(e *session.Entry) error {
		if !started {
			start(e)
		}
		fs.emit(lw, e)
		return lw.err
	})
	if err != nil {
		return err
	}
	if !started {
		start(nil)
	}
	return lw.err
}

// header writes the header line and, for a session forked from another,
// the branch line.
func (s *foreignState) header(lw *lineWriter, meta *session.Meta, parent *session.Parent, created session.Time) {
	lw.line(nil, encodeHeader(meta, "1", session.Time{T: created.T}, false))
	if p := parent; p != nil && p.Path != "" && p.EntryID != "" {
		branch := *p
		branch.ID = s.newID("", false)
		if branch.Time.T.IsZero() {
			branch.Time = created
		}
		lw.line(nil, encodeBranch(&branch, false))
	}
}

// foreignState carries the chain across written lines.
type foreignState struct {
	restyle   *spell.IDs  // flat's form of ids
	ids       idTable     // ids taken in the output, reserved, and source id -> written id
	toolNames toolNames   // tool call id -> tool name, for results that lack one
	calls     spell.Calls // for a compaction that keeps the entry before it
	last      string      // the previous written entry's id ("" before the first)
	lastTime  session.Time
	lines     int
}

func newForeignState(ids *spell.IDs) *foreignState {
	// a compaction keeps the entry written last, never an earlier one
	return &foreignState{restyle: ids, lines: 1, calls: spell.Calls{OnlyLast: true}}
}

// newID keeps an unused 8-hex source id, else derives one.
func (s *foreignState) newID(src string, kept bool) string {
	s.lines++
	id := src
	if !kept || !s.restyle.Keeps(src) || s.ids.get(src) != "" || s.ids.has(src) {
		id = s.restyle.Nth(s.lines, func(c string) bool { return s.ids.has(c) || s.ids.reserved(c) })
	}
	s.ids.add(id)
	if src != "" && s.ids.get(src) == "" {
		s.ids.set(src, id)
	}
	return id
}

func (s *foreignState) when(t session.Time) session.Time {
	if t.T.IsZero() {
		return s.lastTime
	}
	s.lastTime = t
	return t
}

// emit writes the lines one model entry becomes in flat: one, or (for
// ash's tool_result blocks) several. The adaptation (convert.For) removes
// what flat has no line for (Caps.CustomMessages, NoLineWhy, ResultsNeedCall,
// FirstKeptEarlier): an entry that still holds it is an error naming it.
func (s *foreignState) emit(lw *lineWriter, e *session.Entry) {
	if lw.err != nil {
		return
	}
	switch {
	case e.Kind == session.KindMessage && e.Message != nil:
		s.emitMessage(lw, e)
	case e.Kind == session.KindCompaction && e.Compaction != nil:
		s.emitCompaction(lw, e)
	default:
		lw.err = unadapted(e, "flat has no line for a "+string(e.Kind)+" entry")
	}
}

// unadapted is the error for an entry holding what the adaptation removes
// from a session of another layout.
func unadapted(e *session.Entry, why string) error {
	return fmt.Errorf("entry %q: %s", e.ID, why)
}

// emitCompaction writes a compaction naming the entry it keeps: the one
// the source names, written before it, or where the adaptation left it
// none (Caps.FirstKeptEarlier), the entry before it, a tool result's call's
// message.
func (s *foreignState) emitCompaction(lw *lineWriter, e *session.Entry) {
	c := e.Compaction
	var first string
	switch {
	case c.FirstKeptID != "":
		first = s.ids.get(c.FirstKeptID)
	case s.last != "":
		first = s.calls.Kept(s.last)
	}
	if first == "" {
		lw.err = unadapted(e, "flat's compaction must name an entry written before it")
		return
	}
	id := s.newID(e.ID, true)
	lw.line(nil, encodeCompaction(e, id, s.last, first, s.when(e.Time), false))
	s.last = id
}

func (s *foreignState) emitMessage(lw *lineWriter, e *session.Entry) {
	m := e.Message
	msg, results, err := s.convertMessage(m)
	if err == nil && msg != nil && msg.Role == session.RoleTool && !s.toolNames.has(msg.ToolCallID) {
		err = fmt.Errorf("its tool call %q is not written before it", msg.ToolCallID)
	}
	for _, r := range results {
		if err == nil && !s.toolNames.has(r.ToolCallID) {
			err = fmt.Errorf("the call of its tool result %q is not written before it", r.ToolCallID)
		}
	}
	if err != nil {
		lw.err = unadapted(e, err.Error())
		return
	}
	when := s.when(e.Time)
	if msg != nil {
		out := *e
		out.Message = msg
		id := s.newID(e.ID, true)
		lw.messageLine(nil, &out, id, s.last, when, false)
		s.last = id
		s.calls.Add(&out, id)
	}
	for _, r := range results {
		out := session.Entry{Kind: session.KindMessage, Message: r}
		id := s.newID("", false)
		if msg == nil && e.ID != "" && s.ids.get(e.ID) == "" {
			s.ids.set(e.ID, id)
		}
		lw.messageLine(nil, &out, id, s.last, when, false)
		s.last = id
		s.calls.Add(&out, id)
	}
}

// convertMessage returns what flat can hold of m, and one tool_result
// message per tool result block (ash keeps results inside a user message).
func (s *foreignState) convertMessage(m *session.Message) (*session.Message, []*session.Message, error) {
	out := &session.Message{Role: m.Role, Time: session.Time{T: m.Time.T}, Model: m.Model, Provider: m.Provider,
		Usage: m.Usage, StopReason: m.StopReason, Error: m.Error, ToolCallID: m.ToolCallID, ToolName: m.ToolName, IsError: m.IsError}
	var results []*session.Message
	out.Content = make([]session.Block, 0, len(m.Content)) // allocated once: a block is some 300 bytes
	for i := range m.Content {
		b := &m.Content[i]
		switch b.Type {
		case session.BlockToolResult:
			results = append(results, &session.Message{Role: session.RoleTool, ToolCallID: b.ToolCallID, ToolName: s.toolNames.get(b.ToolCallID),
				IsError: b.IsError, Content: []session.Block{{Type: session.BlockText, Text: b.Text}}, Time: out.Time})
			continue
		case session.BlockToolCall:
			s.toolNames.put(b.ToolCallID, b.ToolName)
		}
		nb, err := convertBlock(b)
		if err != nil {
			return nil, nil, err
		}
		out.Content = append(out.Content, nb)
	}
	if m.Role == session.RoleTool && out.ToolName == "" {
		out.ToolName = s.toolNames.get(out.ToolCallID)
	}
	if m.Role == session.RoleAssistant {
		out.StopReason = s.stopReason(m)
	}
	if len(results) > 0 && len(out.Content) == 0 && m.Role == session.RoleUser {
		return nil, results, nil
	}
	return out, results, nil
}

// convertBlock is b as flat holds it; the adaptation drops every block
// flat neither holds nor converts.
func convertBlock(b *session.Block) (session.Block, error) {
	out := session.Block{Type: b.Type}
	switch b.Type {
	case session.BlockText:
		out.Text = b.Text
	case session.BlockThinking:
		out.Text = b.Text
	case session.BlockImage, session.BlockFile:
		// inline data only, without a file name (convert.Adapt: caps.ImagesInline, ImageFileName)
		out.Type, out.Data, out.MimeType = session.BlockImage, b.Data, b.MimeType
	case session.BlockToolCall:
		out.ToolCallID, out.ToolName, out.Arguments = b.ToolCallID, b.ToolName, b.Arguments
	default:
		return out, fmt.Errorf("flat has no %s blocks", b.Type)
	}
	return out, nil
}

// stopReason maps other layouts' spellings onto flat's five values, which
// are spell's neutral ones.
func (s *foreignState) stopReason(m *session.Message) string {
	r, _ := spell.Stop(m) // flattened to the neutral set by convert.Adapt (caps.Stops)
	return r
}
