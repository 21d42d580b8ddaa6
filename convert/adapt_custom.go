package convert

import (
	"github.com/sesstool/sesstool/format/spell"
	"github.com/sesstool/sesstool/loss"
	"github.com/sesstool/sesstool/session"
)

// customDropped reports whether e is an extension message the target has
// no place for (Caps.CustomMessagesDropped), and counts it: a custom
// message that is not a tool's result.
func (a *adapted) customDropped(e *session.Entry) bool {
	if a.to.CustomMessagesDropped == "" || e.Kind != session.KindCustomMessage || isResult(e) {
		return false
	}
	a.lost.Add(loss.CustomMessage, loss.Dropped, a.to.CustomMessagesDropped, 1)
	return true
}

// customAsUser is e, an extension message of a role the target lacks, as
// a user message, when the target writes it so (Caps.CustomMessagesAsUser);
// counted converted.
func (a *adapted) customAsUser(e *session.Entry) *session.Entry {
	if a.to.CustomMessagesAsUser == "" || e.Kind != session.KindCustomMessage || e.Message == nil || isResult(e) || a.to.HoldsRole(e.Message.Role) {
		return e
	}
	a.lost.Add(loss.Role(e.Message.Role), loss.Converted, a.to.CustomMessagesAsUser, 1)
	c := *e
	c.Message = spell.AsUser(e.Message)
	return &c
}
