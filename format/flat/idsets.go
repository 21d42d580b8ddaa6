package flat

import "github.com/sesstool/sesstool/internal/idset"

// idSet is a set of entry ids in a few bytes each (pi's 8-character ids
// are packed into integers), so a writer that keeps every id it wrote stays
// flat in session size under the streaming commands' memory limit.
type idSet struct{ x idset.Index }

func (s *idSet) has(id string) bool { _, ok := s.x.Get(id); return ok }
func (s *idSet) add(id string)      { s.x.Put(id, 0) }

// idMap maps source ids to written ids. Most entries keep their id, which
// then costs no string of its own.
type idMap struct {
	x     idset.Index
	other []string // written ids that differ from their source id
}

const sameID = -1

// get returns the id written for src, or "".
func (m *idMap) get(src string) string {
	k, ok := m.x.Get(src)
	switch {
	case !ok:
		return ""
	case k == sameID:
		return src
	}
	return m.other[k]
}

func (m *idMap) set(src, id string) {
	if id == src {
		m.x.Put(src, sameID)
		return
	}
	m.x.Put(src, int32(len(m.other)))
	m.other = append(m.other, id)
}
