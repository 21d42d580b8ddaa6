package session

import "encoding/json"

// Source is where a Meta, an Entry or a Block was read from. A writer of
// the same layout uses it to write the value back byte for byte; a writer
// of another layout reads nothing here but Origin and Unmodelled.
type Source struct {
	// Origin names the layout that read the value.
	Origin string
	// Raw holds the source bytes (one JSONL line, one JSON file). A writer
	// of the same layout merges its output with Raw, so that what did not
	// change stays byte-identical.
	Raw json.RawMessage
	// Line is the 1-based source line, 0 when not from a line-oriented file.
	Line int
	// Private is the reading layout's own note on how the source spelled
	// the value (an ash tool call's separate tool_use line, oh-my-pi's
	// title slot), typed by that layout and read only by its writer. It is
	// never data another layout could hold, so it is not counted as lost;
	// what a layout keeps there that the model has no slot for, it counts
	// with Unmodelled.
	Private any
}

// Unmodelled is implemented by a Private value that keeps parts of the
// source the model has no slot for besides Extras (an OpenCode side file,
// members of an ash history.jsonl line): how many there are.
type Unmodelled interface {
	Unmodelled() int
}

// Unmodelled is how many parts of the source Private keeps that the model
// has no slot for; another layout's writer counts them as lost with Extras.
func (s *Source) Unmodelled() int {
	if u, ok := s.Private.(Unmodelled); ok {
		return u.Unmodelled()
	}
	return 0
}

// Unknown is how many parts of the source the entry holds that the model
// has no slot for: its Extras, and what its Private note counts. A writer
// of another layout counts them as lost.
func (e *Entry) Unknown() int { return len(e.Extra) + e.Unmodelled() }

// Unknown is Entry.Unknown for a block.
func (b *Block) Unknown() int { return len(b.Extra) + b.Unmodelled() }

// Unknown is Entry.Unknown for a session's own data.
func (m *Meta) Unknown() int { return len(m.Extra) + m.Unmodelled() }

// Opaque is implemented by a Private value that carries data only its
// provider can read (Codex's encrypted reasoning): its layout writes it
// back byte for byte, and any other counts it as lost under the kind it
// names (a loss kind of package loss) rather than as an unknown field.
type Opaque interface {
	Opaque() (kind string, n int)
}

// Opaque is the named loss s's Private note carries, if any.
func (s *Source) Opaque() (kind string, n int) {
	if o, ok := s.Private.(Opaque); ok {
		return o.Opaque()
	}
	return "", 0
}
