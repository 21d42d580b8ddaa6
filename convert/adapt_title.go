package convert

import (
	"github.com/sesstool/sesstool/format"
	"github.com/sesstool/sesstool/loss"
	"github.com/sesstool/sesstool/session"
)

// titleHomeOnly counts the title of a session written into a single file
// of a layout that keeps titles only in its home's index (Caps.InFile sets
// TitleHomeOnly): the file cannot hold it, whoever wrote the session, so
// it is counted for the layout's own sessions too. The reason is the
// layout's own (LossReasons) where it says where the title would be kept.
func titleHomeOnly(m *session.Meta, to format.Caps, layout string, lost *loss.Counter) {
	if m.Title == "" || !to.TitleHomeOnly {
		return
	}
	lost.Drop(loss.SessionTitle, ownReason(to, loss.SessionTitle, layout+" keeps a session's title only in its home's index, which a single file cannot hold"), 1)
}

// ownReason is the layout's own words for a loss of kind k (Caps.LossReasons),
// else the rule's.
func ownReason(to format.Caps, k loss.Kind, rule string) string {
	if r, ok := to.LossReasons[k]; ok {
		return r
	}
	return rule
}
