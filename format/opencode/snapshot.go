package opencode

import (
	"fmt"
	"path/filepath"
	"sort"
	"strings"
	"sync"

	"github.com/sesstool/sesstool/format"
	"github.com/sesstool/sesstool/session"
)

// snapshot is a JSON tree store as the validator read it: every file that
// parsed, as compact JSON, by directory in name order. Convert and export
// read the store from it, so each of its many small files is opened once,
// and what they convert is exactly what was validated.
type snapshot struct {
	path   string // the path it was taken of, as given
	root   string // the storage root, as classify names it
	layout layout
	dirs   map[string][]snapFile
	arena  []byte // the files' bytes, in chunks: few objects for the collector to scan
	size   int    // bytes kept

	once sync.Once // makes ix
	ix   index
	err  error
}

// index is the store's session list, made once: opening each of a store's
// many sessions would otherwise list the store again each time.
type index struct {
	refs     []sessionRef
	byID     map[string]int      // the last ref with the id (what openIn's scan finds)
	children map[string][]string // ids by parent id, in refs order
}

type snapFile struct {
	name string
	v    []byte
}

// arenaChunk is the size of the chunks the snapshot copies files into.
const arenaChunk = 1 << 20

func newSnapshot(path, root string, l layout) *snapshot {
	return &snapshot{path: path, root: root, layout: l, dirs: map[string][]snapFile{}}
}

func (s *snapshot) holds(path string) bool { return s != nil && s.path == path }

// index lists st, which reads from s, once.
func (s *snapshot) index(st store) (*index, error) {
	s.once.Do(func() {
		refs, err := st.list()
		if err != nil {
			s.err = err
			return
		}
		ix := index{refs: refs, byID: map[string]int{}, children: map[string][]string{}}
		for i, r := range refs {
			ix.byID[r.ID] = i
			if r.ParentID != "" {
				ix.children[r.ParentID] = append(ix.children[r.ParentID], r.ID)
			}
		}
		s.ix = ix
	})
	return &s.ix, s.err
}

// add keeps a copy of one file of the n in dir; a directory's files come in
// name order.
func (s *snapshot) add(dir, name string, v []byte, n int) {
	if cap(s.arena)-len(s.arena) < len(v) {
		s.arena = make([]byte, 0, max(arenaChunk, len(v)))
	}
	lo := len(s.arena)
	s.arena = append(s.arena, v...)
	s.size += len(v)
	fs := s.dirs[dir]
	if fs == nil {
		fs = make([]snapFile, 0, n)
	}
	s.dirs[dir] = append(fs, snapFile{name: name, v: s.arena[lo:len(s.arena):len(s.arena)]})
}

func (s *snapshot) get(path string) []byte {
	fs, name := s.dirs[filepath.Dir(path)], filepath.Base(path)
	i := sort.Search(len(fs), func(i int) bool { return fs[i].name >= name })
	if i < len(fs) && fs[i].name == name {
		return fs[i].v
	}
	return nil
}

// source is where a tree store's files come from: the disk, or the
// snapshot its validation took.
type source struct{ snap *snapshot }

// each calls fn for dir's *.json files in name order, with their names
// less .json and their compact bytes.
func (s source) each(dir string, fn func(key string, v []byte) error) error {
	if s.snap != nil {
		for _, f := range s.snap.dirs[dir] {
			if err := fn(strings.TrimSuffix(f.name, ".json"), f.v); err != nil {
				return err
			}
		}
		return nil
	}
	for _, f := range jsonFiles(dir) {
		v, err := readJSON(f)
		if err != nil {
			return err
		}
		if err := fn(keyOf(f), v); err != nil {
			return err
		}
	}
	return nil
}

// read returns one file's compact bytes.
func (s source) read(path string) ([]byte, error) {
	if s.snap == nil {
		return readJSON(path)
	}
	if v := s.snap.get(path); v != nil {
		return v, nil
	}
	return nil, fmt.Errorf("read %s: not among the files validated", path)
}

// opt returns an optional file's compact bytes, nil when it is absent.
func (s source) opt(path string) ([]byte, error) {
	if s.snap == nil {
		return optJSON(path)
	}
	return s.snap.get(path), nil
}

// loaded is the layout over one validated store.
type loaded struct {
	Format
	path string
	snap *snapshot
}

func (l loaded) Sessions(path string) ([]format.Ref, error) {
	if path != l.path {
		return sessions(path)
	}
	return sessionsIn(path, l.snap)
}

func (l loaded) Open(ref format.Ref) (session.Reader, error) {
	if ref.Path != l.path {
		return open(ref)
	}
	return openIn(ref, l.snap)
}

var _ format.Loader = Format{}
