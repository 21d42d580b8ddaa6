package migrate

import (
	"fmt"
	"github.com/sesstool/sesstool/internal/idset"
	"math"
	"strconv"

	"github.com/sesstool/sesstool/format"
	"github.com/sesstool/sesstool/session"
	"github.com/tidwall/gjson"
)

// lineFunc rewrites one line (by recording edits on l), in file order.
type lineFunc func(l *line) error

// step is one version step; start returns the line function for one file,
// with whatever per-file state the step needs.
type step struct {
	from, to int
	start    func(f *fileState) lineFunc
}

// steps lists every step sesstool performs. Down from 3 to 2 is lossless;
// there is no step down to 1 (see plan).
var steps = []step{
	{1, 2, v1to2},
	{2, 3, v2to3},
	{3, 2, v3to2},
}

// plan returns the steps that take a file from version from to version to.
func plan(from, to int) ([]step, error) {
	var out []step
	for v := from; v != to; {
		next := v + 1
		if to < from {
			next = v - 1
		}
		s, ok := findStep(v, next)
		if !ok {
			// Name the request, not the step it stops at: a user asking
			// for 3 -> 1 is told 3 -> 1.
			return nil, fmt.Errorf("%w: version %d to %d (only the lossless step 3 -> 2 goes down; v1 has no ids or tree, so a step down to 1 would lose them)", format.ErrRefusedStep, from, to)
		}
		out = append(out, s)
		v = next
	}
	return out, nil
}

func findStep(from, to int) (step, bool) {
	for _, s := range steps {
		if s.from == from && s.to == to {
			return s, true
		}
	}
	return step{}, false
}

// v1to2 is pi's migrateV1ToV2 on raw lines: the header gets version 2; every
// other entry gets a derived id and, as parentId, the id of the entry before
// it (null for the first), a single chain in file order; a compaction's
// firstKeptEntryIndex (an index into the entries with the header at 0)
// becomes firstKeptEntryId and the index is removed in every case, so an
// index at the header, out of range, or at a line without an id leaves the
// compaction without firstKeptEntryId, as in pi. Legacy header fields stay.
func v1to2(f *fileState) lineFunc {
	prev, cur := []byte("null"), []byte(nil) // quoted ids of the previous entry and this one
	var ids hexByPos
	return func(l *line) error {
		if l.header {
			l.set("version", []byte("2"))
			f.notef("line %d: header version 1 -> 2", l.n)
			return nil
		}
		if l.typ == "session" {
			return fmt.Errorf("line %d: a second session header", l.n)
		}
		id := session.DerivedID(f.sessionID, l.n, f.isTaken)
		v, ok := idset.Hex8(id)
		if !ok {
			return fmt.Errorf("line %d: derived id %q is not 8 hex digits", l.n, id) // cannot happen: DerivedID makes them
		}
		f.derived.add(v)
		ids.put(l.pos, v)
		cur = strconv.AppendQuote(cur[:0], id) // 8 hex digits: no escaping needed
		l.set("id", cur)
		l.set("parentId", prev)
		prev, cur = cur, prev
		f.ids++
		if l.typ == "compaction" {
			resolveFirstKept(f, l, &ids)
		}
		return nil
	}
}

// resolveFirstKept turns a numeric firstKeptEntryIndex into firstKeptEntryId.
func resolveFirstKept(f *fileState, l *line, ids *hexByPos) {
	idx := l.result("firstKeptEntryIndex")
	if idx.Type != gjson.Number {
		return // pi only converts a number; anything else stays as it is
	}
	i, whole := idx.Num, idx.Num == math.Trunc(idx.Num)
	switch {
	case !whole || i < 0 || i >= float64(ids.len()):
		f.notef("line %d: compaction firstKeptEntryIndex %s is out of range or ahead of the compaction: removed, no firstKeptEntryId (as pi does)", l.n, idx.Raw)
	case i == 0:
		f.notef("line %d: compaction firstKeptEntryIndex 0 points at the header: removed, no firstKeptEntryId (as pi does)", l.n)
	case !ids.has(int(i)):
		f.notef("line %d: compaction firstKeptEntryIndex %s points at a skipped line: removed, no firstKeptEntryId", l.n, idx.Raw)
	default:
		v, _ := ids.get(int(i))
		id := idset.Hex8String(v)
		l.set("firstKeptEntryId", strconv.AppendQuote(nil, id))
		f.notef("line %d: compaction firstKeptEntryIndex %s -> firstKeptEntryId %q", l.n, idx.Raw, id)
	}
	l.remove("firstKeptEntryIndex")
}

// v2to3 is pi's migrateV2ToV3: the header gets version 3 and a message with
// role hookMessage gets role custom (the two share every other field).
func v2to3(f *fileState) lineFunc {
	return renameRole(f, 3, "hookMessage", "custom")
}

// v3to2 undoes v2to3. pi's v3 role custom is its v2 role hookMessage renamed
// (hooks became extensions; version 2 had no message role custom), so every
// stored message with role custom goes back to hookMessage; roles elsewhere
// (content blocks, details, custom_message entries, which have none) are not
// looked at, exactly as v2to3 does not look at them.
func v3to2(f *fileState) lineFunc {
	return renameRole(f, 2, "custom", "hookMessage")
}

func renameRole(f *fileState, version int, from, to string) lineFunc {
	newRole := strconv.AppendQuote(nil, to)
	return func(l *line) error {
		if l.header {
			old := l.result("version").Raw
			l.set("version", strconv.AppendInt(nil, int64(version), 10))
			f.notef("line %d: header version %s -> %d", l.n, old, version)
			return nil
		}
		if l.typ != "message" {
			return nil
		}
		if r, start, end, ok := l.getIn("message", "role"); ok && r.Type == gjson.String && r.Str == from {
			l.setIn(start, end, newRole)
			f.roles[from+" -> "+to]++
		}
		return nil
	}
}
