package tree

import (
	"fmt"
	"hash/maphash"
	"strconv"
	"strings"
	"time"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/sesstool/sesstool/format"
	"github.com/sesstool/sesstool/internal/idset"
	"github.com/sesstool/sesstool/report"
	"github.com/sesstool/sesstool/schema"
	"github.com/sesstool/sesstool/validate"
	"github.com/tidwall/gjson"
)

// Entry types each version knows; anything else is a warning.
var (
	typesV1  = []string{"message", "compaction", "thinking_level_change", "model_change"}
	typesV2  = append(append([]string(nil), typesV1...), "branch_summary", "custom", "custom_message", "label", "session_info")
	ompTypes = []string{"ttsr_injection", "session_init", "mode_change", "service_tier_change", "model_usage",
		"reset_boundary", "archive", "credential_pin", "title_change"}
)

func knownTypes(version int) map[string]bool {
	out := map[string]bool{}
	list := typesV1
	if version != 1 {
		list = append(append([]string(nil), typesV2...), ompTypes...)
	}
	for _, t := range list {
		out[t] = true
	}
	return out
}

// headerVersion reads the version a header line states: 1 when absent,
// 0 when it is not an integer.
func headerVersion(h []byte) int {
	v := gjson.GetBytes(h, "version")
	if !v.Exists() {
		return 1
	}
	n, ok := integer([]byte(v.Raw))
	if !ok || n > 1<<20 || n < 0 {
		return 0
	}
	return int(n)
}

// rules are the sequential checks. They hold ids and parent links, the tool
// call ids of assistant entries and references not yet resolved: never whole
// entries. Memory per entry is kept small (an index per id, two int32s, ids
// copied out of the line so the line itself can be freed), since a session
// can hold millions of entries.
type rules struct {
	path    string
	rep     *report.Report
	schemas map[string]*jsonschema.Schema
	version int
	known   map[string]bool

	lines    int // JSON lines seen
	entries  int
	header   int // line of the header, 0 until seen
	noHeader bool
	ordinal  int         // entries so far; v1 firstKeptEntryIndex counts the header as 0
	ids      idset.Index // id -> index into lineOf, parentOf and callEnd
	lineOf   []int32     // line by index
	parentOf []int32     // parent index by index: noParent, or unresolved until Finish
	// The tool calls entry k made are callHash[callEnd[k-1]:callEnd[k]]:
	// hashes, not ids, so an assistant entry costs 8 bytes a call.
	callHash []uint64
	callEnd  []int32
	seed     maphash.Seed
	refs     []ref    // references to ids not seen yet when read
	keys     []string // id by index, built for the first cycle found
}

const (
	noParent   = -1
	unresolved = -2 // a parent named before its entry: resolved in Finish
)

type ref struct {
	line    int
	pointer string
	target  string
	rule    string
	what    string
	from    int32 // for a parentId: the entry whose parent this is, else -1
}

// Schema picks the entry type's own schema, which says the same as
// line.json's dispatch without evaluating every branch of it.
func (r *rules) Schema(v gjson.Result) *jsonschema.Schema {
	if t := v.Get("type"); t.Type == gjson.String {
		if s, ok := r.schemas[t.Str]; ok {
			return s
		}
	}
	return r.schemas[""]
}

// compileSchemas returns version v's schema per entry type, "" being
// line.json for anything else (an unknown type passes it; a rule warns).
func compileSchemas(v int) (map[string]*jsonschema.Schema, error) {
	out := map[string]*jsonschema.Schema{}
	prefix := fmt.Sprintf("tree/v%d/", v)
	for _, name := range schema.List() {
		base, ok := strings.CutPrefix(name, prefix)
		if !ok || base == "defs.json" {
			continue
		}
		typ := strings.TrimSuffix(base, ".json")
		switch typ {
		case "line":
			typ = ""
		case "header":
			typ = "session"
		}
		s, err := schema.Compile(name)
		if err != nil {
			return nil, err
		}
		out[typ] = s
	}
	if out[""] == nil {
		return nil, fmt.Errorf("no schema %sline.json", prefix)
	}
	return out, nil
}

func (r *rules) errorf(line int, ptr, rule, f string, a ...any) {
	r.rep.Errorf(r.path, line, ptr, rule, f, a...)
}

func (r *rules) Check(l validate.Line) {
	first := r.lines == 0
	r.lines++
	if !l.Valid || !l.Value.IsObject() {
		if r.header > 0 || !first {
			r.entries++
		}
		if first {
			r.noHeader = true // unreadable first line: the engine said why
		}
		return
	}
	f := readFields(l.Bytes)
	typ := f.v[fType].String()
	switch {
	case first && typ == "title":
		r.lines = 0 // oh-my-pi's title slot sits before the header
		return
	case typ == "session":
		if !first {
			r.entries++ // the reader yields a second header as an entry (docs/commands.md, "entries")
		}
		r.checkHeader(l.N, &f, first)
		return
	case first:
		r.noHeader = true
		r.errorf(l.N, "", "missing-header", "the first line is a %q entry, not the session header", typ)
	}
	r.entries++
	r.ordinal++
	r.checkEntry(l.N, &f, typ)
}

func (r *rules) checkHeader(n int, f *lineFields, first bool) {
	switch {
	case r.header > 0:
		r.errorf(n, "/type", "duplicate-header", "second session header (the first is on line %d)", r.header)
		return
	case !first:
		r.errorf(n, "/type", "missing-header", "session header on line %d, but it must be the first line", n)
		return
	}
	r.header = n
	if ver := f.v[fVersion]; ver.Exists() {
		if n2, ok := integer([]byte(ver.Raw)); !ok || n2 < 1 || n2 > 3 {
			r.errorf(n, "/version", "unknown-version", "unknown version %s (known: 1, 2, 3; none means 1)", ver.Raw)
		}
	}
	r.checkTime(n, f)
	if id := f.v[fID]; id.Type == gjson.String {
		if why := format.UnsafeID(id.Str); why != "" {
			r.errorf(n, "/id", "unsafe-id", "session id %q %s: it cannot name an output file or directory", id.Str, why)
		}
	}
}

func (r *rules) checkTime(n int, f *lineFields) {
	ts := f.v[fTimestamp]
	if ts.Type != gjson.String {
		return // absent or not a string: the schema says so
	}
	if _, err := time.Parse(time.RFC3339Nano, ts.Str); err != nil {
		r.errorf(n, "/timestamp", "bad-timestamp", "timestamp %q is not an RFC 3339 time", ts.Str)
	}
}

func (r *rules) checkEntry(n int, f *lineFields, typ string) {
	if f.v[fType].Type == gjson.String && !r.known[typ] {
		r.rep.Warnf(r.path, n, "/type", "unknown-entry-type", "unknown entry type %q (kept as it is)", typ)
	}
	r.checkTime(n, f)
	key, parent, ok := r.checkIDs(n, f)
	if !ok {
		return
	}
	r.checkRefs(n, f, typ)
	msg := f.v[fMessage]
	if typ != "message" || !msg.IsObject() {
		return
	}
	m := readMessage(f.message)
	switch m.role.String() {
	case "assistant":
		eachToolCall(m.content, func(id string) {
			r.callHash = append(r.callHash, maphash.String(r.seed, id))
		})
		r.callEnd[key] = int32(len(r.callHash))
	case "toolResult":
		id := m.toolCallID
		if id.Type == gjson.String && !r.onPath(parent, id.Str) {
			r.rep.Warnf(r.path, n, "/message/toolCallId", "orphan-tool-result",
				"tool result for call %q, but no earlier entry on its path made that tool call", id.Str)
		}
	}
}

// checkIDs records the entry's id and parent and returns the entry's index
// and its parent's (noParent for a root, unresolved for a parent not seen
// yet). v1 entries have no ids: they get a key of their own, chained in file
// order.
func (r *rules) checkIDs(n int, f *lineFields) (key, parent int32, ok bool) {
	if r.version == 1 {
		for _, k := range []int{fID, fParentID} {
			if f.v[k].Exists() {
				name := [...]string{fID: "id", fParentID: "parentId"}[k]
				r.errorf(n, "/"+name, "unexpected-id", "a version 1 entry has no %s (ids came with version 2)", name)
			}
		}
		parent = int32(len(r.lineOf)) - 1 // the previous entry, or noParent
		return r.add("", n, parent), parent, true
	}
	id := f.v[fID]
	if id.Type != gjson.String || id.Str == "" {
		r.errorf(n, "", "missing-id", "entry has no id (version %d entries must have one)", r.version)
		return 0, 0, false
	}
	pid := f.v[fParentID]
	parent = noParent
	switch {
	case !pid.Exists():
		r.errorf(n, "", "missing-id", "entry has no parentId (null for a root)")
	case pid.Type == gjson.String:
		parent = r.resolve(n, "/parentId", pid.Str, "dangling-parent", "parent")
	}
	if first, dup := r.lookup(id.Str); dup {
		r.errorf(n, "/id", "duplicate-id", "id %q is already used on line %d", id.Str, r.lineOf[first])
		return 0, 0, false
	}
	key = r.add(id.Str, n, parent)
	if parent == unresolved {
		r.refs[len(r.refs)-1].from = key
	}
	return key, parent, true
}

// add records an entry and returns its index. A version 1 entry has no id
// (see lookup).
func (r *rules) add(id string, line int, parent int32) int32 {
	k := int32(len(r.lineOf))
	if r.version != 1 {
		r.ids.Put(id, k)
	}
	r.lineOf = append(r.lineOf, int32(line))
	r.parentOf = append(r.parentOf, parent)
	r.callEnd = append(r.callEnd, int32(len(r.callHash)))
	return k
}

// resolve returns the index of the entry target names, or notes a reference
// for Finish to resolve (or report) and returns unresolved.
func (r *rules) resolve(line int, pointer, target, rule, what string) int32 {
	if k, ok := r.lookup(target); ok {
		return k
	}
	r.refs = append(r.refs, ref{line: line, pointer: pointer, target: strings.Clone(target), rule: rule, what: what, from: -1})
	return unresolved
}

// lookup returns the index of the entry with id. Version 1 entries have no
// ids: the n-th (1-based, in file order) is known as "#n", its index plus
// one, so no map is kept for them (at a million entries, tens of MB).
func (r *rules) lookup(id string) (int32, bool) {
	if r.version != 1 {
		return r.ids.Get(id)
	}
	digits, ok := strings.CutPrefix(id, "#")
	if !ok || digits == "" || len(digits) > 9 || digits[0] == '0' {
		return 0, false
	}
	n := 0
	for _, c := range []byte(digits) {
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int(c-'0')
	}
	if n > len(r.lineOf) {
		return 0, false
	}
	return int32(n - 1), true
}

// key is the id of the entry at index k.
func (r *rules) key(k int32) string {
	if r.version == 1 {
		return "#" + strconv.Itoa(int(k)+1)
	}
	if r.keys == nil {
		r.keys = make([]string, len(r.lineOf))
		r.ids.Each(func(id string, k int32) { r.keys[k] = id })
	}
	return r.keys[k]
}

func (r *rules) checkRefs(n int, f *lineFields, typ string) {
	add := func(k int, field, what string) {
		if t := f.v[k]; t.Type == gjson.String {
			r.resolve(n, "/"+field, t.Str, "dangling-reference", what)
		}
	}
	switch typ {
	case "compaction":
		add(fFirstKeptEntryID, "firstKeptEntryId", "first kept entry")
		if idx := f.v[fFirstKeptEntryIndex]; idx.Exists() && r.version == 1 {
			i, ok := integer([]byte(idx.Raw))
			if !ok || i < 1 || i >= int64(r.ordinal) {
				r.errorf(n, "/firstKeptEntryIndex", "dangling-reference",
					"firstKeptEntryIndex %s names no earlier entry (1..%d; the header is 0)", idx.Raw, r.ordinal-1)
			}
		}
	case "branch_summary":
		if f.v[fFromID].String() != "root" {
			add(fFromID, "fromId", "branch point")
		}
	case "label":
		add(fTargetID, "targetId", "label target")
	}
}

// onPath walks up from parent looking for an entry that made tool call id
// (compared by 64-bit hash: a false match is as likely as 2^-64 a step).
// Only entries already seen are on the path; the walk cannot loop longer
// than there are entries.
func (r *rules) onPath(parent int32, id string) bool {
	h := maphash.String(r.seed, id)
	for steps, p := 0, parent; p >= 0 && steps <= len(r.parentOf); steps++ {
		from := int32(0)
		if p > 0 {
			from = r.callEnd[p-1]
		}
		for _, c := range r.callHash[from:r.callEnd[p]] {
			if c == h {
				return true
			}
		}
		p = r.parentOf[p]
	}
	return false
}

func (r *rules) Finish() {
	if r.header == 0 && !r.noHeader {
		r.errorf(0, "", "missing-header", "no session header (the file has no entries at all)")
	}
	for _, f := range r.refs {
		k, ok := r.lookup(f.target)
		if !ok {
			r.errorf(f.line, f.pointer, f.rule, "%s %q is not an entry in this file", f.what, f.target)
			k = noParent
		}
		if f.from >= 0 {
			r.parentOf[f.from] = k
		}
	}
	r.cycles()
}

// cycles finds parent loops with a three-colour walk over indexes only, and
// reports each loop once, at its earliest line. Only a parent named before
// its entry can close a loop, so files without one skip the walk.
func (r *rules) cycles() {
	forward := false
	for _, f := range r.refs {
		forward = forward || f.from >= 0
	}
	if !forward {
		return
	}
	const (
		fresh = iota
		active
		done
	)
	state := make([]uint8, len(r.lineOf))
	for start := range r.lineOf {
		var stack []int32
		p := int32(start)
		for p >= 0 && state[p] == fresh {
			state[p] = active
			stack = append(stack, p)
			p = r.parentOf[p]
		}
		if p >= 0 && state[p] == active {
			i := 0
			for stack[i] != p {
				i++
			}
			loop := stack[i:]
			at := loop[0]
			for _, k := range loop {
				if r.lineOf[k] < r.lineOf[at] {
					at = k
				}
			}
			names := make([]string, 0, len(loop)+1)
			for _, k := range loop {
				names = append(names, strconv.Quote(r.key(k)))
			}
			names = append(names, strconv.Quote(r.key(loop[0])))
			r.errorf(int(r.lineOf[at]), "/parentId", "cycle", "parentId links form a cycle: %s", strings.Join(names, " -> "))
		}
		for _, k := range stack {
			state[k] = done
		}
	}
}
