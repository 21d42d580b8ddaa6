package claude

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/sesstool/sesstool/format"
	"github.com/sesstool/sesstool/jsonl"
	"github.com/sesstool/sesstool/session"
	"github.com/tidwall/gjson"
)

// metaScan is how many lines the reader looks ahead for the session's id,
// cwd and version before it gives the Meta.
const metaScan = 64

// Open streams the session file at ref.Path, with its sub-agent runs, into
// the model: each sub-agent's entries (Sidechain "agent-<id>") follow the
// main line whose tool result names it, after a marker entry; the runs no
// line names follow the main file.
func (Format) Open(ref format.Ref) (session.Reader, error) {
	fr, err := openFile(ref.Path, "", ref.Size)
	if err != nil {
		return nil, err
	}
	r := &reader{main: fr, meta: &session.Meta{Source: session.Source{Origin: Name}}}
	if err := r.scanMeta(); err != nil {
		fr.close()
		return nil, err
	}
	if r.meta.ID == "" {
		r.meta.ID = strings.TrimSuffix(filepath.Base(ref.Path), ".jsonl")
	}
	fr.meta = r.meta
	r.subs = subagentFiles(ref.Path, r.meta.ID)
	if dir := resultsDir(ref.Path); isDir(dir) {
		r.meta.Private = &metaNote{toolResults: dir}
	}
	return r, nil
}

type reader struct {
	meta    *session.Meta
	main    *fileReader
	sub     *fileReader // the sub-agent run being streamed
	subs    []string    // sub-agent files not streamed yet
	pending *session.Entry
	usage   map[string]bool // message.id/requestId whose usage was counted
}

func (r *reader) Meta() *session.Meta { return r.meta }

// scanMeta reads up to metaScan lines ahead for the session's members.
func (r *reader) scanMeta() error {
	for i := 0; i < metaScan; i++ {
		l, err := r.main.peekAt(i)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return err
		}
		v := gjson.ParseBytes(l.raw)
		set := func(dst *string, key string) {
			if *dst == "" {
				if x := v.Get(key); x.Type == gjson.String {
					*dst = x.String()
				}
			}
		}
		set(&r.meta.ID, "sessionId")
		set(&r.meta.Cwd, "cwd")
		set(&r.meta.Version, "version")
		if r.meta.Created.IsZero() {
			if t := v.Get("timestamp"); t.Type == gjson.String {
				r.meta.Created, _ = session.ParseTime(t.String())
			}
		}
		if r.meta.ID != "" && r.meta.Cwd != "" && r.meta.Version != "" && !r.meta.Created.IsZero() {
			break
		}
	}
	return nil
}

func (r *reader) Next() (*session.Entry, error) {
	if e := r.pending; e != nil {
		r.pending = nil
		return r.count(e), nil
	}
	for r.sub != nil {
		e, err := r.sub.next()
		if err == nil {
			return r.count(e), nil
		}
		r.sub.close()
		r.sub = nil
		if !errors.Is(err, io.EOF) {
			return nil, err
		}
	}
	e, err := r.main.next()
	if errors.Is(err, io.EOF) && len(r.subs) > 0 {
		return r.startSub(r.subs[0], "")
	}
	if err != nil {
		return nil, err
	}
	if id := namedAgent(e); id != "" {
		for _, p := range r.subs {
			if agentID(p) == id {
				r.pending = e
				return r.startSub(p, toolUseOf(e))
			}
		}
	}
	return r.count(e), nil
}

// count leaves the usage of an API message on its first entry only: Claude
// Code repeats it on every line of a message it wrote one block at a time
// (as ccusage counts, by message.id and requestId).
func (r *reader) count(e *session.Entry) *session.Entry {
	if e.Message == nil || e.Message.Usage == nil {
		return e
	}
	key := string(e.Message.Extra.Get("id")) + "\x00" + string(e.Extra.Get("requestId"))
	if key == "\x00" {
		return e
	}
	if r.usage == nil {
		r.usage = map[string]bool{}
	}
	if r.usage[key] {
		if nt := noteOf(e.Private); nt != nil {
			nt.usageCounted = true
			e.Message.Usage = &session.Usage{} // counted on the message's first entry
		}
		return e
	}
	r.usage[key] = true
	return e
}

// startSub opens the sub-agent file p and returns the entry that named
// it (held in pending), else the run's marker entry; the marker and then
// the run's entries follow.
func (r *reader) startSub(p, toolUse string) (*session.Entry, error) {
	r.subs = remove(r.subs, p)
	fr, err := openFile(p, agentPrefix+agentID(p), 0)
	if err != nil {
		return nil, err
	}
	fr.meta = r.meta
	r.sub = fr
	// The marker is part of the main conversation, on its line: the next
	// main line hangs from it (fileReader.place), as from a metadata line.
	mark := &session.Entry{
		Kind: session.KindSubagent, Type: "subagent", ID: "subagent:" + agentID(p), ParentID: r.main.tip,
		Subagent: &session.Subagent{ID: fr.sidechain, ParentToolCallID: toolUse, AgentType: agentType(p)},
		Source:   session.Source{Origin: Name, Private: &note{marker: true, sideMeta: readMeta(p)}},
	}
	if toolUse == "" {
		mark.Subagent.ParentToolCallID = gjson.GetBytes(readMeta(p), "toolUseId").String()
	}
	r.main.tip = mark.ID
	if e := r.pending; e != nil {
		// The line naming the run is given first, then the marker.
		r.pending = mark
		return r.count(e), nil
	}
	return mark, nil
}

func remove(xs []string, x string) []string {
	out := xs[:0]
	for _, y := range xs {
		if y != x {
			out = append(out, y)
		}
	}
	return out
}

// namedAgent is the sub-agent id a tool result line names
// (toolUseResult.agentId), or "".
func namedAgent(e *session.Entry) string {
	if e.Message == nil || e.Message.Role != session.RoleTool && e.Message.Role != session.RoleUser {
		return ""
	}
	tr := e.Extra.Get("toolUseResult")
	if tr == nil {
		return ""
	}
	return gjson.GetBytes(tr, "agentId").String()
}

func toolUseOf(e *session.Entry) string {
	if e.Message.ToolCallID != "" {
		return e.Message.ToolCallID
	}
	for _, b := range e.Message.Content {
		if b.Type == session.BlockToolResult {
			return b.ToolCallID
		}
	}
	return ""
}

// agentType reads agentType from the run's .meta.json, when there is one.
func agentType(p string) string { return gjson.GetBytes(readMeta(p), "agentType").String() }

// readMeta is the run's .meta.json as read, or nil.
func readMeta(p string) []byte {
	b, err := os.ReadFile(strings.TrimSuffix(p, ".jsonl") + metaSuffix)
	if err != nil {
		return nil
	}
	return b
}

func (r *reader) Close() error {
	if r.sub != nil {
		r.sub.close()
	}
	return r.main.close()
}

// fileReader reads the lines of one file into entries, joining the lines
// of an API message Claude Code wrote one block at a time.
type fileReader struct {
	name      string
	sidechain string
	meta      *session.Meta
	lines     *jsonl.Reader
	c         io.Closer
	ahead     []rawLine       // lines read but not yet turned into entries
	tip       string          // the id of the last entry given
	real      string          // the id of the last message or compaction
	between   map[string]bool // the lines that are not messages since real
	turn      map[string]bool // the assistant messages since the last prompt
	aliases   map[string]string
}

type rawLine struct {
	raw []byte
	n   int
}

func openFile(path, sidechain string, size int64) (*fileReader, error) {
	r, c, err := format.OpenPrefix(path, size)
	if err != nil {
		return nil, err
	}
	return &fileReader{name: path, sidechain: sidechain, lines: jsonl.NewHeldReader(r), c: c}, nil
}

func (f *fileReader) close() error { return f.c.Close() }

// peekAt returns the i-th line ahead without consuming it.
func (f *fileReader) peekAt(i int) (rawLine, error) {
	for len(f.ahead) <= i {
		l, err := f.lines.NextNonBlank()
		if err != nil {
			if !errors.Is(err, io.EOF) {
				err = fmt.Errorf("read %s: %w", f.name, err)
			}
			return rawLine{}, err
		}
		raw := format.TrimBOM(l.Bytes)
		if !gjson.ValidBytes(raw) {
			return rawLine{}, fmt.Errorf("%s:%d: invalid JSON", f.name, l.N)
		}
		f.ahead = append(f.ahead, rawLine{raw: bytes.Clone(raw), n: l.N})
	}
	return f.ahead[i], nil
}

func (f *fileReader) pop() rawLine {
	l := f.ahead[0]
	f.ahead = f.ahead[1:]
	return l
}

func (f *fileReader) next() (*session.Entry, error) {
	l, err := f.peekAt(0)
	if err != nil {
		return nil, err
	}
	f.pop()
	e, err := decodeLine(l.raw, l.n, f.meta)
	if err != nil {
		return nil, fmt.Errorf("%s:%d: %w", f.name, l.n, err)
	}
	if e.Message != nil && e.Message.Role == session.RoleAssistant {
		if err := f.join(e); err != nil {
			return nil, err
		}
	}
	f.place(e)
	return e, nil
}

// place sets what the model needs of an entry's links: an id for a line
// without a uuid, the sidechain, and the parent that keeps the file one
// conversation the way Claude Code resumes it (the writer gives every line
// back its own parentUuid):
//   - a line that is not a message (progress, system, metadata) hangs on
//     the conversation's line, from the entry before it, so it is never a
//     branch of its own; a message that continues from where such lines
//     were written hangs from the last of them;
//   - a tool result hangs from the entry before it when it answers a call
//     of the current turn: the results of parallel calls, which Claude Code
//     hangs each from its own call, are one line of results.
func (f *fileReader) place(e *session.Entry) {
	nt := noteOf(e.Private)
	e.Sidechain = f.sidechain
	if e.ID == "" {
		nt.noUUID = true
		e.ID = f.sidechain + "#" + strconv.Itoa(e.Line)
	}
	if a, ok := f.aliases[e.ParentID]; ok {
		e.ParentID = a
	}
	if e.Message == nil && e.Kind != session.KindCompaction {
		if f.tip != "" {
			e.ParentID = f.tip
		}
		f.tip = e.ID
		if f.between == nil {
			f.between = map[string]bool{}
		}
		f.between[e.ID] = true
		return
	}
	switch {
	case e.ParentID == f.real || f.between[e.ParentID]:
		// a line without a uuid (file-history-snapshot) may come after
		// the line a message names: the message still continues the line
		e.ParentID = f.tip
	case e.Message != nil && e.Message.Role == session.RoleTool && f.turn[e.ParentID]:
		e.ParentID = f.tip
	}
	if e.Message != nil {
		switch e.Message.Role {
		case session.RoleAssistant:
			if f.turn == nil {
				f.turn = map[string]bool{}
			}
			f.turn[e.ID] = true
		case session.RoleUser:
			clear(f.turn)
		}
	}
	f.tip, f.real = e.ID, e.ID
	clear(f.between)
}

// join folds into e the following lines of the same API message (same
// message.id and requestId, each the child of the one before): Claude Code
// writes one line per content block, with progress lines (hooks running
// for a call) between them. Those are kept inside the message, in order,
// for this layout's writer. The entry takes the last line's uuid, which
// later lines name as their parent; the other lines become its aliases.
func (f *fileReader) join(e *session.Entry) error {
	m, ok := openMessage(headOf(e.Raw))
	if !ok {
		return nil
	}
	nt := noteOf(e.Private)
	first := part{raw: e.Raw, line: e.Line, uuid: e.ID, parent: gjson.GetBytes(e.Raw, "parentUuid").String(), time: e.Time.Raw, blocks: len(e.Message.Content)}
	for {
		// the next line of the message, past at most maxBetween others
		look, n := m, -1
		for i := 0; i <= maxBetween; i++ {
			l, err := f.peekAt(i)
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				return err
			}
			p := look.follow(headOf(l.raw))
			if p == next {
				n = i
			}
			if p != inBetween {
				break
			}
		}
		if n < 0 {
			break
		}
		m = look
		if nt.parts == nil {
			nt.parts = []part{first}
		}
		for i := 0; i <= n; i++ {
			l := f.pop()
			v := gjson.ParseBytes(l.raw)
			p := part{raw: l.raw, line: l.n, uuid: v.Get("uuid").String(), blocks: -1}
			if i == n {
				blocks := v.Get("message.content").Array()
				p.blocks = len(blocks)
				for _, b := range blocks {
					e.Message.Content = append(e.Message.Content, decodeBlock(b))
				}
			}
			nt.parts = append(nt.parts, p)
			e.ID = p.uuid
		}
	}
	if len(nt.parts) > 0 && f.aliases == nil {
		f.aliases = map[string]string{}
	}
	for _, p := range nt.parts[:max(len(nt.parts)-1, 0)] {
		f.aliases[p.uuid] = e.ID // every line of the message is the message
	}
	return nil
}
