package convert

import (
	"github.com/sesstool/sesstool/format"
	"github.com/sesstool/sesstool/loss"
	"github.com/sesstool/sesstool/session"
)

// countLinks counts the session's links to other sessions that the
// target's file has no place for (Caps.NoParentWhy, NoChildrenWhy): a
// layout that declares neither keeps them, or counts them as it writes.
func countLinks(m *session.Meta, to format.Caps, lost *loss.Counter) {
	if m.Parent != nil && to.NoParentWhy != "" {
		lost.Drop(loss.ParentLink, to.NoParentWhy, 1)
	}
	if to.NoChildrenWhy != "" {
		lost.Drop(loss.ChildSession, to.NoChildrenWhy, len(m.Children))
	}
}
