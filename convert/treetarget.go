package convert

import (
	"github.com/sesstool/sesstool/format"
	"github.com/sesstool/sesstool/session"
	"github.com/sesstool/sesstool/session/convtree"
)

// tree prepares a for a target that holds a tree. Its reader resumes at the
// last main entry (convtree.PathIndex), so when the target drops the entries that end
// the active path (a pi label written after another branch, on ash), the
// last entry it keeps of the path must still come last, or another branch
// becomes the active one. The session is then read twice (its tree first),
// or held when it can be read only once; a target that drops no main entry
// is read once, as it streams.
func (a *adapted) tree(r session.Reader, reopen func() (session.Reader, error)) (session.Reader, error) {
	if !dropsMain(a.to) {
		a.src = r
		return a, nil
	}
	var keeps []bool
	x, entries, err := convtree.Index(r, reopen, func(x *convtree.PathIndex, e *session.Entry) {
		x.Add(e)
		keeps = append(keeps, a.keepsMain(e))
	})
	if err != nil {
		return nil, err
	}
	x.Plan()
	a.src, a.last1 = entries, lastKept(x, keeps)
	return a, nil
}

// lastKept is the index of the last entry kept of the active path, when a
// main entry kept after it would otherwise take its place as the leaf; -1
// when the leaf stays where it is.
func lastKept(x *convtree.PathIndex, keeps []bool) int {
	last := -1
	for i := x.Leaf(); i >= 0; i = x.Parent(i) {
		if keeps[i] {
			last = i
			break
		}
	}
	if last < 0 {
		return -1
	}
	for i := last + 1; i < len(keeps); i++ {
		if keeps[i] {
			return last
		}
	}
	return -1
}

// keepsMain reports whether e is a main entry the target keeps, from what
// an index pass reads of it (kind, role, sidechain).
func (a *adapted) keepsMain(e *session.Entry) bool {
	if e.Sidechain != "" || !a.to.HoldsKind(e.Kind) && !a.to.ConvertsKind(e.Kind) {
		return false
	}
	m := e.Message
	return m == nil || a.to.Fallback != format.FallbackDrop || a.to.HoldsRole(m.Role)
}

// everyKind is every entry kind of the model.
var everyKind = []session.Kind{session.KindMessage, session.KindCustomMessage, session.KindCompaction,
	session.KindBranchSummary, session.KindLabel, session.KindModelChange, session.KindThinkingLevel,
	session.KindSessionInfo, session.KindCustom, session.KindSubagent, session.KindSubagentEnd, session.KindOther}

// dropsMain reports whether a target may drop an entry of the main
// conversation, by its declaration.
func dropsMain(c format.Caps) bool {
	if c.Fallback == format.FallbackDrop {
		return true
	}
	for _, k := range everyKind {
		if !c.HoldsKind(k) && !c.ConvertsKind(k) {
			return true
		}
	}
	return false
}
