package convert

import (
	"github.com/sesstool/sesstool/loss"
	"github.com/sesstool/sesstool/session"
)

// A tool result's place, as the target declares it (Caps.ResultsNeedCall,
// adapt_needcall.go; Caps.ResultsTextOnly): one whose call was in no
// message kept before it is dropped, and one that keeps only text loses
// its other blocks.

// isResult reports whether e is a tool's result: a message, or a custom
// message, of the tool role.
func isResult(e *session.Entry) bool {
	return e.Message != nil && e.Message.Role == session.RoleTool
}

// resultText is tool result e with its text blocks only, when the target
// keeps nothing else of a result; what it drops is counted.
func (a *adapted) resultText(e *session.Entry) *session.Entry {
	if a.to.ResultsTextOnly == "" || !isResult(e) {
		return e
	}
	m := e.Message
	n := 0
	for _, b := range m.Content {
		if b.Type == session.BlockText {
			n++
		}
	}
	if n == len(m.Content) {
		return e
	}
	cm := *m
	cm.Content = make([]session.Block, 0, n)
	for _, b := range m.Content {
		if b.Type == session.BlockText {
			cm.Content = append(cm.Content, b)
		} else {
			a.lost.Add(loss.Block(b.Type), loss.Dropped, a.to.ResultsTextOnly, 1)
		}
	}
	c := *e
	c.Message = &cm
	return &c
}
