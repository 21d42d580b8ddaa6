package ash

import (
	"github.com/sesstool/sesstool/jsonx"
	"github.com/sesstool/sesstool/session"
)

// The reader's Private notes on how an ash source spelled what the model
// holds, so that ash's writer puts it back byte for byte (docs/ash.md).

// metaNote is the note on a session.
type metaNote struct {
	State     []byte // state.json, compact; nil when the session had none
	NoHistory bool   // the session had no history.jsonl
}

// entryNote is the note on an entry.
type entryNote struct {
	// History is set when the message has a history.jsonl line: that
	// line's members the writer cannot derive from the message, as an
	// object ("{}" when none).
	History []byte
	// NoASID marks a sub-agent line without agent_session_id.
	NoASID bool
	// NullTokenCount marks a message whose token_count is null (what ash
	// writes when it has none), rather than absent.
	NullTokenCount bool
}

// Unmodelled counts the members of the message's history.jsonl line that
// the model has no slot for.
func (n *entryNote) Unmodelled() int { return members(n.History) }

// callNote is the note on a tool call block.
type callNote struct {
	// NotInline marks a call that is not a block of the message content,
	// only a tool_use entry.
	NotInline bool
	// Entry marks a call that also has a tool_use entry: where it stood
	// (Slot: how many entries after its message), its members the block
	// does not say (Members, an object, "{}" when none), and the line as
	// read (Raw, for jsonx.Merge).
	Entry   bool
	Slot    int
	Members []byte
	Raw     []byte
	NoASID  bool // the tool_use line of a sub-agent has no agent_session_id
}

// Unmodelled counts the members of the tool_use line that the model has no
// slot for.
func (n *callNote) Unmodelled() int { return members(n.Members) }

func members(obj []byte) int {
	c := 0
	_ = jsonx.Members(obj, func(string, []byte) { c++ })
	return c
}

// noteOf returns ash's note of type T on src, or nil when src was not read
// from ash.
func noteOf[T any](src *session.Source) *T {
	if src.Origin != Name {
		return nil
	}
	n, _ := src.Private.(*T)
	return n
}

// entryNoteOf returns the note on e, creating it.
func entryNoteOf(e *session.Entry) *entryNote {
	n, ok := e.Private.(*entryNote)
	if !ok {
		n = &entryNote{}
		e.Private = n
	}
	return n
}

// metaNoteOf returns the note on m, creating it.
func metaNoteOf(m *session.Meta) *metaNote {
	n, ok := m.Private.(*metaNote)
	if !ok {
		n = &metaNote{}
		m.Private = n
	}
	return n
}
