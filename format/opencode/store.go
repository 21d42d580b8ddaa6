package opencode

import (
	"path/filepath"

	"github.com/sesstool/sesstool/format"
	"github.com/sesstool/sesstool/report"
)

// DefaultStore is $XDG_DATA_HOME/opencode (~/.local/share when unset): its
// opencode.db when present, else its storage/ tree.
func (Format) DefaultStore() string {
	dir := filepath.Join(format.EnvOrHome("XDG_DATA_HOME", ".local", "share"), "opencode")
	if db := filepath.Join(dir, "opencode.db"); isFile(db) {
		return db
	}
	return filepath.Join(dir, "storage")
}

func (Format) Sessions(path string) ([]format.Ref, error) { return sessions(path) }

func (Export) Sessions(path string) ([]format.Ref, error) { return sessions(path) }

func sessions(path string) ([]format.Ref, error) { return sessionsIn(path, nil) }

func sessionsIn(path string, snap *snapshot) ([]format.Ref, error) {
	st, _, err := openStoreFrom(path, snap)
	if err != nil {
		return nil, err
	}
	defer st.Close()
	var refs []sessionRef
	if snap.holds(path) {
		ix, err := snap.index(st)
		if err != nil {
			return nil, err
		}
		refs = ix.refs
	} else if refs, err = st.list(); err != nil {
		return nil, err
	}
	out := make([]format.Ref, len(refs))
	for i, r := range refs {
		out[i] = format.Ref{Path: path, ID: r.ID}
	}
	return out, nil
}

// Load validates path as Validate does and returns the layout over what
// the validation read: Sessions and Open of path then open no file again.
func (Format) Load(path string, rep *report.Report, opt format.ValidateOptions) (format.Format, error) {
	snap, err := checkPath(path, rep, opt.Workers, true)
	if err != nil || snap == nil {
		return Format{}, err
	}
	return loaded{path: path, snap: snap}, nil
}

// treeContents is what a 1.x storage/ tree holds (docs: ../shared/formats,
// "The JSON tree"): the files the walk reads (treeTasks, and migration),
// and the folders OpenCode keeps beside them that hold no part of a
// session sesstool reads (shares, permissions, snapshots). A message's
// part folder (part/<message>/, one a message) is taken whole: listing
// every one of them a second time took validate of 100,000 messages from
// 2.0 to 3.3 s: the validation's walk, which lists them anyway, names what
// in them is not a .json file (kindStray).
var treeContents = format.Contents{
	Read: []string{
		"migration", "project/*.json", "session/*/*.json", "message/*/*.json", "part/*/",
		"todo/*.json", "session_diff/*.json",
	},
	Known: []string{"session_share/", "share/", "permission/", "snapshot/"},
}

// StraysInValidation: a tree's part folders are left to the validation's
// walk (treeContents).
func (Format) StraysInValidation(path string) bool {
	l, _ := classify(path)
	return l == layoutTree
}

var _ format.StraysInValidation = Format{}

// legacyContents is what a 0.x data folder holds: the files legacyTasks
// reads, each project's app.json and storage/ side files, and at the top
// whatever else OpenCode keeps in its data folder (logs, binaries).
var legacyContents = format.Contents{
	Read: []string{
		"project/*/storage/session/info/*.json", "project/*/storage/session/message/*/*.json",
		"project/*/storage/session/part/*/*/*.json",
	},
	Known: []string{"*", "project/*/*", "project/*/storage/*", "project/*/storage/session/share/"},
}

// legacyProjectContents is what one 0.x project folder, named on its
// own, holds: legacyContents below project/<slug>/.
var legacyProjectContents = format.Contents{
	Read: []string{
		"storage/session/info/*.json", "storage/session/message/*/*.json", "storage/session/part/*/*/*.json",
	},
	Known: []string{"*", "storage/*", "storage/session/share/"},
}

// Unread lists what an OpenCode JSON tree holds that the layout does not
// read. A data folder's other entries (log/, snapshot/, bin/, auth.json)
// are OpenCode's own; a database is read whole, and its folder's other
// entries (a stale storage/ tree OpenCode no longer reads, the WAL) are
// not listed.
func (Format) Unread(path string) []format.Stray {
	switch l, root := classify(path); l {
	case layoutTree:
		return treeContents.Strays(root)
	case layoutLegacy:
		if isLegacyProject(root) {
			return legacyProjectContents.Strays(root)
		}
		return legacyContents.Strays(root)
	}
	return nil
}
