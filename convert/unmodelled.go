package convert

import (
	"github.com/sesstool/sesstool/loss"
	"github.com/sesstool/sesstool/session"
)

// A layout that declares no capabilities (the model dump) has a slot for
// everything the model holds, Extras included, so what it loses of a
// session is only what the source's layout keeps outside the model
// (Source.Unmodelled: an ash history line's members, an OpenCode side
// file). The stage counts that here, so that its writer counts nothing.

// unmodelledWhy is the reason such a loss is counted with.
const unmodelledWhy = "kept by the source's layout outside the model: the dump counts it (source.unmodelled) but cannot show it"

// unmodelled is r, counting in lost what each entry it gives, and the
// session, keep outside the model.
type unmodelled struct {
	session.Reader
	lost *loss.Counter
}

func countUnmodelled(r session.Reader, lost *loss.Counter) session.Reader {
	lost.Drop(loss.SessionField, unmodelledWhy, r.Meta().Unmodelled())
	return &unmodelled{Reader: r, lost: lost}
}

func (u *unmodelled) Next() (*session.Entry, error) {
	e, err := u.Reader.Next()
	if err != nil {
		return nil, err
	}
	u.lost.Drop(loss.EntryField, unmodelledWhy, e.Unmodelled())
	if e.Message != nil {
		for i := range e.Message.Content {
			u.lost.Drop(loss.BlockField, unmodelledWhy, e.Message.Content[i].Unmodelled())
		}
	}
	return e, nil
}
