package opencode

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/tidwall/gjson"

	"github.com/sesstool/sesstool/internal/regfile"
)

// layout says which of OpenCode's storage generations a path holds.
type layout int

const (
	layoutNone   layout = iota
	layoutTree          // 1.x storage/ tree
	layoutLegacy        // 0.x project/<slug>/storage/session/...
	layoutDB            // 1.2+ opencode.db
	layoutExport        // `opencode export` document
)

func (l layout) String() string {
	return [...]string{"none", "json tree", "legacy tree", "sqlite", "export"}[l]
}

var sqliteMagic = []byte("SQLite format 3\x00")

// classify judges path by content. A data directory holding opencode.db is
// the database (what OpenCode itself reads); else its storage/ tree.
func classify(path string) (layout, string) {
	fi, err := os.Stat(path)
	if err != nil {
		return layoutNone, ""
	}
	if !fi.IsDir() {
		head := headOf(path, 1<<12)
		switch {
		case filepath.Base(path) == "opencode.db":
			// OpenCode's by its name: one that is corrupt or not a
			// database is reported as such when opened (db-corrupt), as
			// it is in its data directory, not as a file of no layout.
			return layoutDB, path
		case bytes.HasPrefix(head, sqliteMagic):
			if isOpenCodeDB(path) {
				return layoutDB, path
			}
		case isExportHead(head):
			return layoutExport, path
		}
		return layoutNone, ""
	}
	if db := filepath.Join(path, "opencode.db"); present(db) {
		// OpenCode reads its database whenever there is one (storage/ is
		// only what it imports the first time), so sesstool does too: an
		// opencode.db that is corrupt, foreign or not a regular file is
		// reported when opened, never passed over for a stale storage/.
		return layoutDB, db
	}
	if isLegacyProject(path) {
		// before isTree: a 0.x project's storage/ holds session/info/
		// beside a migration file, which reads as a 1.x tree whose
		// messages are not there
		return layoutLegacy, path
	}
	if isTree(path) {
		return layoutTree, path
	}
	if st := filepath.Join(path, "storage"); isTree(st) {
		return layoutTree, st
	}
	if isLegacy(path) {
		return layoutLegacy, path
	}
	return layoutNone, ""
}

// isTree: a session/<project>/ses_*.json file, next to message/ or migration.
func isTree(dir string) bool {
	if !isDir(filepath.Join(dir, "session")) {
		return false
	}
	if !isDir(filepath.Join(dir, "message")) && !isFile(filepath.Join(dir, "migration")) && !isDir(filepath.Join(dir, "project")) {
		return false
	}
	m, _ := filepath.Glob(filepath.Join(dir, "session", "*", "ses_*.json"))
	return len(m) > 0
}

// isLegacy: project/<slug>/storage/session/info/ (0.x).
func isLegacy(dir string) bool {
	return len(legacyInfoDirs(dir)) > 0
}

// isLegacyProject: one 0.x project folder, named on its own.
func isLegacyProject(dir string) bool {
	return isDir(filepath.Join(dir, "storage", "session", "info"))
}

// legacyProjects are the project folders of a 0.x data folder, or the
// project folder root itself.
func legacyProjects(root string) []string {
	if isLegacyProject(root) {
		return []string{root}
	}
	m, _ := filepath.Glob(filepath.Join(root, "project", "*"))
	return m
}

// legacyInfoDirs are the session info folders of the 0.x tree at root.
func legacyInfoDirs(root string) []string {
	var out []string
	for _, p := range legacyProjects(root) {
		if d := filepath.Join(p, "storage", "session", "info"); isDir(d) {
			out = append(out, d)
		}
	}
	sort.Strings(out)
	return out
}

// isExportHead: a JSON object whose first member is "info" holding a session.
func isExportHead(head []byte) bool {
	h := bytes.TrimLeft(head, " \t\r\n\ufeff")
	if !bytes.HasPrefix(h, []byte("{")) {
		return false
	}
	h = bytes.TrimLeft(h[1:], " \t\r\n")
	if !bytes.HasPrefix(h, []byte(`"info"`)) {
		return false
	}
	return bytes.Contains(h, []byte(`"ses_`)) && (bytes.Contains(h, []byte(`"messages"`)) || len(head) >= 1<<12)
}

func headOf(path string, n int) []byte {
	f, err := regfile.Open(path)
	if err != nil {
		return nil
	}
	defer f.Close()
	b := make([]byte, n)
	k, _ := f.Read(b)
	return b[:k]
}

func isDir(p string) bool   { fi, err := os.Stat(p); return err == nil && fi.IsDir() }
func present(p string) bool { _, err := os.Lstat(p); return err == nil }

// openDBFile opens the database at p when it is a regular file (SQLite
// would block opening a FIFO), naming p otherwise.
func openDBFile(p string) (*dbStore, error) {
	fi, err := os.Stat(p)
	if err == nil {
		err = regfile.Check(p, fi)
	}
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", p, err)
	}
	return openDB(p)
}

func isFile(p string) bool { fi, err := os.Stat(p); return err == nil && fi.Mode().IsRegular() }

// sessionRef is one session found in a store.
type sessionRef struct {
	ID        string
	ProjectID string
	ParentID  string
	File      string // the session file, for the file layouts
}

// store reads one OpenCode store of any layout.
type store interface {
	list() ([]sessionRef, error)
	load(ref sessionRef) (*Doc, error)
	Close() error
}

func openStore(path string) (store, layout, error) { return openStoreFrom(path, nil) }

// openStoreFrom opens the store at path, from snap when snap holds it.
func openStoreFrom(path string, snap *snapshot) (store, layout, error) {
	if snap.holds(path) { // known: no need to classify it again
		src := source{snap: snap}
		if snap.layout == layoutLegacy {
			return &legacyStore{root: snap.root, src: src}, snap.layout, nil
		}
		return &treeStore{root: snap.root, src: src}, snap.layout, nil
	}
	l, p := classify(path)
	src := source{}
	switch l {
	case layoutTree:
		return &treeStore{root: p, src: src}, l, nil
	case layoutLegacy:
		return &legacyStore{root: p, src: src}, l, nil
	case layoutDB:
		s, err := openDBFile(p)
		return s, l, err
	case layoutExport:
		return &exportStore{path: p}, l, nil
	}
	return nil, l, fmt.Errorf("%s: not an OpenCode store, database or export", path)
}

// readJSON reads one file and returns it compact.
func readJSON(path string) ([]byte, error) {
	b, err := regfile.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	c, err := compact(b)
	if err != nil {
		return nil, fmt.Errorf("read %s: invalid JSON: %w", path, err)
	}
	return c, nil
}

// jsonFiles lists dir/*.json sorted by name (OpenCode's Storage.list order).
func jsonFiles(dir string) []string {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	var out []string
	for _, e := range ents {
		if !e.IsDir() && strings.HasSuffix(e.Name(), ".json") && !strings.HasPrefix(e.Name(), ".") {
			out = append(out, filepath.Join(dir, e.Name()))
		}
	}
	sort.Strings(out)
	return out
}

func keyOf(path string) string { return strings.TrimSuffix(filepath.Base(path), ".json") }

// sortMessages orders messages by time.created, then id: never by id alone,
// because the id space wrapped on 2026-08-14.
func sortMessages(ms []Msg) {
	type keyed struct {
		created int64
		id      string
		m       Msg
	}
	ks := make([]keyed, len(ms))
	for i, m := range ms {
		ks[i] = keyed{gjson.GetBytes(m.Info, "time.created").Int(), gjson.GetBytes(m.Info, "id").String(), m}
	}
	sort.SliceStable(ks, func(i, j int) bool {
		if ks[i].created != ks[j].created {
			return ks[i].created < ks[j].created
		}
		return ks[i].id < ks[j].id
	})
	for i := range ks {
		ms[i] = ks[i].m
	}
}

// treeStore is the 1.x storage/ tree.
type treeStore struct {
	root string
	src  source
}

func (t *treeStore) Close() error { return nil }

func (t *treeStore) list() ([]sessionRef, error) {
	var out []sessionRef
	projects, err := os.ReadDir(filepath.Join(t.root, "session"))
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", t.root, err)
	}
	for _, p := range projects {
		if !p.IsDir() {
			continue
		}
		dir := filepath.Join(t.root, "session", p.Name())
		err := t.src.each(dir, func(key string, info []byte) error {
			out = append(out, sessionRef{ID: key, ProjectID: p.Name(), ParentID: gjson.GetBytes(info, "parentID").String(), File: filepath.Join(dir, key+".json")})
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	sortRefs(out)
	return out, nil
}

func (t *treeStore) load(ref sessionRef) (*Doc, error) {
	info, err := t.src.read(ref.File)
	if err != nil {
		return nil, err
	}
	d := &Doc{Info: info, ProjectID: ref.ProjectID}
	err = t.src.each(filepath.Join(t.root, "message", ref.ID), func(mkey string, mi []byte) error {
		m := Msg{Info: mi}
		err := t.src.each(filepath.Join(t.root, "part", mkey), func(_ string, pb []byte) error {
			m.Parts = append(m.Parts, pb)
			return nil
		})
		d.Messages = append(d.Messages, m)
		return err
	})
	if err != nil {
		return nil, err
	}
	sortMessages(d.Messages)
	if d.Todo, err = t.src.opt(filepath.Join(t.root, "todo", ref.ID+".json")); err != nil {
		return nil, err
	}
	if d.Diff, err = t.src.opt(filepath.Join(t.root, "session_diff", ref.ID+".json")); err != nil {
		return nil, err
	}
	if d.Project, err = t.src.opt(filepath.Join(t.root, "project", ref.ProjectID+".json")); err != nil {
		return nil, err
	}
	return d, nil
}

func optJSON(path string) ([]byte, error) {
	if !isFile(path) {
		return nil, nil
	}
	return readJSON(path)
}

func sortRefs(r []sessionRef) {
	sort.Slice(r, func(i, j int) bool { return r[i].ID < r[j].ID })
}

// legacyStore is the 0.x per-project tree.
type legacyStore struct {
	root string
	src  source
}

func (l *legacyStore) Close() error { return nil }

func (l *legacyStore) list() ([]sessionRef, error) {
	var out []sessionRef
	for _, d := range legacyInfoDirs(l.root) {
		slug := filepath.Base(filepath.Dir(filepath.Dir(filepath.Dir(d))))
		err := l.src.each(d, func(key string, info []byte) error {
			out = append(out, sessionRef{ID: key, ProjectID: slug, ParentID: gjson.GetBytes(info, "parentID").String(), File: filepath.Join(d, key+".json")})
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	sortRefs(out)
	return out, nil
}

func (l *legacyStore) load(ref sessionRef) (*Doc, error) {
	info, err := l.src.read(ref.File)
	if err != nil {
		return nil, err
	}
	base := filepath.Dir(filepath.Dir(ref.File)) // .../storage/session
	d := &Doc{Info: info}
	err = l.src.each(filepath.Join(base, "message", ref.ID), func(mkey string, mi []byte) error {
		m := Msg{Info: mi}
		err := l.src.each(filepath.Join(base, "part", ref.ID, mkey), func(_ string, pb []byte) error {
			m.Parts = append(m.Parts, pb)
			return nil
		})
		d.Messages = append(d.Messages, m)
		return err
	})
	if err != nil {
		return nil, err
	}
	sortMessages(d.Messages)
	return d, nil
}

// exportStore is one export document.
type exportStore struct{ path string }

func (e *exportStore) Close() error { return nil }

// list reads the document up to its info member: the messages are read
// when the session is (exportStreamReader), a message at a time.
func (e *exportStore) list() ([]sessionRef, error) {
	f, err := openRegular(e.path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	s, err := openExport(f)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", e.path, err)
	}
	info := gjson.ParseBytes(s.info)
	return []sessionRef{{ID: info.Get("id").String(), ProjectID: info.Get("projectID").String(), ParentID: info.Get("parentID").String(), File: e.path}}, nil
}

func (e *exportStore) load(sessionRef) (*Doc, error) {
	b, err := regfile.ReadFile(e.path)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", e.path, err)
	}
	d, err := decodeDoc(b)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", e.path, err)
	}
	return d, nil
}
