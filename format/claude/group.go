package claude

import (
	"bytes"
	"unsafe"

	"github.com/sesstool/sesstool/jsonx"
	"github.com/tidwall/gjson"
)

// Claude Code writes an API message one content block a line: the lines
// share message.id and requestId, each the child of the one before, with
// progress lines (hooks running for a call) between them. The reader joins
// them into one entry; the validator counts them as one. Both ask the
// questions below, so that the entries validate counts are the entries the
// reader yields (docs/commands.md, "Counts").

// maxBetween is how many lines of other types may sit between two lines
// of one API message for them to be read as one.
const maxBetween = 16

// between are the line types Claude Code writes between the lines of one
// API message.
var between = map[string]bool{"progress": true}

// head is what the grouping reads of a line: its first member of each
// name, as gjson's Get finds them.
type head struct {
	typ, uuid, parent, req gjson.Result
	msg                    []byte       // the message member's bytes
	msgID                  gjson.Result // the message's id
	content                []byte       // the message's content, as written
}

// headOf reads a line's head in one walk over its members.
func headOf(b []byte) head {
	var h head
	eachMember(b, func(k string, m jsonx.Member) { h.take(b, k, m) })
	h.readMessage()
	return h
}

// take keeps member m of the line b, whose key is k, when the head reads
// it. A caller that walks the line's members itself calls take for each,
// then readMessage.
func (h *head) take(b []byte, k string, m jsonx.Member) {
	var dst *gjson.Result
	switch k {
	case "type":
		dst = &h.typ
	case "uuid":
		dst = &h.uuid
	case "parentUuid":
		dst = &h.parent
	case "requestId":
		dst = &h.req
	case "message":
		if h.msg == nil {
			h.msg = b[m.ValStart:m.ValEnd]
		}
		return
	default:
		return
	}
	if !dst.Exists() {
		*dst = m.Value(b)
	}
}

// readMessage reads the message's id and content, in one walk over it.
func (h *head) readMessage() {
	eachMember(h.msg, func(k string, m jsonx.Member) {
		switch k {
		case "id":
			if !h.msgID.Exists() {
				h.msgID = m.Value(h.msg)
			}
		case "content":
			if h.content == nil {
				h.content = h.msg[m.ValStart:m.ValEnd]
			}
		}
	})
}

// contentIsArray reports whether the message's content is an array.
func (h *head) contentIsArray() bool { return len(h.content) > 0 && h.content[0] == '[' }

// isMessage reports whether the line's message member is an object.
func (h *head) isMessage() bool { return len(h.msg) > 0 && h.msg[0] == '{' }

// eachMember calls f with each member of the object b and its key, which
// is a view of b (or decoded, for a key with escapes, as gjson compares
// keys), valid while b is. b must be valid JSON; anything but an object
// has no members.
func eachMember(b []byte, f func(k string, m jsonx.Member)) {
	w, ok := jsonx.WalkObject(b)
	if !ok {
		return
	}
	for m, ok := w.Next(); ok; m, ok = w.Next() {
		raw := b[m.KeyStart+1 : m.KeyEnd-1]
		if bytes.IndexByte(raw, '\\') >= 0 {
			f(gjson.ParseBytes(b[m.KeyStart:m.KeyEnd]).Str, m)
		} else if len(raw) > 0 {
			f(unsafe.String(&raw[0], len(raw)), m)
		} else {
			f("", m)
		}
	}
}

// message is an API message whose later lines may follow.
type message struct {
	id, req string // the raw message.id and requestId of its first line
	last    string // the uuid of the last line read into it
}

// openMessage is the message an assistant line begins; ok is false for
// any other line, and for a message with no id, which no line continues.
func openMessage(h head) (m message, ok bool) {
	if h.typ.String() != "assistant" || !h.isMessage() || !h.msgID.Exists() {
		return message{}, false
	}
	return message{id: h.msgID.Raw, req: h.req.Raw, last: h.uuid.String()}, true
}

// follows is how a line stands to the message before it.
type follows int

const (
	ends      follows = iota // not part of the message: the message ends before it
	inBetween                // a progress line that may sit between two of its lines
	next                     // the message's next line
)

// follow reads the line after the message's last (or after the progress
// lines that followed it) and moves the message on past it.
func (m *message) follow(h head) follows {
	if h.parent.String() != m.last {
		return ends
	}
	typ := h.typ.String()
	if typ == "assistant" {
		if h.msgID.Raw == m.id && h.req.Raw == m.req && h.contentIsArray() {
			m.last = h.uuid.String()
			return next
		}
		return ends
	}
	if !between[typ] || h.uuid.Type != gjson.String {
		return ends
	}
	m.last = h.uuid.String()
	return inBetween
}

// grouping counts a file's entries a line at a time, as the reader joins
// them: every line is an entry but the later lines of a message and the
// progress lines between them.
type grouping struct {
	entries int
	msg     message
	open    bool
	held    int // progress lines read since the message's last line
}

func (g *grouping) step(h head) {
	g.entries++
	if g.open {
		switch g.msg.follow(h) {
		case next:
			g.entries -= g.held + 1
			g.held = 0
			return
		case inBetween:
			if g.held < maxBetween {
				g.held++
				return
			}
		}
	}
	g.held = 0
	g.msg, g.open = openMessage(h)
}
