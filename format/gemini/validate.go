package gemini

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/sesstool/sesstool/format"
	"github.com/sesstool/sesstool/report"
	"github.com/sesstool/sesstool/schema"
	"github.com/sesstool/sesstool/session"
	"github.com/sesstool/sesstool/validate"
	"github.com/tidwall/gjson"
)

// The schemas: every line of a JSON Lines file, and a legacy document.
const (
	LineSchema = "gemini/v2/line.json"
	DocSchema  = "gemini/v1/document.json"
)

// Validate checks the session file at path.
func (f Format) Validate(path string, rep *report.Report, opt format.ValidateOptions) error {
	if fi, err := os.Stat(path); err == nil && fi.IsDir() {
		files, err := sessionFiles(path)
		if err != nil {
			return err
		}
		for _, p := range files {
			if err := f.Validate(p, rep, format.ValidateOptions{Workers: opt.Workers}); err != nil {
				return err
			}
		}
		return nil
	}
	r, c, err := format.OpenPrefix(path, opt.Size)
	if err != nil {
		return err
	}
	defer c.Close()
	return f.ValidateReader(path, r, rep, opt)
}

// ValidateReader checks a session read from r: a JSON Lines file line by
// line, or, when its first line is not a metadata record, one legacy
// document.
func (Format) ValidateReader(name string, r io.Reader, rep *report.Report, opt format.ValidateOptions) error {
	b, err := io.ReadAll(r)
	if err != nil {
		return fmt.Errorf("read %s: %w", name, err)
	}
	if bytes.HasPrefix(b, format.BOM) {
		rep.Add(format.BOMFinding(name))
	}
	if isLegacy(b) {
		validateDoc(name, format.TrimBOM(b), rep)
		rep.Counted(Name, 1, entries(name, b))
		return nil
	}
	sch, err := schema.Compile(LineSchema)
	if err != nil {
		return err
	}
	ru := &rules{path: name, rep: rep, schema: sch, index: map[string]int{}}
	j := validate.JSONL{Path: name, Rules: ru, Report: rep, Workers: opt.Workers}
	if _, err := j.Run(bytes.NewReader(b)); err != nil {
		return err
	}
	rep.Counted(Name, 1, entries(name, b))
	return nil
}

// entries is how many entries the reader makes of the file: the summary
// counts what info and convert see, not lines (a message written three
// times is one, a reply with a result two).
func entries(name string, b []byte) int {
	c, err := load(name, b)
	if err != nil {
		return 0
	}
	return len(build(name, c).entries)
}

// isLegacy reports whether b is read as a legacy document: its first
// non-blank line is not a JSON object of its own, as a document printed
// over many lines is not (the agent's loader then falls back to it).
func isLegacy(b []byte) bool {
	b = bytes.TrimLeft(format.TrimBOM(b), " \t\r\n")
	line := b
	if i := bytes.IndexByte(b, '\n'); i >= 0 {
		line = b[:i]
	}
	line = bytes.TrimSpace(line)
	return len(line) > 0 && line[0] == '{' && !gjson.ValidBytes(line) && len(line) < len(bytes.TrimSpace(b))
}

// rules are the checks a schema cannot express, applied as the agent's
// loader reads the lines. Rule names are stable; docs/gemini.md lists
// them.
type rules struct {
	path   string
	rep    *report.Report
	schema *jsonschema.Schema

	lines int
	meta  bool
	// ids are the messages of the conversation so far, in order, as the
	// loader keeps them: a rewind must name one of them.
	ids   []string
	index map[string]int
}

func (r *rules) Schema(gjson.Result) *jsonschema.Schema { return r.schema }

func (r *rules) Check(l validate.Line) {
	r.lines++
	first := r.lines == 1
	if !l.Valid {
		if first {
			r.rep.Errorf(r.path, l.N, "", "missing-metadata", "the first line must be the metadata record {\"sessionId\":...,\"projectHash\":...}")
		}
		return
	}
	v := l.Value
	switch {
	case v.Get(`\$rewindTo`).Type == gjson.String:
		r.rewind(l.N, v.Get(`\$rewindTo`).String())
	case v.Get("id").Type == gjson.String:
		r.add(v.Get("id").String())
		checkMessage(r.rep, r.path, l.N, "", v)
	case v.Get(`\$set`).IsObject():
		set := v.Get(`\$set`)
		if ms := set.Get("messages"); ms.IsArray() {
			r.ids, r.index = nil, map[string]int{}
			for i, m := range ms.Array() {
				if id := m.Get("id"); id.Type == gjson.String {
					r.add(id.String())
				}
				checkMessage(r.rep, r.path, l.N, "/$set/messages/"+strconv.Itoa(i), m)
			}
		}
		checkTimes(r.rep, r.path, l.N, "/$set", set)
	case isMetadata(v):
		// A later metadata record is merged into the first, as the agent
		// merges it: Gemini CLI 0.61.0 appends one each time it resumes
		// the session.
		r.meta = true
		checkMetadata(r.rep, r.path, l.N, "", v)
		if ms := v.Get("messages"); ms.IsArray() {
			for i, m := range ms.Array() {
				if id := m.Get("id"); id.Type == gjson.String {
					r.add(id.String())
				}
				checkMessage(r.rep, r.path, l.N, "/messages/"+strconv.Itoa(i), m)
			}
		}
	}
	if first && !isMetadata(v) {
		r.rep.Errorf(r.path, l.N, "", "missing-metadata", "the first line must be the metadata record {\"sessionId\":...,\"projectHash\":...}")
	}
}

func (r *rules) add(id string) {
	if _, ok := r.index[id]; ok {
		return // a new version of a message keeps its place
	}
	r.index[id] = len(r.ids)
	r.ids = append(r.ids, id)
}

func (r *rules) rewind(n int, id string) {
	i, ok := r.index[id]
	if !ok {
		r.rep.Warnf(r.path, n, "/$rewindTo", "rewind-unknown-id", "$rewindTo %q names no message of the conversation: Gemini CLI drops every message", id)
		r.ids, r.index = nil, map[string]int{}
		return
	}
	for _, gone := range r.ids[i:] {
		delete(r.index, gone)
	}
	r.ids = r.ids[:i]
}

func (r *rules) Finish() {
	if r.lines == 0 {
		r.rep.Errorf(r.path, 0, "", "missing-metadata", "empty file: no metadata record")
	}
}

// checkMetadata applies the rules of the metadata members.
func checkMetadata(rep *report.Report, path string, n int, ptr string, v gjson.Result) {
	if id := v.Get("sessionId"); id.Type == gjson.String {
		if why := format.UnsafeID(id.String()); why != "" {
			rep.Errorf(path, n, ptr+"/sessionId", "unsafe-id", "session id %q %s: it cannot name an output file", id.String(), why)
		}
	}
	checkTimes(rep, path, n, ptr, v)
}

// checkTimes warns of a metadata time that is not an ISO 8601 time: the
// agent shows such a session with no date, and sorts it anywhere.
func checkTimes(rep *report.Report, path string, n int, ptr string, v gjson.Result) {
	for _, k := range []string{"startTime", "lastUpdated"} {
		if t := v.Get(k); t.Type == gjson.String {
			if _, ok := session.ParseTime(t.String()); !ok {
				rep.Warnf(path, n, ptr+"/"+k, "bad-time", "%s %q is not an ISO 8601 time", k, t.String())
			}
		}
	}
}

// checkMessage applies the rules of one message record.
func checkMessage(rep *report.Report, path string, n int, ptr string, v gjson.Result) {
	if t := v.Get("timestamp"); t.Type == gjson.String {
		if _, ok := session.ParseTime(t.String()); !ok {
			rep.Warnf(path, n, ptr+"/timestamp", "bad-time", "timestamp %q is not an ISO 8601 time", t.String())
		}
	}
	calls := map[string]bool{}
	for i, tc := range v.Get("toolCalls").Array() {
		id := tc.Get("id").String()
		if calls[id] {
			rep.Errorf(path, n, ptr+"/toolCalls/"+strconv.Itoa(i)+"/id", "duplicate-call-id", "tool call id %q twice in one reply", id)
		}
		calls[id] = true
	}
}

// validateDoc checks a legacy document.
func validateDoc(name string, b []byte, rep *report.Report) {
	c, _ := loadLegacy(name, b)
	var elems []gjson.Result
	if c != nil {
		elems = gjson.ParseBytes(c.metaRaw).Get("messages").Array()
	}
	// lineOf is the line a finding's pointer starts on: its message's, or
	// the document's first.
	lineOf := func(ptr string) int {
		if c == nil {
			return 0
		}
		if rest, ok := strings.CutPrefix(ptr, "/messages/"); ok {
			i, err := strconv.Atoi(strings.SplitN(rest, "/", 2)[0])
			if err == nil && i < len(elems) {
				if at := offset(c.metaRaw, elems[i]); at >= 0 {
					return c.metaLine + bytes.Count(c.metaRaw[:at], []byte("\n"))
				}
			}
		}
		return c.metaLine
	}
	for _, fd := range (schema.Doc{Path: name, LineOf: lineOf}).Check(DocSchema, b) {
		rep.Add(fd)
	}
	if c == nil {
		return
	}
	v := gjson.ParseBytes(c.metaRaw)
	checkMetadata(rep, name, c.metaLine, "", v)
	ids := map[string]int{}
	for i, m := range elems {
		line := lineOf("/messages/" + strconv.Itoa(i))
		ptr := "/messages/" + strconv.Itoa(i)
		if id := m.Get("id").String(); id != "" {
			if prev, dup := ids[id]; dup {
				rep.Warnf(name, line, ptr+"/id", "duplicate-id", "message id %q is already used on line %d (the agent keeps the last)", id, prev)
			}
			ids[id] = line
		}
		checkMessage(rep, name, line, ptr, m)
	}
}
