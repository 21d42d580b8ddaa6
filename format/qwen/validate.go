package qwen

import (
	"io"
	"os"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/sesstool/sesstool/format"
	"github.com/sesstool/sesstool/internal/idset"
	"github.com/sesstool/sesstool/report"
	"github.com/sesstool/sesstool/schema"
	"github.com/sesstool/sesstool/validate"
	"github.com/tidwall/gjson"
)

// LineSchema is the schema every line is checked against.
const LineSchema = "qwen/v1/line.json"

// knownTypes are the record types of Qwen Code 0.24.4's ChatRecord.
var knownTypes = map[string]bool{"user": true, "assistant": true, "tool_result": true, "system": true}

// Validate checks the session file at path, or every session of a home.
func (f Format) Validate(path string, rep *report.Report, opt format.ValidateOptions) error {
	if fi, err := os.Stat(path); err == nil && fi.IsDir() {
		refs, err := f.Sessions(path)
		if err != nil {
			return err
		}
		opt.Size = 0 // the size of the path named, not of each session
		for _, ref := range refs {
			if err := f.Validate(ref.Path, rep, opt); err != nil {
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

// ValidateReader checks a session read from r; name is used in findings.
func (f Format) ValidateReader(name string, r io.Reader, rep *report.Report, opt format.ValidateOptions) error {
	sch, err := schema.Compile(LineSchema)
	if err != nil {
		return err
	}
	rules := &rules{path: name, rep: rep, schema: sch}
	j := validate.JSONL{Path: name, Rules: rules, Report: rep, Workers: opt.Workers}
	if _, err := j.Run(r); err != nil {
		return err
	}
	rep.Counted(Name, 1, rules.entries)
	return nil
}

// rules are the checks a schema cannot express. Qwen Code appends lines,
// so every reference points backwards and is checked when it is seen.
// Rule names are stable; docs/qwen.md lists them.
type rules struct {
	path   string
	rep    *report.Report
	schema *jsonschema.Schema

	lines     int
	entries   int          // as the reader yields them (toolEntries)
	session   string       // the first line's sessionId
	ids       idset.Index  // uuid -> line
	toolCalls idset.Hashed // functionCall ids seen
	conv      bool         // a user, assistant or tool_result line was seen
}

func (r *rules) Schema(gjson.Result) *jsonschema.Schema { return r.schema }

func (r *rules) errorf(line int, ptr, rule, f string, a ...any) {
	r.rep.Errorf(r.path, line, ptr, rule, f, a...)
}

func (r *rules) warnf(line int, ptr, rule, f string, a ...any) {
	r.rep.Warnf(r.path, line, ptr, rule, f, a...)
}

func (r *rules) Check(l validate.Line) {
	r.lines++
	r.entries++
	if !l.Valid {
		return
	}
	v := l.Value
	typ := v.Get("type").String()
	if typ == "tool_result" {
		if n := toolParts(v.Get("message")); n > 1 {
			r.entries += n - 1 // a tool message per call answered
		}
	}
	if typ != "" && !knownTypes[typ] {
		r.warnf(l.N, "/type", "unknown-line-type", "line type %q is not one sesstool knows (a newer Qwen Code?); it is kept as it is when written as qwen, and counted as lost otherwise", typ)
	}
	if typ == "user" || typ == "assistant" || typ == "tool_result" {
		r.conv = true
	}
	if sid := v.Get("sessionId"); sid.Type == gjson.String {
		switch {
		case r.session == "":
			r.session = sid.String()
			if why := format.UnsafeID(r.session); why != "" {
				r.errorf(l.N, "/sessionId", "unsafe-id", "session id %q %s: it cannot name an output file or directory", r.session, why)
			}
		case sid.String() != r.session:
			r.errorf(l.N, "/sessionId", "session-mismatch", "sessionId %q differs from the file's session %q (Qwen Code keeps one session a file)", sid.String(), r.session)
		}
	}
	// An error, as Claude Code's layout makes it: Qwen Code resumes the
	// chain back from the last line and stops at the gap, so the lines
	// before it leave the conversation; and a layout that links entries
	// (pi's tree) cannot write a parent no entry carries.
	if p := v.Get("parentUuid"); p.Type == gjson.String {
		if _, ok := r.ids.Get(p.String()); !ok {
			r.errorf(l.N, "/parentUuid", "dangling-parent", "parentUuid %q names no earlier line (Qwen Code would cut the conversation here: it resumes only the lines after the gap)", p.String())
		}
	}
	if id := v.Get("uuid"); id.Type == gjson.String {
		if prev, ok := r.ids.Get(id.String()); ok {
			r.errorf(l.N, "/uuid", "duplicate-id", "uuid %q is already used on line %d", id.String(), prev)
		} else {
			r.ids.Put(id.String(), int32(l.N))
		}
	}
	v.Get("message.parts").ForEach(func(i, p gjson.Result) bool {
		if id := p.Get("functionCall.id"); id.Type == gjson.String && id.String() != "" {
			r.toolCalls.Put(id.String(), 0)
		}
		if id := p.Get("functionResponse.id"); id.Type == gjson.String && id.String() != "" && !r.toolCalls.Has(id.String()) {
			r.warnf(l.N, "/message/parts/"+i.String()+"/functionResponse/id", "unknown-tool-call", "functionResponse id %q answers no earlier functionCall", id.String())
		}
		return true
	})
}

func (r *rules) Finish() {
	switch {
	case r.lines == 0:
		r.errorf(0, "", "no-conversation", "empty file: no Qwen Code record")
	case !r.conv:
		r.errorf(0, "", "no-conversation", "no user, assistant or tool_result line: Qwen Code lists no conversation here")
	}
}
