package mapping

import (
	"github.com/sesstool/sesstool/loss"
	"github.com/sesstool/sesstool/session"
)

// convertedKind counts an entry the target writes as something of its own
// (Caps.KindsConverted: pi keeps another layout's unknown entry as a custom
// entry), with the reason the target declares for its kind
// (Caps.KindsConvertedWhy). The writer only spells the conversion.
func (a *adapted) convertedKind(e *session.Entry) {
	if !plain(e.Kind) || a.to.HoldsKind(e.Kind) || !a.to.ConvertsKind(e.Kind) {
		return
	}
	if why, ok := a.to.KindsConvertedWhy[e.Kind]; ok {
		a.lost.Add(loss.Entry(e), loss.Converted, why, 1)
	}
}
