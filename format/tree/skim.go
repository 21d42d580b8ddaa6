package tree

import (
	"github.com/sesstool/sesstool/session"
	"github.com/tidwall/gjson"
)

// Skim returns the next entry with only its place in the tree: Origin,
// Line, Type, Kind, ID and ParentID (derived for v1 as Next derives them),
// and a message's Role (a custom message's even when it has no other
// member, where Next leaves the message out). A linear writer's first pass
// (convtree.Index) needs no more, and finding those few members near the
// start of a line costs a fraction of decoding it. A line that is not an
// object is Next's error; one that does not decode fails in the writing
// pass, which decodes every entry.
func (r *reader) Skim() (*session.Entry, error) {
	if r.ahead != nil {
		return r.Next()
	}
	l, err := r.lineView() // nothing below keeps the line: gjson copies what it returns
	if err != nil {
		return nil, err
	}
	if !isObject(l.b) {
		// the full decode words the error as Next does
		_, err := r.decode(l)
		return nil, err
	}
	r.n++
	e := &session.Entry{Source: session.Source{Origin: Name, Line: l.n}}
	var v [3]gjson.Result
	if r.v1 {
		v[0] = gjson.GetBytes(l.b, "type")
	} else {
		copy(v[:], gjson.GetManyBytes(l.b, "type", "id", "parentId"))
		if v[1].Type == gjson.String {
			e.ID = v[1].Str
		}
		if v[2].Type == gjson.String {
			e.ParentID = v[2].Str
		}
	}
	e.Type, e.Kind = v[0].String(), session.KindOther
	if v[0].Type == gjson.String {
		e.Kind = kindOf(e.Type)
	}
	switch e.Kind {
	case session.KindMessage:
		if role := gjson.GetBytes(l.b, "message.role"); role.Type == gjson.String && role.Str != "" {
			e.Message = &session.Message{}
			e.Message.Role, e.Message.SourceRole = roleOf(role.Str)
		}
	case session.KindCustomMessage:
		e.Message = &session.Message{Role: session.RoleCustom}
	}
	if r.v1 {
		r.derive(e, nil)
	}
	return e, nil
}
