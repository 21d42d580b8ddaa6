package convert

import (
	"github.com/sesstool/sesstool/loss"
	"github.com/sesstool/sesstool/session"
)

// countConverted counts an entry of a kind the target writes as something
// of its own (Caps.KindsConverted) with the reason the target declares for
// that kind (Caps.ConvertedWhy): a compaction as loss.Compaction, any
// other kind as its entry kind. A kind with no reason declared is not
// counted here.
func (a *adapted) countConverted(e *session.Entry) {
	why := a.to.ConvertedWhy[e.Kind]
	if why == "" || !a.to.ConvertsKind(e.Kind) {
		return
	}
	k := loss.Entry(e)
	if e.Kind == session.KindCompaction {
		k = loss.Compaction
	}
	a.lost.Add(k, loss.Converted, why, 1)
}
