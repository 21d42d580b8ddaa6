// Package opencode reads and writes OpenCode's session storage: the 1.x JSON
// file tree (storage/), the 0.x per-project tree, the opencode.db SQLite
// database of 1.2+ (read-only), and the `opencode export` document
// (format opencode-export). See docs/opencode.md.
package opencode

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/sesstool/sesstool/format"
	"github.com/sesstool/sesstool/loss"
	"github.com/sesstool/sesstool/mapping"
	"github.com/sesstool/sesstool/report"
	"github.com/sesstool/sesstool/session"
)

// ExportName is the export document's format name.
const ExportName = "opencode-export"

// Format is the `opencode` layout: every storage generation, detected by
// content; it writes the 1.x JSON tree.
type Format struct{}

func (Format) Name() string      { return Name }
func (Format) Aliases() []string { return nil }

// Detect claims stores (tree, legacy tree, database, data directory), not
// lone export documents: those are opencode-export's.
func (Format) Detect(path string) bool {
	l, _ := classify(path)
	return l != layoutNone && l != layoutExport
}

// DefaultStore is $XDG_DATA_HOME/opencode (~/.local/share when unset): its
// opencode.db when present, else its storage/ tree.
func (Format) DefaultStore() string {
	base := os.Getenv("XDG_DATA_HOME")
	if base == "" {
		home, _ := os.UserHomeDir()
		base = filepath.Join(home, ".local", "share")
	}
	dir := filepath.Join(base, "opencode")
	if db := filepath.Join(dir, "opencode.db"); isFile(db) {
		return db
	}
	return filepath.Join(dir, "storage")
}

func (Format) Sessions(path string) ([]format.Ref, error) { return sessions(path) }

func (Format) Open(ref format.Ref) (session.Reader, error) { return open(ref) }

func (Format) Validate(path string, rep *report.Report, opt format.ValidateOptions) error {
	return validatePath(path, rep, opt.Workers)
}

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

func open(ref format.Ref) (session.Reader, error) { return openIn(ref, nil) }

func openIn(ref format.Ref, snap *snapshot) (session.Reader, error) {
	st, l, err := openStoreFrom(ref.Path, snap)
	if err != nil {
		return nil, err
	}
	defer st.Close()
	found, children, err := findSession(st, ref, snap)
	if err != nil {
		return nil, err
	}
	d, err := st.load(*found)
	if err != nil {
		return nil, err
	}
	if l == layoutExport {
		return exportReader(d, children), nil
	}
	return newDocReader(d, children), nil
}

// findSession finds ref in st and the sessions whose parent it is.
func findSession(st store, ref format.Ref, snap *snapshot) (*sessionRef, []string, error) {
	if snap.holds(ref.Path) {
		ix, err := snap.index(st)
		if err != nil {
			return nil, nil, err
		}
		i, ok := ix.byID[ref.ID]
		if !ok && ref.ID == "" && len(ix.refs) == 1 {
			i, ok = 0, true
		}
		if !ok {
			return nil, nil, fmt.Errorf("%s: no session %q", ref.Path, ref.ID)
		}
		return &ix.refs[i], ix.children[ix.refs[i].ID], nil
	}
	refs, err := st.list()
	if err != nil {
		return nil, nil, err
	}
	var found *sessionRef
	var children []string
	for i, r := range refs {
		if r.ID == ref.ID || (ref.ID == "" && len(refs) == 1) {
			found = &refs[i]
		}
	}
	if found == nil {
		return nil, nil, fmt.Errorf("%s: no session %q", ref.Path, ref.ID)
	}
	for _, r := range refs {
		if r.ParentID == found.ID {
			children = append(children, r.ID)
		}
	}
	return found, children, nil
}

// exportReader reads a session of an export document: its entries say so.
func exportReader(d *Doc, children []string) session.Reader {
	r := newDocReader(d, children)
	r.meta.Origin, r.origin = ExportName, ExportName
	return r
}

// Write writes one session into the storage root out (out/session/...),
// filed under opt.Extra's project id, or the one OpenCode would choose for
// the session's directory.
func (Format) Write(r session.Reader, out string, opt format.WriteOptions) ([]string, error) {
	r, err := mapping.Adapt(r, opt.Reopen, caps, "OpenCode", opt.Loss)
	if err != nil {
		return nil, err
	}
	s, err := session.ReadAll(r)
	if err != nil {
		return nil, err
	}
	project := opt.Extra
	if project == "" && !ours(s.Meta.Origin) {
		// A session read from OpenCode keeps the project it is filed
		// under (toDoc takes it from the session), so A -> A is exact.
		project = ProjectFor(s.Meta.Cwd)
	}
	if p := s.Meta.Parent; p != nil && p.SessionID != "" && opt.Batch != nil && !opt.Batch[p.SessionID] {
		// OpenCode lists only root sessions and reaches children through
		// their parent: a child stored without its parent would vanish.
		opt.Loss.Add(loss.ParentLink, loss.Dropped, "the parent session is not converted with it, and OpenCode hides a child whose parent is missing", 1)
		s.Meta.Parent = nil
	}
	d, err := toDoc(s, project, opt.Loss)
	if err != nil {
		return nil, err
	}
	return writeTree(d, s.Meta.Cwd, out, opt.Force)
}

var (
	_ format.Format = Format{}
	_ format.Writer = Format{}
)
