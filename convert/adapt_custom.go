package convert

import (
	"github.com/sesstool/sesstool/format"
	"github.com/sesstool/sesstool/format/spell"
	"github.com/sesstool/sesstool/loss"
	"github.com/sesstool/sesstool/session"
)

// custom is e, an extension message of another layout, as the target
// declares it writes one (Caps.CustomMessages), or nil when it is dropped;
// counted either way. Every other entry, and one the target leaves to its
// writer, is e as it is. It runs after what e holds is counted, so a datum
// of a message it drops is counted lost too; it is the one rule for them:
//   - CustomAsMessage: kept as the message it carries (one carrying none
//     has no line: lines, Caps.NoLineWhy);
//   - CustomAsUser: one of a role the target lacks becomes a user message,
//     counted converted as its role; a tool's result stays its call's;
//   - CustomDropped: dropped, counted as an extension message (or as the
//     entry it is, AsEntry), what hung from it hanging from its parent; a
//     tool's result is kept where the target keeps those (KeepResults).
func (a *adapted) custom(e *session.Entry) *session.Entry {
	r := a.to.CustomMessages
	if e.Kind != session.KindCustomMessage {
		return e
	}
	switch r.As {
	case format.CustomDropped:
		if r.KeepResults && isResult(e) {
			return e
		}
		k := loss.CustomMessage
		if r.AsEntry {
			k = loss.Entry(e)
		}
		why := r.Why
		if why == "" {
			why = a.layout + " has no extension messages"
		}
		a.lost.Drop(k, why, 1)
		return a.drop(e)
	case format.CustomAsUser:
		if e.Message == nil || isResult(e) || a.to.HoldsRole(e.Message.Role) {
			return e
		}
		a.lost.Add(loss.Role(e.Message.Role), loss.Converted, r.Why, 1)
		c := *e
		c.Message = spell.AsUser(e.Message)
		return &c
	}
	return e
}
