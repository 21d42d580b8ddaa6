package codex

// grouping decides which lines of a rollout begin an entry: every line
// but those that continue an assistant reply, which Codex writes as a run
// of items (reasoning, message, calls) with its events among them. The
// reader and the validator both use it, so that the entries validate
// counts are the entries the reader yields (docs/commands.md, "Counts").
type grouping struct {
	open  bool // a reply is being gathered
	said  bool // the reply's last item is a message
	lines int  // lines and bytes gathered into the reply, bounded so
	size  int  // that memory stays flat whatever the lines' size
}

// step reads one line: start reports that it begins an entry, item that it
// is an item of an assistant reply (a reply's event is neither).
func (g *grouping) step(rec record, size int) (start, item bool) {
	full := g.lines >= groupMax || g.size >= groupBytes
	message := rec.kind == "message"
	switch {
	case replyItem(rec):
		// Two assistant messages in a row, with nothing between but
		// events, are two replies.
		start = !g.open || full || g.said && message
		if start {
			g.lines, g.size = 0, 0
		}
		g.open, g.said = true, message
		g.lines, g.size = g.lines+1, g.size+size
		return start, true
	case g.open && replyEvent(rec) && !full:
		g.lines, g.size = g.lines+1, g.size+size
		return false, false
	}
	g.open = false
	return true, false
}
