package transcript

import "strings"

// Origin is where a session came from, for both exporters to show: the
// session it was forked or spawned from (pi's parentSession, OpenCode's
// parentID, a flat fork's origin), the entry it was forked at, and the
// summary of the branch it left. Empty when the session is not a fork.
type Origin struct {
	Session string // the parent session's id, else its file path
	Path    string // the parent's file path, when the layout stores one
	Entry   string // the fork point in the parent
	Summary string // what the parent's branch had done, when recorded
}

// Origin returns the session's origin; ok is false for a session that was
// neither forked nor spawned.
func (t *Transcript) Origin() (o Origin, ok bool) {
	p := t.S.Meta.Parent
	if p == nil {
		return o, false
	}
	o = Origin{Session: p.SessionID, Path: p.Path, Entry: p.EntryID, Summary: strings.TrimSpace(p.Summary)}
	if o.Session == "" {
		o.Session = o.Path
	}
	if o.Session == o.Path {
		o.Path = ""
	}
	return o, o.Session != "" || o.Entry != "" || o.Summary != ""
}

// Line is the origin in one line of text: "forked from S at entry E".
func (o Origin) Line() string {
	s := "forked from"
	if o.Session != "" {
		s += " session " + o.Session
	}
	if o.Path != "" {
		s += " (" + o.Path + ")"
	}
	if o.Entry != "" {
		s += " at entry " + o.Entry
	}
	return s
}
