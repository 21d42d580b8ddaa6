package convert

import (
	"github.com/sesstool/sesstool/format"
	"github.com/sesstool/sesstool/loss"
	"github.com/sesstool/sesstool/session"
)

// countLinks counts the session's links to other sessions that the
// target's file has no place for (Caps.NoParentWhy, NoChildrenWhy), and
// the path of its parent's file where the target links a parent by id
// only (Caps.NoParentPathWhy): a layout that declares none of them keeps
// them.
func countLinks(m *session.Meta, to format.Caps, lost *loss.Counter) {
	if m.Parent != nil && to.NoParentWhy != "" {
		lost.Drop(loss.ParentLink, to.NoParentWhy, 1)
	}
	if m.Parent != nil && m.Parent.Path != "" && to.NoParentWhy == "" && to.NoParentPathWhy != "" {
		lost.Drop(loss.ParentPath, to.NoParentPathWhy, 1)
	}
	if to.NoChildrenWhy != "" {
		lost.Drop(loss.ChildSession, to.NoChildrenWhy, len(m.Children))
	}
}
