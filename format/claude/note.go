package claude

import "github.com/sesstool/sesstool/session"

// note is the reader's Private note on how Claude Code spelled an entry,
// read only by this layout's writer.
type note struct {
	// parentNull: the line's parentUuid was null; the model's ParentID is
	// its logicalParentUuid (after a compaction) or the metadata line
	// before it, so the conversation stays one tree.
	parentNull bool
	// noUUID: the line had no uuid (summary, file-history-snapshot, ...);
	// its ID is the reader's, made from its file and line.
	noUUID bool
	// omitted are the members sessionId, cwd and version the line carried
	// with the session's own value, which the writer restores from Meta.
	omitted []string
	// parts are the lines of one API message Claude Code wrote one content
	// block at a time (same message.id and requestId), in file order.
	parts []part
	// marker: an entry the reader made to show where a sub-agent run
	// starts; the sub-agent file itself says so, so nothing is written.
	marker   bool
	sideMeta []byte // the run's agent-<id>.meta.json, as read
	// usageCounted: the message's usage was counted on an earlier entry
	// of the same API message, so the model holds none here; the writer
	// gives back the line's own.
	usageCounted bool
	// summary: the message of a compaction summary line (isCompactSummary).
	summary *session.Message
	// result: the line is one tool_result block, read as a tool message.
	result *result
}

// result is what a tool message keeps of its tool_result block beyond
// the model's slots.
type result struct {
	isError bool           // is_error was written (true or not)
	extra   session.Extras // the block's other members (is_error when not a boolean true)
}

// Unmodelled counts the tool_result block's members the model has no slot
// for, which another layout's writer counts as lost.
func (n *note) Unmodelled() int {
	if n == nil {
		return 0
	}
	c := 0
	for _, p := range n.parts {
		if p.blocks < 0 {
			c++ // a progress line kept inside the message
		}
	}
	if n.summary != nil {
		c += len(n.summary.Extra)
	}
	if n.result == nil {
		return c
	}
	for _, f := range n.result.extra {
		if f.Key != "is_error" {
			c++
		}
	}
	return c
}

// part is one line of a streamed assistant message.
type part struct {
	raw    []byte
	line   int
	uuid   string
	parent string // parentUuid as read
	time   string
	blocks int // content blocks this line held; -1 for a line of another type kept inside the message
}

func noteOf(p any) *note {
	n, _ := p.(*note)
	return n
}

func (n *note) resultOf() *result {
	if n == nil {
		return nil
	}
	return n.result
}

// counted reports whether the entry's usage was counted on an earlier one.
func (n *note) counted() bool { return n != nil && n.usageCounted }

// LineUUIDs are the uuids of the user and assistant lines an entry read
// by this layout was written as, in file order: one for most entries,
// one per line for an API message Claude Code wrote one block at a time,
// none for a line of another type. Tests compare them with what Claude
// Code's own reader returns.
func LineUUIDs(e *session.Entry) []string {
	n := noteOf(e.Private)
	if e.Origin != Name || n == nil || n.marker || (e.Message == nil && n.summary == nil) {
		return nil
	}
	if n.parts == nil {
		return []string{e.ID}
	}
	var out []string
	for _, p := range n.parts {
		if p.blocks >= 0 {
			out = append(out, p.uuid)
		}
	}
	return out
}
