package tree

import (
	"github.com/sesstool/sesstool/format/spell"
	"github.com/sesstool/sesstool/session"
	"github.com/sesstool/sesstool/session/convtree"
)

// foreign maps another layout's entries onto pi's tree before they are
// encoded (see package spell): ids become 8-hex ids (kept when already
// so), every reference is rewritten through the same map, ash's
// message-only links are re-chained so tool results stay on the path, and
// a compaction without a first kept entry keeps the entry before it, as
// pi's compaction must name one.
type foreign struct {
	ids   *spell.IDs
	chain *convtree.Chain // nil unless the source links messages only
	calls spell.Calls
	n     int // entries mapped so far
}

func newForeign(m *session.Meta) *foreign {
	f := &foreign{ids: spell.NewIDs(caps.IDs, m, 0)}
	if m.MessageLinks {
		f.chain = &convtree.Chain{}
	}
	return f
}

func (f *foreign) id(src string) string { return f.ids.Of(src) }

// entry returns a copy of e with pi ids and links.
func (f *foreign) entry(e *session.Entry) *session.Entry {
	c := *e
	parent := e.ParentID
	if f.chain != nil {
		parent = f.chain.Parent(e)
	}
	c.ID, c.ParentID = f.id(e.ID), f.id(parent)
	f.n++
	if c.ID == "" {
		c.ID = f.ids.Mint(f.n) // every v3 entry has an id
	}
	switch {
	case e.Compaction != nil:
		cp := *e.Compaction
		cp.FirstKeptID = f.id(cp.FirstKeptID)
		if cp.FirstKeptID == "" && c.ParentID != "" {
			// pi's compaction must name one (counted moved by convert:
			// Caps.FirstKeptNamed)
			cp.FirstKeptID = f.calls.Kept(c.ParentID)
		}
		c.Compaction = &cp
	case e.Label != nil:
		l := *e.Label
		l.TargetID = f.id(l.TargetID)
		c.Label = &l
	case e.BranchSummary != nil:
		b := *e.BranchSummary
		if b.FromID != "root" {
			b.FromID = f.id(b.FromID)
		}
		c.BranchSummary = &b
	}
	if e.Message != nil {
		c.Message = f.message(e.Message)
		f.calls.Add(&c, c.ID)
	}
	if e.Kind == session.KindOther {
		// An entry type only another layout has: kept as pi's extension
		// state, which never enters the model's context (counted by
		// mapping: caps.ConvertedWhy).
		data := []byte(nil)
		if e.Custom != nil {
			data = e.Custom.Data
		}
		c.Kind, c.Type = session.KindCustom, "custom"
		c.Custom = &session.Custom{CustomType: e.Type, Data: data}
	}
	return &c
}

// message spells a foreign message as pi does: its own role names, content
// as an array of blocks (pi allows a string for user messages only), and
// pi's stop reasons.
func (f *foreign) message(m *session.Message) *session.Message {
	c := *m
	c.SourceRole = "" // another layout's spelling of the role means nothing here
	if c.Role != session.RoleUser && c.ContentIsString {
		c.ContentIsString = false
	}
	if c.ContentIsNull {
		c.ContentIsNull = false // goat: null content, the calls are blocks
		if c.Content == nil {
			c.Content = []session.Block{}
		}
	}
	if c.Role == session.RoleAssistant {
		r, _ := spell.Stop(m) // flattened to the neutral set by mapping (caps.Stops)
		if r == spell.StopToolUse {
			r = "toolUse"
		}
		c.StopReason = r
	}
	return &c
}
