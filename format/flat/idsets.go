package flat

import "github.com/sesstool/sesstool/internal/idset"

// idTable is what the foreign writer keeps per id, in one packed index
// (pi's 8-character ids are packed into integers), so a writer that keeps
// every id it wrote stays flat in session size under the streaming
// commands' memory limit: whether the id is taken in the output, whether
// it is reserved (an 8-hex source id on the path, kept when its entry is
// written), and the id written for it as a source id. Most entries keep
// their id, so the three are one map slot, not three, and the written id
// costs no string of its own.
type idTable struct {
	x     idset.Index
	other []string // written ids that differ from their source id
}

// An id's slot: two flags, then what it was written as (0: not written as
// a source id, 1: itself, k+2: other[k]).
const (
	takenBit    = 1
	reservedBit = 2
	mapShift    = 2
	mapSame     = 1
)

func (t *idTable) slot(id string) int32 { v, _ := t.x.Get(id); return v }

// has reports whether id is taken in the output.
func (t *idTable) has(id string) bool { return t.slot(id)&takenBit != 0 }

// add takes id in the output.
func (t *idTable) add(id string) { t.x.Put(id, t.slot(id)|takenBit) }

// reserve keeps the 8-hex source id for its own entry.
func (t *idTable) reserve(id string) { t.x.Put(id, t.slot(id)|reservedBit) }

func (t *idTable) reserved(id string) bool { return t.slot(id)&reservedBit != 0 }

// get returns the id written for the source id src, or "".
func (t *idTable) get(src string) string {
	switch m := t.slot(src) >> mapShift; m {
	case 0:
		return ""
	case mapSame:
		return src
	default:
		return t.other[m-2]
	}
}

// set records that the source id src was written as id.
func (t *idTable) set(src, id string) {
	m := int32(mapSame)
	if id != src {
		m = int32(len(t.other)) + 2
		t.other = append(t.other, id)
	}
	flags := t.slot(src) & (takenBit | reservedBit)
	t.x.Put(src, flags|m<<mapShift)
}

// toolNames maps the tool call ids written so far to their tools' names:
// ids by hash, names once each (a session calls a handful of tools).
type toolNames struct {
	calls idset.Hashed // call id -> index in names
	index map[string]int32
	names []string
}

func (t *toolNames) has(call string) bool { return t.calls.Has(call) }

// get returns the name of call's tool, "" when call was not written.
func (t *toolNames) get(call string) string {
	if k, ok := t.calls.Get(call); ok {
		return t.names[k]
	}
	return ""
}

func (t *toolNames) put(call, name string) {
	k, ok := t.index[name]
	if !ok {
		if t.index == nil {
			t.index = map[string]int32{}
		}
		k = int32(len(t.names))
		t.index[name] = k
		t.names = append(t.names, name)
	}
	t.calls.Put(call, k)
}
