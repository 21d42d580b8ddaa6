package mapping

import "github.com/sesstool/sesstool/session"

// LinksMessagesOnly reports whether a layout's tree links messages to
// messages only, hanging tool results and compactions off the message
// before them (ash v2). Such attachments are part of the conversation, but a
// tree layout (pi) would read each as an abandoned branch.
func LinksMessagesOnly(origin string) bool { return origin == "ash" }

// Chain re-links such a source for a tree layout: an attachment hangs off
// the last attachment already written under the same message, and a
// message continues from there, so tool results and compactions stay on
// the path to the leaf. Branches (two messages under one parent) stay
// branches. Entries must come in source order.
//
// A message without a parent after the first one continues from the entry
// before it: ash reads a file without parent ids as one linear chat.
type Chain struct {
	tail map[string]string // message id -> last attachment written under it
	last string            // the last main-conversation entry
}

// Parent returns e's parent id in the re-linked tree (a source id).
func (c *Chain) Parent(e *session.Entry) string {
	if c.tail == nil {
		c.tail = map[string]string{}
	}
	p := e.ParentID
	if e.Sidechain == "" {
		defer func() { c.last = e.ID }()
	}
	if p == "" {
		if e.Sidechain == "" {
			return c.last
		}
		return ""
	}
	np := p
	if t, ok := c.tail[p]; ok {
		np = t
	}
	if attachment(e) && e.ID != "" {
		c.tail[p] = e.ID
	}
	return np
}
