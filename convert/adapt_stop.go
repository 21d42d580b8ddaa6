package convert

import (
	"github.com/sesstool/sesstool/format/spell"
	"github.com/sesstool/sesstool/loss"
	"github.com/sesstool/sesstool/session"
)

// stop flattens an assistant message's stop reason onto the neutral set the
// target spells (Caps.Stops): a reason no layout documents becomes StopEnd,
// counted as the target declares, so its writer meets only reasons it can
// spell.
func (a *adapted) stop(e *session.Entry) *session.Entry {
	m := e.Message
	if a.to.Stops == nil || m.Role != session.RoleAssistant {
		return e
	}
	r, ok := spell.Stop(m)
	if ok {
		return e
	}
	a.lost.Add(loss.StopReason, a.to.Stops.Action, a.to.Stops.Why, 1)
	c, cm := *e, *m
	cm.StopReason = r
	c.Message = &cm
	return &c
}
