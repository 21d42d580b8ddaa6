package opencode

import (
	"bytes"
	"encoding/binary"
	"path/filepath"
	"sort"
	"strings"

	"github.com/sesstool/sesstool/internal/idset"
)

// The store-wide rules need a few facts of every message and part until
// the whole store is read. A store of a million messages is two million
// files: kept as Go maps of strings and locations, those facts took about
// 1.5 KiB a message. Here they are rows of pointer-free tables (the
// collector has nothing to mark in them), ids are kept end to end in one
// string table and found through a hashed index, and a file's location is
// derived from its directory (interned: a session's messages share one)
// and its id, which names it.

// strs keeps strings end to end, each after its length, in chunks of
// strsChunk bytes (a longer string gets a chunk of its own): growing never
// copies what is kept.
type strs struct {
	chunks [][]byte
	refs   []uint64 // chunk<<32 | offset
}

const (
	strsFirst = 256
	strsChunk = 64 << 10
)

func (t *strs) add(s string) int32 {
	need := binary.MaxVarintLen64 + len(s)
	if n := len(t.chunks); n == 0 || cap(t.chunks[n-1])-len(t.chunks[n-1]) < need {
		// chunks start small and double: most tables are a folder's
		// listing, and most folders (a part folder per message) hold one
		// name; a 64 KiB chunk each cleared 6 GB for 100,000 messages
		size := strsFirst
		if n > 0 {
			size = min(2*cap(t.chunks[n-1]), strsChunk)
		}
		t.chunks = append(t.chunks, make([]byte, 0, max(size, need)))
	}
	n := len(t.chunks) - 1
	c := t.chunks[n]
	t.refs = append(t.refs, uint64(n)<<32|uint64(len(c)))
	c = binary.AppendUvarint(c, uint64(len(s)))
	t.chunks[n] = append(c, s...)
	return int32(len(t.refs) - 1)
}

// bytes is string i, in the table: not to be changed.
func (t *strs) bytes(i int32) []byte { return t.at(t.refs[i]) }

func (t *strs) at(r uint64) []byte {
	c := t.chunks[r>>32][uint32(r):]
	n, k := binary.Uvarint(c)
	return c[k : k+int(n)]
}

func (t *strs) get(i int32) string { return string(t.bytes(i)) }

// sort orders the strings by their bytes.
func (t *strs) sort() {
	sort.Slice(t.refs, func(a, b int) bool { return bytes.Compare(t.at(t.refs[a]), t.at(t.refs[b])) < 0 })
}

// interned numbers strings that recur (session ids, roles, directories):
// each is kept once.
type interned struct {
	ix   map[string]int32
	list []string
}

func (t *interned) of(s string) int32 {
	if i, ok := t.ix[s]; ok {
		return i
	}
	if t.ix == nil {
		t.ix = map[string]int32{}
	}
	s = strings.Clone(s) // s may point into a file's bytes
	t.ix[s] = int32(len(t.list))
	t.list = append(t.list, s)
	return int32(len(t.list) - 1)
}

// How a row's location is spelled (its at field says where).
const (
	atFile uint8 = iota // the file dirs[at]/<id>.json
	atIn                // the file dirs[at]/<message id>/<id>.json: a part filed under its message
	atRow               // the row ptrPrefix+<id> of the database dirs[at]
	atLoc               // locs[at], as it was
)

// msgRow is what the rules across files need of one message id: of the
// message, once read (seen), and of the parts naming it.
type msgRow struct {
	id       int32 // in ids
	session  int32 // in names
	role     int32 // in names
	parent   int32 // an assistant's parent's row; -1 without one
	at       int32
	parts    int32 // the parts naming the message, and of them compaction requests
	compacts int32
	atKind   uint8
	seen     bool
	summary  bool
}

// partRow is what the rules across files need of one part.
type partRow struct {
	id      int32 // in ids
	message int32 // its message's row
	session int32 // in names
	at      int32
	atKind  uint8
}

// tables holds the rows of a store's messages and parts.
type tables struct {
	ids   strs
	byID  idset.Hashed // message id -> row
	msgs  []msgRow
	parts []partRow
	names interned // session ids and roles
	dirs  interned // directories and database paths
	locs  []loc    // locations spelled no other way
}

// row returns the row of message id, adding one not yet seen.
func (t *tables) row(id string) int32 {
	if r, ok := t.byID.Get(id); ok {
		return r
	}
	r := int32(len(t.msgs))
	t.msgs = append(t.msgs, msgRow{id: t.ids.add(id), parent: -1})
	t.byID.Put(id, r)
	return r
}

// place says where a message or part with id is, at, as few bytes: the
// location is rebuilt from them (locOf) when a rule reports it. in is the
// message a part is filed under; ptrPrefix the pointer a database row's id
// follows.
func (t *tables) place(at loc, id, in, ptrPrefix string, ptrs ...string) (int32, uint8) {
	plain := at.src == nil && at.line0 == 0 && at.lines == nil && at.base == ""
	switch {
	case plain && at.file && at.ptr == "" && isName(at.name, id):
		if in != "" && len(at.path) > len(in) && strings.HasSuffix(at.path, in) && at.path[len(at.path)-len(in)-1] == filepath.Separator &&
			filepath.Join(at.path[:len(at.path)-len(in)-1], in) == at.path {
			return t.dirs.of(at.path[:len(at.path)-len(in)-1]), atIn
		}
		return t.dirs.of(at.path), atFile
	case plain && !at.file && at.name == "" && ptrPrefix != "" && len(at.ptr) == len(ptrPrefix)+len(id) &&
		strings.HasPrefix(at.ptr, ptrPrefix) && strings.HasSuffix(at.ptr, id):
		return t.dirs.of(at.path), atRow
	}
	t.locs = append(t.locs, at.kept(ptrs...))
	return int32(len(t.locs) - 1), atLoc
}

// isName: name is id's file, <id>.json.
func isName(name, id string) bool {
	return len(name) == len(id)+len(".json") && strings.HasPrefix(name, id) && strings.HasSuffix(name, ".json")
}

// locOf rebuilds the location place made of id's at and kind; message is
// the id of the message a part is filed under.
func (t *tables) locOf(at int32, kind uint8, id, message, ptrPrefix string) loc {
	switch kind {
	case atFile:
		return loc{path: t.dirs.list[at], name: id + ".json", file: true}
	case atIn:
		return loc{path: filepath.Join(t.dirs.list[at], message), name: id + ".json", file: true}
	case atRow:
		return loc{path: t.dirs.list[at], ptr: ptrPrefix + id}
	}
	return t.locs[at]
}

func (t *tables) msgLoc(m *msgRow) loc {
	return t.locOf(m.at, m.atKind, t.ids.get(m.id), "", "/message/")
}

func (t *tables) partLoc(p *partRow) loc {
	return t.locOf(p.at, p.atKind, t.ids.get(p.id), t.ids.get(t.msgs[p.message].id), "/part/")
}

// seenByID is the rows of the messages read, in id order.
func (t *tables) seenByID() []int32 {
	var order []int32
	for i := range t.msgs {
		if t.msgs[i].seen {
			order = append(order, int32(i))
		}
	}
	sort.Slice(order, func(a, b int) bool {
		return bytes.Compare(t.ids.bytes(t.msgs[order[a]].id), t.ids.bytes(t.msgs[order[b]].id)) < 0
	})
	return order
}
