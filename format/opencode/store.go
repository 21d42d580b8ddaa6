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
