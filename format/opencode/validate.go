package opencode

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/sesstool/sesstool/exitcode"
	"github.com/sesstool/sesstool/format"
	"github.com/sesstool/sesstool/internal/regfile"
	"github.com/sesstool/sesstool/jsonx"
	"github.com/sesstool/sesstool/report"
	"github.com/sesstool/sesstool/schema"
	"github.com/sesstool/sesstool/validate"
	"github.com/tidwall/gjson"
)

// Rule names (stable; documented in docs/opencode.md).
const (
	ruleSyntax        = "json-syntax"
	ruleSchema        = "schema"
	ruleIDMismatch    = "id-mismatch"         // file name is not the id inside
	ruleKeyMismatch   = "key-mismatch"        // directory key disagrees with sessionID/messageID/projectID
	ruleBadID         = "bad-id"              // not <prefix>_<12 hex><14 base62>
	ruleOrphanSession = "orphan-session"      // session without its project
	ruleOrphanMessage = "orphan-message"      // message without its session
	ruleOrphanPart    = "orphan-part"         // part without its message
	ruleAssistantPar  = "assistant-parent"    // assistant parentID is not a user message of the session
	ruleDangling      = "dangling-parent"     // child session's parentID names no session
	ruleUnknownType   = "unknown-part-type"   // part type OpenCode does not know
	ruleUnknownRole   = "unknown-role"        // message role other than user/assistant
	ruleUnknownStatus = "unknown-tool-status" // tool state status other than pending/running/completed/error
	ruleMigration     = "bad-migration"       // storage/migration is not a number
	ruleDuplicate     = "duplicate-id"        // a session or message id twice in one store
	ruleDBSchema      = "db-schema"           // a table read is a view or virtual table, lacks a column, or computes one
	ruleDBBounds      = "db-bounds"           // a database's values outgrow its files
	ruleDBCorrupt     = "db-corrupt"          // SQLite finds the file damaged or not a database, or its integrity check fails for a table read
)

var partTypes = map[string]bool{"text": true, "reasoning": true, "file": true, "tool": true, "step-start": true,
	"step-finish": true, "snapshot": true, "patch": true, "agent": true, "retry": true, "compaction": true, "subtask": true}

var toolStatuses = map[string]bool{"pending": true, "running": true, "completed": true, "error": true}

// loc is where an object sits: a file, plus a JSON pointer inside it (the
// export document, or a table row of the database).
type loc struct {
	path string
	name string // when set, path is the directory and name the file: kept locs share these strings
	ptr  string
	src  []byte // the file's bytes, to turn pointers into line numbers; nil for database rows
	file bool   // path is the object's own file: src can be read again when needed
	// With line0 set, src is one piece of the file (a message of an export
	// document read a message at a time): the value at pointer base,
	// starting on line line0.
	base  string
	line0 int
	lines []ptrLine // a kept piece's lines, in place of its bytes
}

// ptrLine is the line of the value at pointer ptr (under a loc's ptr).
type ptrLine struct {
	ptr  string
	line int
}

// kept is at as stored until the store is read: without the bytes of a
// file, which are read again only if a finding needs a line number. A
// piece of a file, which is not read again, keeps the lines of the values
// ptrs name, those the store-wide rules may report.
func (at loc) kept(ptrs ...string) loc {
	if at.line0 != 0 {
		at.lines = make([]ptrLine, len(ptrs))
		for i, p := range ptrs {
			at.lines[i] = ptrLine{p, at.lineOf(at.ptr + p)}
		}
		at.src = nil
	}
	if at.file {
		at.src = nil
	}
	return at
}

// lineOf is the line of the value a whole pointer names (lineOf).
func (at loc) lineOf(ptr string) int {
	for _, l := range at.lines {
		if strings.HasPrefix(ptr, at.ptr) && ptr[len(at.ptr):] == l.ptr {
			return l.line
		}
	}
	if at.line0 == 0 {
		return lineOf(at.source(), ptr)
	}
	// the piece itself when its pointer names nothing in it
	return at.line0 - 1 + max(lineOf(at.src, strings.TrimPrefix(ptr, at.base)), 1)
}

func (at loc) source() []byte {
	if at.src == nil && at.file {
		b, _ := regfile.ReadFile(at.filePath())
		return b
	}
	return at.src
}

func (at loc) filePath() string {
	if at.name != "" {
		return filepath.Join(at.path, at.name)
	}
	return at.path
}

// sink takes findings: the report itself, or one file's own list, which a
// worker fills and the walk adds to the report in file order (so the report
// is the one a walk of one file at a time makes, MaxErrors cut included).
type sink interface {
	Add(f report.Finding)
	Errorf(path string, line int, pointer, rule, format string, args ...any)
	Warnf(path string, line int, pointer, rule, format string, args ...any)
}

// findings is one file's findings, in the order the checks made them.
type findings []report.Finding

func (fs *findings) Add(f report.Finding) { *fs = append(*fs, f) }

func (fs *findings) Errorf(path string, line int, pointer, rule, format string, args ...any) {
	fs.Add(report.Finding{Path: path, Line: line, Pointer: pointer, Severity: report.Error, Rule: rule, Message: fmt.Sprintf(format, args...)})
}

func (fs *findings) Warnf(path string, line int, pointer, rule, format string, args ...any) {
	fs.Add(report.Finding{Path: path, Line: line, Pointer: pointer, Severity: report.Warning, Rule: rule, Message: fmt.Sprintf(format, args...)})
}

// checker collects the objects of one store and applies the rules that span
// objects once everything is read. The checks of one object (check*,
// schema, parse) touch nothing but c.rep, so a worker runs them with a
// checker of its own whose rep is the file's findings; the add* methods keep
// the store-wide state and run in store order.
type checker struct {
	rep      sink
	files    int
	entries  int
	projects map[string]bool
	sessions map[string]loc
	sessProj map[string]string
	sessPar  map[string]string
	t        tables    // the messages and parts (tables.go)
	lone     bool      // a lone export: parents outside the file are expected
	noProj   bool      // layouts without project records (legacy, export)
	snap     *snapshot // when set, keeps every file that parsed
}

func newChecker(rep *report.Report) *checker {
	return &checker{rep: rep, projects: map[string]bool{}, sessions: map[string]loc{}, sessProj: map[string]string{},
		sessPar: map[string]string{}}
}

func (c *checker) errorf(at loc, ptr, rule, f string, args ...any) {
	c.rep.Errorf(at.filePath(), at.lineOf(at.ptr+ptr), at.ptr+ptr, rule, f, args...)
}

func (c *checker) warnf(at loc, ptr, rule, f string, args ...any) {
	c.rep.Warnf(at.filePath(), at.lineOf(at.ptr+ptr), at.ptr+ptr, rule, f, args...)
}

// gjsonEscape spells a pointer's token as a gjson path component (built
// once: lineOf runs for every message of an export document).
var gjsonEscape = strings.NewReplacer(".", `\.`, "*", `\*`, "?", `\?`, "|", `\|`, "#", `\#`, "@", `\@`, "\\", `\\`)

// lineOf finds the 1-based line of the value a JSON pointer names in src; 0
// for the whole file, for database rows, and when the value is absent.
func lineOf(src []byte, ptr string) int {
	if src == nil || ptr == "" {
		return 0
	}
	var path []string
	esc := gjsonEscape
	for _, tok := range strings.Split(ptr[1:], "/") {
		tok = strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")
		path = append(path, esc.Replace(tok))
	}
	for len(path) > 0 {
		if r := gjson.GetBytes(src, strings.Join(path, ".")); r.Exists() && r.Index > 0 {
			return bytes.Count(src[:r.Index], []byte("\n")) + 1
		}
		path = path[:len(path)-1] // a missing member: point at its parent
	}
	return 0
}

func (c *checker) parse(at loc, b []byte) []byte {
	out, ok := c.parseAppend(nil, at, b)
	if !ok {
		return nil
	}
	return out
}

// parseAppend appends b to dst without insignificant whitespace, or reports
// a syntax error with its line and column (ok false, dst unchanged).
func (c *checker) parseAppend(dst []byte, at loc, b []byte) (out []byte, ok bool) {
	if bytes.HasPrefix(b, format.BOM) {
		// Say what it is: a syntax error at an invisible character does not.
		c.rep.Add(format.BOMFinding(at.filePath()))
		return dst, false
	}
	if col, msg, bad := jsonx.SyntaxError(b); bad {
		line, lc := lineCol(b, col)
		c.rep.Add(report.Finding{Path: at.filePath(), Line: line, Column: lc, Pointer: at.ptr, Severity: report.Error, Rule: ruleSyntax, Message: msg})
		return dst, false
	}
	c.duplicateKey(at, b, 1, 1)
	return appendCompact(dst, b), true
}

// duplicateKey reports a key twice in one object of b (valid JSON), which
// starts at line:col: OpenCode (JavaScript) reads the last value, sesstool
// the first, as on a line of JSON Lines.
func (c *checker) duplicateKey(at loc, b []byte, line, col int) {
	if f, dup := validate.DuplicateKeyAt(at.filePath(), b, line, col); dup {
		f.Pointer = at.ptr
		c.rep.Add(f)
	}
}

// lineCol turns a 1-based character column over the whole text into a line
// and a column within it.
func lineCol(b []byte, col int) (int, int) {
	line, lc := 1, 1
	for i, n := 0, 1; i < len(b) && n < col; n++ {
		r, size := utf8.DecodeRune(b[i:])
		i += size
		if r == '\n' {
			line, lc = line+1, 1
		} else {
			lc++
		}
	}
	return line, lc
}

// schema validates v, leaving id format to bad-id (one finding, not two).
func (c *checker) schema(at loc, name string, v []byte) {
	d := schema.Doc{Path: at.filePath(), Pointer: at.ptr,
		LineOf: at.lineOf,
		Skip:   func(is schema.Issue) bool { return strings.HasSuffix(is.Keyword, "ID/pattern") }}
	for _, f := range d.Check(name, v) {
		c.rep.Add(f)
	}
}

func (c *checker) id(at loc, ptr, prefix, id string) {
	if id != "" && !isID(prefix, id) {
		c.errorf(at, ptr, ruleBadID, "%q is not an OpenCode %s id (%s_ + 12 hex digits + 14 base62 characters)", id, prefix, prefix)
	}
}

// named checks that a file is called after the id inside it.
func (c *checker) named(at loc, key, id string) {
	if key != "" && key != id {
		c.errorf(at, "/id", ruleIDMismatch, "file is named %q but holds id %q", key, id)
	}
}

// fields reads members of one JSON object. Each value it returns is a copy
// of its own: what the checks keep (ids) must not hold on to the whole
// object, nor to a worker's buffer.
type fields []byte

func (f fields) Get(path string) gjson.Result { return gjson.GetBytes(f, path) }

// obj is what the store-wide rules need of one project, session, message or
// part.
type obj struct {
	id      string
	session string // a message's or part's session; a session's project
	message string // a part's message
	role    string
	parent  string
	result  bool // a tool part whose result is an entry of its own
	summary bool // a message: a compaction's summary; a part: a compaction request
}

func (c *checker) checkProject(at loc, v []byte, key string) obj {
	id := gjson.GetBytes(v, "id").String()
	c.named(at, key, id)
	c.schema(at, "opencode/project.json", v)
	return obj{id: id}
}

func (c *checker) addProject(o obj) { c.projects[o.id] = true }

func (c *checker) session(at loc, v []byte, key, dirProject string) {
	c.addSession(at, c.checkSession(at, v, key, dirProject))
}

func (c *checker) checkSession(at loc, v []byte, key, dirProject string) obj {
	r := fields(v)
	id := r.Get("id").String()
	c.named(at, key, id)
	c.id(at, "/id", "ses", id)
	parent := r.Get("parentID").String()
	c.id(at, "/parentID", "ses", parent)
	p := r.Get("projectID")
	if p.Type == gjson.String {
		if why := format.UnsafeID(p.String()); why != "" {
			c.errorf(at, "/projectID", "unsafe-id", "projectID %q %s: it cannot name the directory a session is filed under", p.String(), why)
		}
	}
	if dirProject != "" && p.Exists() && p.String() != dirProject {
		// OpenCode moves sessions between projects without updating the
		// field, and trusts the directory: a warning.
		c.warnf(at, "/projectID", ruleKeyMismatch, "projectID %q, but the session is filed under project %q", p.String(), dirProject)
	}
	c.schema(at, "opencode/session.json", v)
	proj := dirProject
	if proj == "" {
		proj = p.String()
	}
	return obj{id: id, session: proj, parent: parent}
}

func (c *checker) addSession(at loc, o obj) {
	if _, dup := c.sessions[o.id]; dup {
		c.errorf(at, "/id", ruleDuplicate, "session %s appears twice", o.id)
	}
	c.sessions[o.id] = at.kept("", "/parentID")
	c.sessProj[o.id] = o.session
	c.sessPar[o.id] = o.parent
}

func (c *checker) message(at loc, v []byte, key, dirSession string) {
	c.addMessage(at, c.checkMessage(at, v, key, dirSession))
}

func (c *checker) checkMessage(at loc, v []byte, key, dirSession string) obj {
	r := fields(v)
	id := r.Get("id").String()
	c.named(at, key, id)
	c.id(at, "/id", "msg", id)
	sid := r.Get("sessionID").String()
	if dirSession != "" && sid != dirSession {
		c.errorf(at, "/sessionID", ruleKeyMismatch, "sessionID %q, but the message is filed under session %q", sid, dirSession)
	}
	role := r.Get("role").String()
	if role != "user" && role != "assistant" {
		c.errorf(at, "/role", ruleUnknownRole, "unknown message role %q", role)
	} else {
		c.schema(at, "opencode/message.json", v)
	}
	parent := r.Get("parentID").String()
	if role == "assistant" {
		c.id(at, "/parentID", "msg", parent)
	}
	if dirSession != "" {
		sid = dirSession
	}
	return obj{id: id, session: sid, role: role, parent: parent, summary: role == "assistant" && r.Get("summary").Bool()}
}

func (c *checker) addMessage(at loc, o obj) {
	c.entries++
	t := &c.t
	r := t.row(o.id)
	m := &t.msgs[r]
	if m.seen {
		c.errorf(at, "/id", ruleDuplicate, "message %s appears twice", o.id)
	}
	m.seen, m.summary = true, o.summary
	m.session, m.role = t.names.of(o.session), t.names.of(o.role)
	m.at, m.atKind = t.place(at, o.id, "", "/message/", "/sessionID", "/parentID")
	m.parent = -1
	if o.role == "assistant" {
		p := t.row(o.parent) // may move the rows
		t.msgs[r].parent = p
	}
}

func (c *checker) part(at loc, v []byte, key, dirMessage, dirSession string) {
	c.addPart(at, c.checkPart(at, v, key, dirMessage, dirSession))
}

func (c *checker) checkPart(at loc, v []byte, key, dirMessage, dirSession string) obj {
	r := fields(v)
	id := r.Get("id").String()
	c.named(at, key, id)
	c.id(at, "/id", "prt", id)
	mid, sid := r.Get("messageID").String(), r.Get("sessionID").String()
	if dirMessage != "" && mid != dirMessage {
		c.errorf(at, "/messageID", ruleKeyMismatch, "messageID %q, but the part is filed under message %q", mid, dirMessage)
		mid = dirMessage
	}
	if dirSession != "" && sid != dirSession {
		c.errorf(at, "/sessionID", ruleKeyMismatch, "sessionID %q, but the part is filed under session %q", sid, dirSession)
		sid = dirSession
	}
	typ := r.Get("type").String()
	switch {
	case !partTypes[typ]:
		c.errorf(at, "/type", ruleUnknownType, "unknown part type %q", typ)
	case typ == "tool" && !toolStatuses[r.Get("state.status").String()]:
		c.errorf(at, "/state/status", ruleUnknownStatus, "unknown tool status %q", r.Get("state.status").String())
	default:
		c.schema(at, "opencode/part.json", v)
	}
	return obj{id: id, session: sid, message: mid, result: typ == "tool" && hasResult(r.Get("state")), summary: typ == "compaction"}
}

func (c *checker) addPart(at loc, o obj) {
	if o.result {
		c.entries++ // as the reader counts it (docs/commands.md, "entries")
	}
	t := &c.t
	// a user message whose only part asks for the summary answering it is
	// read into that summary, not as an entry of its own (foldedTriggers)
	r := t.row(o.message)
	t.msgs[r].parts++
	if o.summary {
		t.msgs[r].compacts++
	}
	p := partRow{id: t.ids.add(o.id), message: r, session: t.names.of(o.session)}
	p.at, p.atKind = t.place(at, o.id, o.message, "/part/", "/messageID", "/sessionID")
	t.parts = append(t.parts, p)
}

// finish applies the rules that need the whole store.
func (c *checker) finish() {
	c.entries -= c.foldedTriggers()
	ids := make([]string, 0, len(c.sessions))
	for id := range c.sessions {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	for _, id := range ids {
		at := c.sessions[id]
		if p := c.sessProj[id]; !c.noProj && p != "global" && !c.projects[p] {
			c.warnf(at, "", ruleOrphanSession, "session %s belongs to project %q, which has no project record", id, p)
		}
		if p := c.sessPar[id]; p != "" {
			if _, ok := c.sessions[p]; !ok {
				if c.lone {
					c.warnf(at, "/parentID", ruleDangling, "parent session %s is not in this file", p)
				} else {
					c.errorf(at, "/parentID", ruleDangling, "parent session %s does not exist", p)
				}
			}
		}
	}
	t := &c.t
	for _, r := range t.seenByID() {
		m := &t.msgs[r]
		if _, ok := c.sessions[t.names.list[m.session]]; !ok {
			c.errorf(t.msgLoc(m), "/sessionID", ruleOrphanMessage, "message %s belongs to session %s, which does not exist", t.ids.get(m.id), t.names.list[m.session])
		}
		if m.parent >= 0 && len(t.ids.bytes(t.msgs[m.parent].id)) > 0 {
			p := &t.msgs[m.parent]
			switch {
			case !p.seen || p.session != m.session:
				c.errorf(t.msgLoc(m), "/parentID", ruleAssistantPar, "parentID %s names no message of this session", t.ids.get(p.id))
			case t.names.list[p.role] != "user":
				c.errorf(t.msgLoc(m), "/parentID", ruleAssistantPar, "parentID %s names a message with role %s, not a user message", t.ids.get(p.id), t.names.list[p.role])
			}
		}
	}
	for i := range t.parts {
		p := &t.parts[i]
		m := &t.msgs[p.message]
		switch {
		case !m.seen:
			c.errorf(t.partLoc(p), "/messageID", ruleOrphanPart, "part %s belongs to message %s, which does not exist", t.ids.get(p.id), t.ids.get(m.id))
		case m.session != p.session:
			c.errorf(t.partLoc(p), "/sessionID", ruleKeyMismatch, "part %s says session %s, its message belongs to session %s", t.ids.get(p.id), t.names.list[p.session], t.names.list[m.session])
		}
	}
}

func validatePath(path string, rep *report.Report, workers int) error {
	_, err := checkPath(path, rep, workers, false)
	return err
}

// checkPath validates path. With keep, it returns what it read of a JSON
// tree store (nil for the other layouts), for reading it without opening
// its files again.
func checkPath(path string, rep *report.Report, workers int, keep bool) (*snapshot, error) {
	l, p := classify(path)
	c := newChecker(rep)
	if keep && (l == layoutTree || l == layoutLegacy) {
		c.snap = newSnapshot(path, p, l)
	}
	switch l {
	case layoutTree:
		c.tree(p, workers)
	case layoutLegacy:
		c.noProj = true
		c.legacy(p, workers)
	case layoutDB:
		if err := c.db(p); err != nil {
			if !dbFinding(p, err, rep) {
				return nil, err
			}
			rep.Counted(Name, 1, 0)
			return nil, nil
		}
	case layoutExport:
		return nil, validateExportFile(p, rep)
	default:
		rep.Errorf(path, 0, "", "unknown-format", "not an OpenCode store, database or export")
		rep.Counted("", 1, 0)
		return nil, nil
	}
	c.finish()
	rep.Counted(Name, c.files, c.entries)
	return c.snap, nil
}

// dbFinding reports a database refused as invalid (its schema, or a value
// past the bounds) as a finding of the whole file; false for other errors.
func dbFinding(path string, err error, rep *report.Report) bool {
	if exitcode.Of(err) != exitcode.Invalid {
		return false
	}
	rule := ruleDBBounds
	switch {
	case errors.As(err, new(*schemaError)):
		rule = ruleDBSchema
	case errors.As(err, new(*corruptError)):
		rule = ruleDBCorrupt
	}
	msg := strings.TrimPrefix(strings.TrimPrefix(err.Error(), "read "), path+": ")
	rep.Errorf(path, 0, "", rule, "%s", msg)
	return true
}

// db checks every row of an opencode.db; findings point at table/id.
func (c *checker) db(path string) error {
	s, err := openDBFile(path)
	if err != nil {
		return err
	}
	defer s.Close()
	c.files = 1
	integrity := s.integrityAside()
	if err := c.dbRows(s, path); err != nil {
		<-integrity // its connection is closed before the store's
		return err
	}
	r := <-integrity
	for _, p := range r.problems {
		c.rep.Errorf(path, 0, "", ruleDBCorrupt, "SQLite's integrity check: %s", p)
	}
	return r.err
}

// dbRows checks the rows of the tables read.
func (c *checker) dbRows(s *dbStore, path string) error {
	if s.tables["project"] {
		prow, err := s.query(`SELECT id FROM project`)
		if err != nil {
			return s.fail(err)
		}
		for prow.Next() {
			var id string
			if prow.Scan(&id) == nil {
				c.projects[id] = true
			}
		}
		prow.Close()
		if err := prow.Err(); err != nil {
			return s.fail(err)
		}
	}
	refs, err := s.list()
	if err != nil {
		return err
	}
	for _, r := range refs {
		info, err := s.sessionInfo(r.ID)
		if err != nil {
			return err
		}
		c.session(loc{path: path, ptr: "/session/" + r.ID}, info, r.ID, r.ProjectID)
	}
	rows, err := s.query(`SELECT id, session_id, data FROM message ORDER BY id`)
	if err != nil {
		return s.fail(err)
	}
	for rows.Next() {
		var id, sid, data string
		err := rows.Scan(&id, &sid, &data)
		if err == nil {
			err = s.take(id, sid, data)
		}
		if err != nil {
			rows.Close()
			return s.fail(err)
		}
		at := loc{path: path, ptr: "/message/" + id}
		if v := c.parse(at, []byte(data)); v != nil {
			c.message(at, setMember(setMember(v, "id", jsonx.String(id)), "sessionID", jsonx.String(sid)), "", sid)
		}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return s.fail(err)
	}
	rows, err = s.query(`SELECT id, message_id, session_id, data FROM part ORDER BY id`)
	if err != nil {
		return s.fail(err)
	}
	defer rows.Close()
	for rows.Next() {
		var id, mid, sid, data string
		err := rows.Scan(&id, &mid, &sid, &data)
		if err == nil {
			err = s.take(id, mid, sid, data)
		}
		if err != nil {
			return s.fail(err)
		}
		at := loc{path: path, ptr: "/part/" + id}
		if v := c.parse(at, []byte(data)); v != nil {
			v, _ = withIDs(v, "id", id, "sessionID", sid, "messageID", mid)
			c.part(at, v, "", mid, sid)
		}
	}
	if err := rows.Err(); err != nil {
		return s.fail(err)
	}
	return nil
}

func (Format) Validate(path string, rep *report.Report, opt format.ValidateOptions) error {
	return validatePath(path, rep, opt.Workers)
}

func (Export) Validate(path string, rep *report.Report, opt format.ValidateOptions) error {
	return validateExportFile(path, rep)
}

func (Export) ValidateReader(name string, r io.Reader, rep *report.Report, opt format.ValidateOptions) error {
	return validateExportFrom(name, r, rep)
}

// foldedTriggers counts the triggers (read.go, triggers) the reader folds
// into the summary message that answers them.
func (c *checker) foldedTriggers() int {
	n := 0
	for i := range c.t.msgs {
		m := &c.t.msgs[i]
		if !m.seen || !m.summary || m.parent < 0 {
			continue
		}
		if p := &c.t.msgs[m.parent]; p.seen && triggers(c.t.names.list[p.role], int(p.parts), int(p.compacts)) {
			n++
		}
	}
	return n
}
