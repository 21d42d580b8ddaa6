package ash

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/sesstool/sesstool/format"
	"github.com/sesstool/sesstool/internal/idset"
	"github.com/sesstool/sesstool/internal/regfile"
	"github.com/sesstool/sesstool/jsonx"
	"github.com/sesstool/sesstool/report"
	"github.com/sesstool/sesstool/schema"
	"github.com/sesstool/sesstool/session"
	"github.com/sesstool/sesstool/validate"
	"github.com/tidwall/gjson"
)

// Validate checks one session directory, or every session of a store.
func (f Format) Validate(path string, rep *report.Report, opt format.ValidateOptions) error {
	refs, err := f.Sessions(path)
	if err != nil {
		return err
	}
	if len(refs) == 0 {
		rep.Errorf(filepath.Join(path, ContextFile), 0, "", "missing-header", "not an ash session: no context.jsonl starting with a session header")
		rep.Counted(Name, 1, 0)
		return nil
	}
	if !isSession(path) {
		brokenInStore(path, rep)
	}
	for _, r := range refs {
		if err := validateSession(r.Path, "", rep, opt, false); err != nil {
			return err
		}
	}
	return nil
}

// shellWord spells p so that a shell reads it back as one word.
func shellWord(p string) string {
	if p != "" && strings.Trim(p, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-./~+=:,@%") == "" {
		return p
	}
	return "'" + strings.ReplaceAll(p, "'", `'\''`) + "'"
}

// brokenInStore reports the directories of a store that hold a
// context.jsonl but are not sessions, instead of skipping them silently.
func brokenInStore(store string, rep *report.Report) {
	ents, err := os.ReadDir(store)
	if err != nil {
		return
	}
	for _, e := range ents {
		if notLive(e.Name()) {
			continue
		}
		dir := filepath.Join(store, e.Name())
		ctx := filepath.Join(dir, ContextFile)
		if e.IsDir() && !isSession(dir) {
			if _, err := os.Stat(ctx); err == nil {
				rep.Errorf(ctx, 1, "", "missing-header", "not an ash session: the first line is not a session header with a string version, provider and created_at")
				rep.Counted(Name, 1, 0)
			}
		}
	}
}

// What the checks across lines keep is a few words per entry, so that
// validating a session of a million entries stays well under 1 GiB: no
// copy of a path, a rule's name or a role per entry, and a message's id
// once (a parent_id naming the message before it shares that id's copy).

// msgInfo is what later checks need of a message: its role (an index into
// checker.roles) and a hash of its flattened text (not the text).
type msgInfo struct {
	text      [16]byte
	role      uint8
	inContext bool
}

// loc is a line of one of the session's files (checker.paths).
type loc struct {
	file int32
	line int32
}

// refKind is what a reference names and where: refKinds' index.
type refKind uint8

const (
	refParent refKind = iota
	refMessage
	refToolUse
	refParentToolUse
)

var refKinds = []struct{ rule, what, pointer string }{
	refParent:        {"dangling-parent", "message", "/parent_id"},
	refMessage:       {"dangling-message", "message", "/message_id"},
	refToolUse:       {"dangling-tool-use", "tool_use", "/tool_use_id"},
	refParentToolUse: {"dangling-tool-use", "tool_use", "/parent_tool_use_id"},
}

type ref struct {
	id   string
	at   loc
	kind refKind
}

// link is a message's parent_id and the message's line, for the cycle check;
// implicit when the message has none and continues from the one before it.
type link struct {
	parent   string
	at       loc
	implicit bool
}

// checker holds the cross-file state of one session directory's validation.
type checker struct {
	dir       string
	name      string
	rep       *report.Report
	version   string
	legacyOK  bool // migration validates a v1 session by its own rules
	paths     []string
	roles     []string
	entryIDs  map[string]loc
	parents   map[string]link // message id -> parent_id, for the cycle check
	toolUses  idset.Hashed
	messages  map[string]msgInfo
	subagents map[string]bool
	refs      []ref
	lastID    string // the last message's id, which the next one's parent_id most often names
	lastMain  string // the last message of context.jsonl
	entries   int
	files     int
}

// at is line n of path, which must be the file being read.
func (c *checker) at(path string, n int) loc {
	if len(c.paths) == 0 || c.paths[len(c.paths)-1] != path {
		c.paths = append(c.paths, path)
	}
	return loc{int32(len(c.paths) - 1), int32(n)}
}

// role is the index of role in c.roles, added when new.
func (c *checker) role(role string) uint8 {
	for i, r := range c.roles {
		if r == role {
			return uint8(i)
		}
	}
	if len(c.roles) == 255 { // the schema allows four: never reached
		return 255
	}
	c.roles = append(c.roles, strings.Clone(role))
	return uint8(len(c.roles) - 1)
}

func (c *checker) roleName(i uint8) string {
	if int(i) < len(c.roles) {
		return c.roles[i]
	}
	return ""
}

func textHash(s string) (h [16]byte) {
	sum := sha256.Sum256([]byte(s))
	copy(h[:], sum[:16])
	return h
}

// validateSession checks one directory. name, when set, stands for the
// directory's name in the session-key check (a migration validates its
// result under a temporary name). legacyOK accepts version "1" sessions
// (ash today rejects them; migrate reads them).
func validateSession(dir, name string, rep *report.Report, opt format.ValidateOptions, legacyOK bool) error {
	c := &checker{dir: dir, name: name, rep: rep, legacyOK: legacyOK, entryIDs: map[string]loc{}, parents: map[string]link{},
		messages: map[string]msgInfo{}, subagents: map[string]bool{}}
	c.version = Current
	if h, ok := headerOf(dir); ok && (h.Get("version").String() == "1") {
		c.version = "1"
	}
	if err := c.jsonl(filepath.Join(dir, ContextFile), kindContext, opt); err != nil {
		return err
	}
	subs, err := subagentFiles(dir)
	if err != nil {
		return err
	}
	for _, p := range subs {
		if err := c.jsonl(p, kindSubagent, opt); err != nil {
			return err
		}
		id := strings.TrimSuffix(filepath.Base(p), ".jsonl")
		if !c.subagents[id] {
			rep.Errorf(p, 0, "", "orphan-subagent", "no agent_session entry in context.jsonl has id %q", id)
		}
	}
	if err := c.jsonl(filepath.Join(dir, HistoryFile), kindHistory, opt); err != nil {
		return err
	}
	if err := c.state(); err != nil {
		return err
	}
	c.resolve()
	rep.Counted(Name, c.files, c.entries)
	return nil
}

type fileKind int

const (
	kindContext fileKind = iota
	kindSubagent
	kindHistory
)

// jsonl runs the streaming engine over one file; a missing history.jsonl
// is fine (ash's own fixtures have none), a missing context.jsonl is not.
func (c *checker) jsonl(path string, kind fileKind, opt format.ValidateOptions) error {
	fh, err := regfile.Open(path)
	if os.IsNotExist(err) && kind == kindHistory {
		return nil
	}
	if os.IsNotExist(err) {
		c.rep.Errorf(path, 0, "", "missing-header", "missing: an ash session needs context.jsonl")
		c.files++
		return nil
	}
	if err != nil {
		return fmt.Errorf("read %s: %w", path, err)
	}
	defer fh.Close()
	name := map[fileKind]string{kindContext: "line.json", kindSubagent: "subagent-line.json", kindHistory: "history.json"}[kind]
	sch, err := schema.Compile("ash/v" + c.version + "/" + name)
	if err != nil {
		return err
	}
	r := &lineRules{c: c, path: path, kind: kind, sch: sch}
	_, err = (&validate.JSONL{Path: path, Rules: r, Report: c.rep, Workers: opt.Workers}).Run(fh)
	c.files++
	c.entries += r.entries
	return err
}

// lineRules applies the per-line rules of one JSONL file of the session.
type lineRules struct {
	c     *checker
	path  string
	kind  fileKind
	sch   *jsonschema.Schema
	first bool
	seen  bool
	hist  idset.Hashed // history id -> its line
	// entries counts what the reader makes of the lines (docs/commands.md,
	// "entries"): not the header, nor a tool_use line folded into the
	// message it follows; held is that message's id.
	entries int
	held    string
}

// count adds one line to entries as the reader reads it.
func (r *lineRules) count(l validate.Line, first bool) {
	if len(bytes.TrimSpace(l.Bytes)) == 0 {
		return
	}
	if !l.Valid {
		r.entries++
		r.held = ""
		return
	}
	switch l.Value.Get("type").String() {
	case "session":
		if first && r.kind == kindContext {
			return
		}
	case "message":
		r.held = l.Value.Get("id").String()
		r.entries++
		return
	case "tool_use":
		if r.held != "" && l.Value.Get("message_id").String() == r.held {
			return
		}
		r.entries++
		return
	case "tool_result":
		r.entries++
		return
	}
	r.held = ""
	r.entries++
}

func (r *lineRules) Schema(v gjson.Result) *jsonschema.Schema {
	if v.Get("type").String() == "session" && r.kind == kindContext {
		if ver := v.Get("version"); ver.Type == gjson.String && ver.String() != "1" && ver.String() != "2" {
			return nil // unknown-version says it once, instead of a schema error too
		}
	}
	return r.sch
}

func (r *lineRules) Check(l validate.Line) {
	first := !r.seen
	r.seen = true
	if r.kind != kindHistory {
		r.count(l, first)
	}
	if !l.Valid {
		return
	}
	v := l.Value
	c := r.c
	if r.kind == kindHistory {
		r.history(l)
		return
	}
	typ := v.Get("type").String()
	if first && r.kind == kindContext && typ != "session" {
		c.rep.Errorf(r.path, l.N, "", "missing-header", "the first line of context.jsonl must be the session header, not %q", typ)
	}
	switch typ {
	case "session":
		if !first || r.kind != kindContext {
			c.rep.Errorf(r.path, l.N, "/type", "misplaced-header", "a session header may only be the first line of context.jsonl")
			return
		}
		r.header(l)
	case "message":
		id := strings.Clone(v.Get("id").String()) // kept: must not pin the line
		c.entryID(r.path, l.N, id)
		c.messages[id] = msgInfo{role: c.role(v.Get("role").String()), text: textHash(flatText(v.Get("content"))), inContext: r.kind == kindContext}
		if p := v.Get("parent_id"); c.version != "1" && p.Type == gjson.String && p.String() != "" {
			parent := c.lastID
			if p.String() != parent {
				parent = strings.Clone(p.String())
			}
			at := c.at(r.path, l.N)
			c.refs = append(c.refs, ref{parent, at, refParent})
			c.parents[id] = link{parent: parent, at: at}
		} else if c.version != "1" && r.kind == kindContext && c.lastMain != "" {
			// read, a message of the conversation without parent_id
			// continues from the one before it (the conversation tree's linker), so a
			// loop through that link is a loop of the session read
			c.parents[id] = link{parent: c.lastMain, at: c.at(r.path, l.N), implicit: true}
		}
		c.lastID = id
		if r.kind == kindContext {
			c.lastMain = id
		}
		r.time(l, "created_at")
	case "tool_use":
		id := strings.Clone(v.Get("id").String())
		if c.toolUses.Has(id) {
			c.rep.Errorf(r.path, l.N, "/id", "duplicate-id", "tool_use id %q is used twice", id)
		}
		c.toolUses.Put(id, 0)
		msg := v.Get("message_id").String()
		if msg == c.lastID {
			msg = c.lastID // shares its copy
		} else {
			msg = strings.Clone(msg)
		}
		c.refs = append(c.refs, ref{msg, c.at(r.path, l.N), refMessage})
	case "tool_result":
		c.refs = append(c.refs, ref{strings.Clone(v.Get("tool_use_id").String()), c.at(r.path, l.N), refToolUse})
	case "compaction":
		c.entryID(r.path, l.N, strings.Clone(v.Get("id").String()))
		r.time(l, "created_at")
	case "agent_session":
		id := strings.Clone(v.Get("id").String())
		c.entryID(r.path, l.N, id)
		c.subagents[id] = true
		r.safeID(l, "id")
		r.safeID(l, "agent_session_id")
		c.refs = append(c.refs, ref{strings.Clone(v.Get("parent_tool_use_id").String()), c.at(r.path, l.N), refParentToolUse})
		r.time(l, "created_at")
	case "agent_session_complete":
		r.time(l, "created_at")
	}
}

func (r *lineRules) header(l validate.Line) {
	ver := l.Value.Get("version")
	switch {
	case ver.Type != gjson.String:
		// the schema reports a non-string version
	case ver.String() == "1" && !r.c.legacyOK:
		r.c.rep.Errorf(r.path, l.N, "/version", "legacy-version",
			`version "1" is rejected by ash today (it reads only "2"); upgrade with: sesstool migrate --format ash --to 2 %s`, shellWord(r.c.dir))
	case ver.String() != "1" && ver.String() != "2":
		r.c.rep.Errorf(r.path, l.N, "/version", "unknown-version", "unknown ash session version %q (known: \"1\", \"2\")", ver.String())
	}
	r.time(l, "created_at")
	r.safeID(l, "id")
}

// safeID reports an id that cannot become a file or directory name (goat
// names its session directory after the session id, ash its sub-agent
// files after the sub-agent's).
func (r *lineRules) safeID(l validate.Line, key string) {
	id := l.Value.Get(key)
	if id.Type != gjson.String {
		return
	}
	if why := format.UnsafeFileID(id.String(), ".jsonl"); why != "" {
		r.c.rep.Errorf(r.path, l.N, "/"+key, "unsafe-id", "%s %q %s: it cannot name an output file or directory", key, id.String(), why)
	}
}

// time checks that a timestamp member parses as Python's
// datetime.fromisoformat reads it (+00:00 with microseconds, Z, naive).
func (r *lineRules) time(l validate.Line, key string) {
	v := l.Value.Get(key)
	if v.Type != gjson.String {
		return // absent or mistyped: the schema says so
	}
	if _, ok := session.ParseTime(v.String()); !ok {
		r.c.rep.Errorf(r.path, l.N, "/"+key, "bad-timestamp", "%s %q is not an ISO 8601 time", key, v.String())
	}
}

func (r *lineRules) history(l validate.Line) {
	c := r.c
	v := l.Value
	id := v.Get("id").String()
	if prev, ok := r.hist.Get(id); ok {
		c.rep.Errorf(r.path, l.N, "/id", "duplicate-id", "history id %q already used on line %d", id, prev)
	}
	r.hist.Put(id, int32(l.N))
	r.time(l, "created_at")
	m, ok := c.messages[id]
	switch {
	case !ok || !m.inContext:
		c.rep.Errorf(r.path, l.N, "/id", "history-mismatch", "history message %q has no message in context.jsonl", id)
	case c.roleName(m.role) != v.Get("role").String():
		c.rep.Errorf(r.path, l.N, "/role", "history-mismatch", "history message %q has role %q, context.jsonl has %q", id, v.Get("role").String(), c.roleName(m.role))
	case m.text != textHash(v.Get("content").String()):
		c.rep.Errorf(r.path, l.N, "/content", "history-mismatch", "history message %q has other text than in context.jsonl", id)
	}
}

func (r *lineRules) Finish() {
	if !r.seen && r.kind == kindContext {
		r.c.rep.Errorf(r.path, 0, "", "missing-header", "context.jsonl is empty: it must start with the session header")
	}
}

func (c *checker) entryID(path string, line int, id string) {
	if prev, ok := c.entryIDs[id]; ok {
		c.rep.Errorf(path, line, "/id", "duplicate-id", "id %q already used (%s:%d)", id, filepath.Base(c.paths[prev.file]), prev.line)
		return
	}
	c.entryIDs[id] = c.at(path, line)
}

// cycles reports parent_id chains that loop (ash's branch walk stops at
// them, silently losing the branch). Each loop is reported once, at the
// line of its member that comes first in file order.
func (c *checker) cycles() {
	state := map[string]int{} // 0 new, 1 on the current walk, 2 done
	for start := range c.parents {
		var walk []string
		id := start
		for state[id] == 0 {
			if _, ok := c.parents[id]; !ok {
				break
			}
			state[id] = 1
			walk = append(walk, id)
			id = c.parents[id].parent
		}
		if state[id] == 1 {
			var loop []string
			for i := len(walk) - 1; i >= 0; i-- {
				loop = append(loop, walk[i])
				if walk[i] == id {
					break
				}
			}
			first := loop[0]
			for _, m := range loop {
				a, b := c.parents[m].at, c.parents[first].at
				if pa, pb := c.paths[a.file], c.paths[b.file]; pa < pb || pa == pb && a.line < b.line {
					first = m
				}
			}
			w := c.parents[first].at
			how := ""
			for _, m := range loop {
				if c.parents[m].implicit {
					how = "; a message without parent_id continues from the message before it"
					break
				}
			}
			c.rep.Errorf(c.paths[w.file], int(w.line), "/parent_id", "cycle", "parent_id links loop through %d messages (%s ... back to itself%s)", len(loop), first, how)
		}
		for _, m := range walk {
			state[m] = 2
		}
	}
}

// resolve checks every recorded reference once all files are read.
func (c *checker) resolve() {
	c.cycles()
	for _, r := range c.refs {
		k := refKinds[r.kind]
		var ok bool
		switch k.what {
		case "message":
			_, ok = c.messages[r.id]
		case "tool_use":
			ok = c.toolUses.Has(r.id)
		}
		if !ok {
			c.rep.Errorf(c.paths[r.at.file], int(r.at.line), k.pointer, k.rule, "%s names no %s: %q", strings.TrimPrefix(k.pointer, "/"), strings.ReplaceAll(k.what, "_", " "), r.id)
		}
	}
}

// flatText is a message's content as history.jsonl holds it: the string, or
// the text blocks joined by newlines.
func flatText(content gjson.Result) string {
	if content.Type == gjson.String {
		return content.String()
	}
	var parts []string
	for _, b := range content.Array() {
		if b.Get("type").String() == "text" {
			parts = append(parts, b.Get("text").String())
		}
	}
	return strings.Join(parts, "\n")
}

// state checks state.json: schema, timestamps, branch links, and that the
// directory has the name ash computes for the session.
func (c *checker) state() error {
	path := filepath.Join(c.dir, StateFile)
	b, err := regfile.ReadFile(path)
	if os.IsNotExist(err) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("read %s: %w", path, err)
	}
	c.files++
	if bytes.HasPrefix(b, format.BOM) {
		c.rep.Add(format.BOMFinding(path))
		return nil
	}
	if col, msg, bad := jsonx.SyntaxError(b); bad {
		c.rep.Add(report.Finding{Path: path, Line: lineOfColumn(b, col), Severity: report.Error, Rule: "json-syntax", Message: msg})
		return nil
	}
	if f, dup := validate.DuplicateKeyAt(path, b, 1, 1); dup {
		c.rep.Add(f) // ash (Python) reads the last value, sesstool the first
	}
	if fs := (schema.Doc{Path: path}).Check("ash/v"+c.version+"/state.json", b); len(fs) > 0 {
		for _, f := range fs {
			c.rep.Add(f)
		}
		return nil // the rules below assume the schema's shape
	}
	v := gjson.ParseBytes(b)
	if t := v.Get("created_at").String(); t != "" {
		if _, ok := session.ParseTime(t); !ok {
			c.rep.Errorf(path, 0, "/created_at", "bad-timestamp", "created_at %q is not an ISO 8601 time", t)
		}
	}
	for i, br := range v.Get("branches").Array() {
		for _, k := range []string{"head_message_id", "fork_point_id"} {
			id := br.Get(k)
			if id.Type != gjson.String {
				continue
			}
			if _, ok := c.messages[id.String()]; !ok {
				c.rep.Errorf(path, 0, fmt.Sprintf("/branches/%d/%s", i, k), "dangling-branch", "%s names no message: %q", k, id.String())
			}
		}
		if t := br.Get("created_at").String(); t != "" {
			if _, ok := session.ParseTime(t); !ok {
				c.rep.Errorf(path, 0, fmt.Sprintf("/branches/%d/created_at", i), "bad-timestamp", "created_at %q is not an ISO 8601 time", t)
			}
		}
	}
	c.key(path, v)
	return nil
}

func (c *checker) key(path string, v gjson.Result) {
	get := func(k string) string { return v.Get(k).String() }
	want := SessionKey(get("provider"), get("chat_id"), get("user_id"), get("thread_id"))
	era := "today's ash"
	if c.version == "1" {
		want = v1SessionKey(get("provider"), get("chat_id"), get("user_id"), get("thread_id"))
		era = "v1-era ash"
	}
	abs, err := filepath.Abs(c.dir)
	if err != nil {
		abs = c.dir
	}
	got := filepath.Base(abs)
	if c.name != "" {
		got = c.name
	}
	if got != want {
		c.rep.Errorf(path, 0, "", "session-key", "directory name %q is not %q, the session key %s computes from state.json", got, want, era)
	}
}

// lineOfColumn turns SyntaxError's whole-file character column into a line.
func lineOfColumn(b []byte, col int) int {
	return strings.Count(string([]rune(string(b))[:min(col-1, len([]rune(string(b))))]), "\n") + 1
}
