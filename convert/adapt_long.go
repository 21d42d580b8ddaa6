package convert

import (
	"unicode/utf8"

	"github.com/sesstool/sesstool/loss"
	"github.com/sesstool/sesstool/session"
)

// fitLong cuts message e to the most bytes the target's program reads a
// message in (Caps.MessageLimit), where the user lets it (Caps.CutLong):
// its longest text is cut, ending with the layout's mark, until the
// layout's measure of the message fits; counted once for the message. A
// message that cannot be cut to fit (its bulk is no text: an image, a
// tool call's arguments) is left as it is, for the writer to refuse.
func (a *adapted) fitLong(e *session.Entry) *session.Entry {
	l := a.to.MessageLimit
	if l == nil || !a.to.CutLong || e.Message == nil || bulk(e.Message)*6+1<<16 < l.Max {
		return e
	}
	size := l.Size(e)
	if size <= l.Max {
		return e
	}
	c, cm := *e, *e.Message
	cm.Content = append([]session.Block(nil), cm.Content...)
	c.Message = &cm
	cut := false
	for size > l.Max {
		i := longestText(cm.Content)
		if i < 0 || len(cm.Content[i].Text) <= len(l.Mark) {
			break
		}
		t := cm.Content[i].Text
		keep := max(0, len(t)-(size-l.Max)-len(l.Mark))
		for keep > 0 && !utf8.RuneStart(t[keep]) {
			keep--
		}
		cm.Content[i].Text = t[:keep] + l.Mark
		n := l.Size(&c)
		if n >= size {
			break // the text was no part of the longest line
		}
		size, cut = n, true
	}
	if !cut {
		return e
	}
	a.lost.Drop(loss.LongMessage, l.Why, 1)
	return &c
}

// bulk is how many bytes m's strings hold, an upper bound of its size
// over six (the longest escape of a byte) before its layout's framing.
func bulk(m *session.Message) int {
	n := 0
	for _, b := range m.Content {
		n += len(b.Text) + len(b.Data) + len(b.Arguments) + len(b.URL)
	}
	return n
}

// longestText is the index of the block with the longest text, -1 for
// none.
func longestText(bs []session.Block) int {
	at, n := -1, 0
	for i, b := range bs {
		if len(b.Text) > n {
			at, n = i, len(b.Text)
		}
	}
	return at
}
