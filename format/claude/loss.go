package claude

import (
	"github.com/sesstool/sesstool/loss"
)

// lossMeta counts the links to other sessions Claude Code's lines have no
// place for (mapping.Adapt counts the rest of what a session from another
// layout loses, from the declaration in caps.go).
func (w *writer) lossMeta() {
	m := w.meta
	add := func(kind loss.Kind, reason string, n int) { w.lost.Add(kind, loss.Dropped, reason, n) }
	if m.Parent != nil {
		add(loss.ParentLink, "Claude Code's session file names no parent session", 1)
	}
	add(loss.ChildSession, "Claude Code's session file names no child sessions", len(m.Children))
}
