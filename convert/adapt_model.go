package convert

import (
	"errors"
	"io"

	"github.com/sesstool/sesstool/loss"
	"github.com/sesstool/sesstool/session"
	"github.com/sesstool/sesstool/session/convtree"
)

// A session that names no model, for a target whose every message names
// one (Caps.ModelRequired): its messages are given the model the target's
// environment offers (Caps.DefaultModel), counted once as the session's
// model converted, when the first message is.

// givesModel reports whether the target requires a model and offers a
// default (Caps.DefaultModel) and the session names none of its own: then
// each message on the path may need the default.
func (a *adapted) givesModel() bool {
	return a.to.ModelRequired && a.to.DefaultModel != nil && a.meta.Model == ""
}

// namesModels wraps add, for a linear target requiring a model, so that it
// notes which entries name one (into named); add as it is when the session
// names its own model or the target requires none.
func (a *adapted) namesModels(add func(*convtree.PathIndex, *session.Entry), named *[]int32) func(*convtree.PathIndex, *session.Entry) {
	if !a.givesModel() {
		return add
	}
	n := int32(0)
	return func(x *convtree.PathIndex, e *session.Entry) {
		if e.Message != nil && e.Message.Model != "" {
			*named = append(*named, n)
		}
		n++
		add(x, e)
	}
}

// needsModel notes, once the path is known, whether no message on it names
// a model, so that each is given the default (defaultModel). An index pass
// that reads ids and links only (reopen set) names no model, so the session
// is then read again from its start, up to the first message on the path
// that names one (early in any session that names one at all).
func (a *adapted) needsModel(x *convtree.PathIndex, named []int32, reopen func() (session.Reader, error)) error {
	if !a.givesModel() {
		return nil
	}
	for _, i := range named {
		if x.OnPath(int(i)) {
			return nil
		}
	}
	if reopen != nil {
		r, err := reopen()
		if err != nil {
			return err
		}
		defer r.Close()
		for i := 0; ; i++ {
			e, err := r.Next()
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				return err
			}
			if e.Message != nil && e.Message.Model != "" && i < x.Len() && x.OnPath(i) {
				return nil
			}
		}
	}
	a.noModel = true
	return nil
}

// defaultModel is message e with the target's default model, when the
// session names none (needsModel); the first one counts the session's
// model converted. A tool's result is written into its call, with no model.
func (a *adapted) defaultModel(e *session.Entry) *session.Entry {
	m := e.Message
	if !a.noModel || m == nil || m.Model != "" || isResults(m) {
		return e
	}
	if a.dfltModel == "" {
		var why string
		a.dfltProvider, a.dfltModel, why = a.to.DefaultModel.DefaultModel()
		a.lost.Add(loss.SessionModel, loss.Converted, why, 1)
	}
	c, cm := *e, *m
	cm.Provider, cm.Model = a.dfltProvider, a.dfltModel
	c.Message = &cm
	return &c
}
