package command

import (
	"github.com/sesstool/sesstool/format"
	"github.com/sesstool/sesstool/pipeline"
	"github.com/sesstool/sesstool/selection"
)

// selectUnits narrows validate's units to the selected sessions
// (pipeline.SelectUnits). A store whose sessions share a file is checked
// whole when it holds a selected session.
func selectUnits(units []pipeline.Unit, sel selection.Filter) []pipeline.Unit {
	if !sel.Active() {
		return units
	}
	out, _ := pipeline.SelectUnits(units, keeper(sel))
	return out
}

// keepPath reports whether a session file or directory holds a selected
// session (migrate's unit of work). One whose sessions cannot be listed is
// kept: migrating it says what is wrong.
func keepPath(f format.Format, path string, sel selection.Filter) bool {
	if !sel.Active() {
		return true
	}
	refs, err := f.Sessions(path)
	if err != nil {
		return true
	}
	k := keeper(sel)
	for _, ref := range refs {
		if k(pipeline.Unit{Format: f, Path: path}, ref) {
			return true
		}
	}
	return len(refs) == 0
}
