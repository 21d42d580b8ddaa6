package convert

import (
	"github.com/sesstool/sesstool/format"
	"github.com/sesstool/sesstool/loss"
	"github.com/sesstool/sesstool/session"
)

// lines drops the entries a writer would otherwise meet with no line to
// write them as, by the target's declaration, and counts them:
//   - a message carrying no message, an extension message carrying none
//     where the target writes each as its message (Caps.CustomMessages:
//     CustomAsMessage; the others are done by custom), a compaction
//     without its summary where the target writes it as one
//     (CompactionAsUser), a compaction the target neither holds nor
//     converts, and a title entry without a title where the target
//     converts title entries (Caps.NoLineWhy).
//
// What hung from a dropped entry hangs from its parent. A target that
// declares neither reason gets such entries as they were read.
func (a *adapted) lines(e *session.Entry) *session.Entry {
	switch e.Kind {
	case session.KindCustomMessage:
		if a.to.CustomMessages.As == format.CustomAsMessage && e.Message != nil {
			return e
		}
	case session.KindMessage:
		if e.Message != nil {
			return e
		}
	case session.KindCompaction:
		held := a.to.HoldsKind(e.Kind) || a.to.ConvertsKind(e.Kind)
		if held && (e.Compaction != nil || !a.to.CompactionAsUser) {
			return e
		}
	case session.KindSessionInfo:
		// a title entry the target converts (goat's leaf_title) is
		// written as its title: one without a title has nothing to give
		if e.Title != "" || !a.to.ConvertsKind(e.Kind) {
			return e
		}
	default:
		return e
	}
	if a.to.NoLineWhy == "" {
		return e
	}
	a.lost.Drop(loss.Entry(e), a.to.NoLineWhy, 1)
	return a.drop(e)
}
