package claude

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/sesstool/sesstool/format"
	"github.com/sesstool/sesstool/internal/idset"
	"github.com/sesstool/sesstool/jsonx"
	"github.com/sesstool/sesstool/report"
	"github.com/sesstool/sesstool/schema"
	"github.com/sesstool/sesstool/session"
	"github.com/sesstool/sesstool/validate"
	"github.com/tidwall/gjson"
)

// LineSchema is the schema every line is checked against.
const LineSchema = "claude/v1/line.json"

// knownTypes are the line types sesstool knows; any other is a warning
// (unknown-line-type), since every Claude Code version adds some.
var knownTypes = map[string]bool{
	"user": true, "assistant": true, "system": true, "summary": true, "file-history-snapshot": true,
	"queue-operation": true, "progress": true, "attachment": true, "custom-title": true, "ai-title": true,
	"last-prompt": true, "pr-link": true, "agent-name": true, "permission-mode": true, "agent-setting": true,
	"bridge-session": true, "worktree-state": true, "tag": true,
	// 2.1.332
	"atis-latch": true, "api-request-shape": true, "api-request-blob": true, "api-request": true,
	"tools-used": true, "cost-state": true, "mode": true,
}

// Validate checks every session at path (a session file, a project folder
// or a store), each with its sub-agent transcripts.
func (f Format) Validate(path string, rep *report.Report, opt format.ValidateOptions) error {
	refs, err := f.Sessions(path)
	if err != nil {
		return err
	}
	sch, err := schema.Compile(LineSchema)
	if err != nil {
		return err
	}
	for _, ref := range refs {
		files := append([]string{ref.Path}, subagentFiles(ref.Path, readerSessionID(ref.Path))...)
		var main *rules
		lines, entries, readable := 0, 0, true
		for _, p := range files {
			o := opt
			if p != path {
				o.Size = 0 // the size of the file named, not of the others
			}
			r, err := validateFile(p, main, sch, rep, o)
			if err != nil {
				return err
			}
			if main == nil {
				main = r
			} else {
				entries++ // the run's marker
			}
			lines += r.lines
			entries += r.group.entries
			readable = readable && !r.unreadable
		}
		// A session the reader cannot read (its findings say why) counts
		// its lines.
		if !readable {
			entries = lines
		}
		rep.Counted(Name, len(files), entries)
	}
	return nil
}

// readerSessionID is the session id the reader finds the sub-agent runs
// of a session file by: the first sessionId of its lines, else its name.
func readerSessionID(path string) string {
	if id := fileSessionID(path); id != "" {
		return id
	}
	return strings.TrimSuffix(filepath.Base(path), ".jsonl")
}

// validateFile checks one file; main is the session file's rules when
// path is one of its sub-agent transcripts, whose lines may name the
// session's (a compaction's sub-agent continues from them).
func validateFile(path string, main *rules, sch *jsonschema.Schema, rep *report.Report, opt format.ValidateOptions) (*rules, error) {
	fh, c, err := format.OpenPrefix(path, opt.Size)
	if err != nil {
		return nil, err
	}
	defer c.Close()
	r := &rules{path: path, rep: rep, schema: sch, sidechain: main != nil, results: resultsDir(path)}
	if main != nil {
		r.outer = &main.uuids
		r.results = main.results // a sub-agent's side files are its session's
	}
	j := validate.JSONL{Path: path, Rules: r, Report: rep, Workers: opt.Workers}
	if _, err := j.Run(fh); err != nil {
		return nil, err
	}
	return r, nil
}

// rules are the checks a schema cannot express, applied in file order.
// Rule names are stable; docs/claude.md lists them.
type rules struct {
	path      string
	rep       *report.Report
	schema    *jsonschema.Schema
	sidechain bool // a sub-agent transcript

	lines      int
	group      grouping // the entries, as the reader yields them
	unreadable bool     // a line the reader cannot read: the entries are the lines
	conv       bool     // a line of the conversation was seen (what detection looks for)
	uuids      ids
	outer      *ids         // a sub-agent's session file's uuids
	parents    []pending    // parent links not resolved when seen
	calls      idset.Hashed // tool_use ids: 20 bytes each, where ids keeps one of 31 bytes in 36
	session    string
	results    string // the session's tool-results folder
}

// pending is a link to check when the file has been read: Claude Code
// appends, but a resumed session may name a line written after it.
type pending struct {
	line    int
	ptr, id string
	logical bool
}

func (r *rules) Schema(gjson.Result) *jsonschema.Schema { return r.schema }

func (r *rules) Check(l validate.Line) {
	r.lines++
	if !l.Valid {
		r.count(l)
		return
	}
	// one walk over the line's members: lines run to megabytes
	var h head
	var typ, sid, id, parent, logical, ts gjson.Result
	b := l.Bytes
	eachMember(b, func(k string, m jsonx.Member) {
		h.take(b, k, m)
		switch k {
		case "type":
			typ = m.Value(b)
		case "sessionId":
			sid = m.Value(b)
		case "uuid":
			id = m.Value(b)
		case "parentUuid":
			parent = m.Value(b)
		case "logicalParentUuid":
			logical = m.Value(b)
		case "timestamp":
			if !ts.Exists() {
				ts = m.Value(b) // the first, as Get finds it
			}
		}
	})
	h.readMessage()
	if !l.Value.IsObject() {
		r.unreadable = true
	}
	r.group.step(h)
	if r.lines == 1 && !claudeFirstLine(typ, sid, id) {
		r.rep.Errorf(r.path, l.N, "", "first-line", "the first line is not one Claude Code writes (a line type it knows, or one with a sessionId and a type or uuid), so detection passes the file over")
	}
	if typ.Type == gjson.String && !knownTypes[typ.Str] {
		r.rep.Warnf(r.path, l.N, "/type", "unknown-line-type", "line type %q is not one sesstool knows (a newer Claude Code?); it is kept as it is when written as claude, and counted as lost otherwise", typ.Str)
	}
	if sid.Type == gjson.String {
		switch {
		case r.session == "":
			r.session = strings.Clone(sid.Str)
			if why := format.UnsafeID(r.session); why != "" {
				r.rep.Errorf(r.path, l.N, "/sessionId", "unsafe-id", "session id %q %s: it cannot name an output file", r.session, why)
			}
		case sid.Str != r.session && !r.sidechain:
			r.rep.Warnf(r.path, l.N, "/sessionId", "session-id-changed", "sessionId %q differs from %q on the lines before", sid.Str, r.session)
		}
	}
	if !r.conv && isConversation(l.Value) {
		r.conv = true
	}
	if id.Type == gjson.String {
		r.timed(l.N, ts)
		if id.Str == "" {
			r.rep.Errorf(r.path, l.N, "/uuid", "empty-uuid", "an empty uuid: no line can name this one as its parent")
		}
		if prev, dup := r.uuids.add(id.Str, int32(l.N)); dup {
			r.rep.Errorf(r.path, l.N, "/uuid", "duplicate-id", "uuid %q is already used on line %d", id.Str, prev)
		}
	}
	r.link(l.N, parent, "parentUuid", false)
	r.link(l.N, logical, "logicalParentUuid", true)
	if h.isMessage() && h.contentIsArray() {
		r.toolLinks(l.N, h.content)
	}
}

// count counts a line validate found no JSON in as the reader would: it
// reads a line with a byte order mark, or in invalid UTF-8, which gjson
// takes; any other stops it.
func (r *rules) count(l validate.Line) {
	b := l.Bytes
	if l.N == 1 {
		b = format.TrimBOM(b)
	}
	if l.Size != len(l.Bytes) || !gjson.ValidBytes(b) {
		r.unreadable = true
		return
	}
	v := gjson.ParseBytes(b)
	if !v.IsObject() {
		r.unreadable = true
	}
	r.group.step(headOf(b))
}

// link checks that a parent link names a line of the file.
func (r *rules) link(n int, p gjson.Result, key string, logical bool) {
	if p.Type != gjson.String {
		return
	}
	if _, ok := r.uuids.get(p.Str); ok {
		return
	}
	r.parents = append(r.parents, pending{line: n, ptr: "/" + key, id: strings.Clone(p.Str), logical: logical})
}

// toolLinks records tool_use ids and checks that each tool_result names
// one written before it; c is the message's content array.
func (r *rules) toolLinks(n int, cb []byte) {
	w, _ := jsonx.WalkArray(cb)
	for i := 0; ; i++ {
		e, ok := w.Next()
		if !ok {
			return
		}
		blk := cb[e.ValStart:e.ValEnd]
		var typ, id, useID gjson.Result // the first of each, as Get finds them
		var content []byte
		eachMember(blk, func(k string, m jsonx.Member) {
			var dst *gjson.Result
			switch k {
			case "type":
				dst = &typ
			case "id":
				dst = &id
			case "tool_use_id":
				dst = &useID
			case "content":
				if content == nil {
					content = blk[m.ValStart:m.ValEnd] // decoded only if it names a side file
				}
				return
			default:
				return
			}
			if !dst.Exists() {
				*dst = m.Value(blk)
			}
		})
		switch typ.String() {
		case "tool_use":
			if id.Type == gjson.String {
				r.calls.Put(id.String(), int32(n))
			}
		case "tool_result":
			if useID.Type == gjson.String {
				if !r.calls.Has(useID.String()) {
					r.rep.Warnf(r.path, n, fmt.Sprintf("/message/content/%d/tool_use_id", i), "unknown-tool-use", "tool_use_id %q names no earlier tool_use block of this file", useID.String())
				}
			}
			r.sideFile(n, i, content)
		}
	}
}

// sideFile checks that the side file a tool result's preview names (its
// full output, moved to tool-results/) is there.
func (r *rules) sideFile(n, i int, raw []byte) {
	if !bytes.Contains(raw, []byte(persistedTag)) {
		return
	}
	c := gjson.ParseBytes(raw)
	texts := []gjson.Result{c}
	if c.IsArray() {
		texts = c.Get("#.text").Array()
	}
	for _, t := range texts {
		name := persistedFile(t.String())
		if name == "" {
			continue
		}
		p := filepath.Join(r.results, name)
		if fi, err := os.Stat(p); err != nil || !fi.Mode().IsRegular() {
			r.rep.Warnf(r.path, n, fmt.Sprintf("/message/content/%d/content", i), "missing-tool-result-file",
				"the tool result's full output is in %s, which is not there (the transcript keeps its preview only)", p)
		}
	}
}

func (r *rules) Finish() {
	for _, p := range r.parents {
		if _, ok := r.uuids.get(p.id); ok {
			continue
		}
		if r.outer != nil {
			if _, ok := r.outer.get(p.id); ok {
				continue
			}
		}
		if p.logical {
			r.rep.Warnf(r.path, p.line, p.ptr, "dangling-logical-parent", "logicalParentUuid %q names no line of this file", p.id)
			continue
		}
		r.rep.Errorf(r.path, p.line, p.ptr, "dangling-parent", "parentUuid %q names no line of this session (Claude Code would cut the conversation here)", p.id)
	}
	if r.lines == 0 {
		r.rep.Errorf(r.path, 0, "", "empty", "empty file: no lines")
	} else if !r.conv {
		r.rep.Errorf(r.path, 0, "", "no-conversation", "no line of a Claude Code conversation (a uuid and a sessionId, or a summary's leafUuid): Claude Code would find no session here")
	}
}

// timed checks the timestamp of a line of the conversation (one with a
// uuid): Claude Code writes one on every such line, and every other layout
// needs it.
func (r *rules) timed(n int, ts gjson.Result) {
	if _, ok := session.ParseTime(ts.String()); !ok || ts.Type != gjson.String {
		r.rep.Errorf(r.path, n, "/timestamp", "bad-timestamp", "timestamp %q is not an RFC 3339 time (Claude Code times every line with a uuid)", ts.String())
	}
}
