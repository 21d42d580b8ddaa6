package convert

import (
	"slices"

	"github.com/sesstool/sesstool/loss"
	"github.com/sesstool/sesstool/session"
)

// dropsKind reports whether e is of a kind the target declares dropped
// (Caps.KindsDropped) and neither holds nor converts, and counts it so,
// in the layout's words when it declares them. An extension message is
// never dropped here: what becomes of one is declared once, by
// Caps.CustomMessages (custom).
func (a *adapted) dropsKind(e *session.Entry) bool {
	if e.Kind == session.KindCustomMessage || !slices.Contains(a.to.KindsDropped, e.Kind) || a.to.HoldsKind(e.Kind) || a.to.ConvertsKind(e.Kind) {
		return false
	}
	k := loss.Entry(e)
	a.lost.Drop(k, ownReason(a.to, k, a.layout+" has "+kinds(a.to)+" entries only"), 1)
	return true
}
