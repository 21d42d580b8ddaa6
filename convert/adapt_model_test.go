package convert

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/sesstool/sesstool/format"
	"github.com/sesstool/sesstool/session"
)

// fixedModel is a target's default model, as its environment gives it.
type fixedModel struct{}

func (fixedModel) DefaultModel() (provider, model, why string) {
	return "prov", "dflt", "written as the default"
}

// TestDefaultModel: where every message must name a model, a session that
// names none on the path written gives each message, tool results aside,
// the target's default, counted once; one naming a model on its path, or
// as the session's, and a target that does not require one, are left as
// read.
func TestDefaultModel(t *testing.T) {
	required := format.Caps{Linear: true, Roles: []session.Role{session.RoleUser, session.RoleAssistant, session.RoleTool},
		Blocks: []session.BlockType{session.BlockText}, MessageModel: true, MessageProvider: true, SessionModel: true,
		ModelRequired: true, DefaultModel: fixedModel{}}
	named := func(e *session.Entry, model string) *session.Entry { e.Message.Model = model; return e }
	for _, tc := range []struct {
		name    string
		to      format.Caps
		model   string // the session's
		entries []*session.Entry
		want    []string // each message's provider/model
		lost    []string
	}{
		{"names none", required, "", []*session.Entry{msg("a", "", session.RoleUser), msg("b", "a", session.RoleAssistant), msg("r", "b", session.RoleTool)},
			[]string{"prov/dflt", "prov/dflt", "/"}, []string{"1 session-model converted: written as the default"}},
		{"names one off the path", required, "", []*session.Entry{msg("a", "", session.RoleUser), named(msg("x", "a", session.RoleAssistant), "m"), msg("b", "a", session.RoleAssistant)},
			[]string{"prov/dflt", "prov/dflt"}, []string{"1 branch flattened: x is linear: only the active path (root to the last entry) is kept", "1 off-path-entry dropped: x is linear: entries off the active path are not written", "1 session-model converted: written as the default"}},
		{"names one on the path", required, "", []*session.Entry{msg("a", "", session.RoleUser), named(msg("b", "a", session.RoleAssistant), "m")},
			[]string{"/", "/m"}, nil},
		{"the session names one", required, "m", []*session.Entry{msg("a", "", session.RoleUser)}, []string{"/"}, nil},
		{"not required", format.Caps{Linear: true, Roles: required.Roles, Blocks: required.Blocks}, "", []*session.Entry{msg("a", "", session.RoleUser)}, []string{"/"}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, items := adaptItems(t, tc.to, session.Meta{ID: "s", Model: tc.model}, tc.entries)
			var models []string
			for _, e := range got {
				models = append(models, e.Message.Provider+"/"+e.Message.Model)
			}
			if d := cmp.Diff(tc.want, models); d != "" {
				t.Errorf("models (-want +got):\n%s", d)
			}
			if d := cmp.Diff(tc.lost, items); d != "" {
				t.Errorf("losses (-want +got):\n%s", d)
			}
		})
	}
}
