package copilot

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

// LineSchema is the schema every event is checked against; it dispatches
// on type to the event's own file, derived from Copilot CLI's schema.
const LineSchema = "copilot/v1/line.json"

// Validate checks the session file at path, or every session file of a
// session folder or store (Sessions lists them).
func (f Format) Validate(path string, rep *report.Report, opt format.ValidateOptions) error {
	if fi, err := os.Stat(path); err == nil && fi.IsDir() {
		refs, err := f.Sessions(path)
		if err != nil {
			return err
		}
		for _, ref := range refs {
			if err := f.Validate(ref.Path, rep, format.ValidateOptions{Workers: opt.Workers}); err != nil {
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
	rules := &rules{path: name, rep: rep, schema: sch, known: knownTypes()}
	j := validate.JSONL{Path: name, Rules: rules, Report: rep, Workers: opt.Workers, Tee: opt.Tee}
	if _, err := j.Run(r); err != nil {
		return err
	}
	rep.Counted(Name, 1, rules.entries)
	return nil
}

// knownTypes are the event types schema/copilot/v1 has a file for.
func knownTypes() map[string]bool {
	known := map[string]bool{}
	for _, n := range schema.List() {
		const dir = "copilot/v1/"
		if len(n) > len(dir) && n[:len(dir)] == dir && n != LineSchema && n != dir+"defs.json" {
			known[n[len(dir):len(n)-len(".json")]] = true
		}
	}
	return known
}

// rules are the checks the schema cannot say: the session.start first,
// unique ids, the parentId chain, tool results naming their call, and
// sub-agent events naming a started sub-agent. Every reference points
// backwards (the log is append-only), so each line is checked as it comes.
// Rule names are stable; docs/copilot.md lists them.
type rules struct {
	path   string
	rep    *report.Report
	schema *jsonschema.Schema
	known  map[string]bool

	lines   int
	entries int
	prev    string      // the id of the event before
	ids     idset.Index // event id -> line
	calls   idset.Hashed
	agents  idset.Hashed // toolCallIds of started sub-agents
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
	first := r.lines == 1
	if !first {
		r.entries++
	}
	if !l.Valid {
		if first {
			r.errorf(l.N, "", "missing-start", "the first line must be the session.start event")
		}
		r.prev = ""
		return
	}
	v := l.Value
	typ := v.Get("type").String()
	id := v.Get("id")
	if first && typ != evStart {
		r.entries++
		r.errorf(l.N, "/type", "missing-start", "the first event must be session.start, not %q", typ)
	}
	if !first && typ == evStart {
		r.errorf(l.N, "/type", "duplicate-start", "a second session.start (a resumed session appends session.resume)")
	}
	if typ != "" && !r.known[typ] {
		r.warnf(l.N, "/type", "unknown-event-type", "unknown event type %q (not in Copilot CLI %s's schema)", typ, CLIVersion)
	}
	if v.Get("ephemeral").Bool() {
		r.warnf(l.N, "/ephemeral", "ephemeral-event", "an ephemeral %s event, which Copilot CLI does not write to the log", typ)
	}
	r.checkParent(l, v, first)
	if id.Type == gjson.String {
		if prev, ok := r.ids.Get(id.String()); ok {
			r.errorf(l.N, "/id", "duplicate-id", "id %q is already used on line %d", id.String(), prev)
		} else {
			r.ids.Put(id.String(), int32(l.N))
		}
		r.prev = id.String()
	} else {
		r.prev = ""
	}
	if typ == evSubagentStart {
		// the sub-agent's own start already carries its agentId
		if c := v.Get("data.toolCallId"); c.Type == gjson.String {
			r.agents.Put(c.String(), 0)
		}
	}
	if a := v.Get("agentId"); a.Type == gjson.String && !r.agents.Has(a.String()) {
		r.warnf(l.N, "/agentId", "unknown-agent", "agentId %q names no earlier subagent.started", a.String())
	}
	data := v.Get("data")
	switch typ {
	case evAssistant:
		data.Get("toolRequests").ForEach(func(_, t gjson.Result) bool {
			if c := t.Get("toolCallId"); c.Type == gjson.String {
				r.calls.Put(c.String(), 0)
			}
			return true
		})
	case evToolStart:
		if c := data.Get("toolCallId"); c.Type == gjson.String {
			r.calls.Put(c.String(), 0)
		}
	case evToolComplete:
		if c := data.Get("toolCallId"); c.Type == gjson.String && !r.calls.Has(c.String()) {
			r.errorf(l.N, "/data/toolCallId", "unknown-tool-call", "toolCallId %q names no earlier tool request or tool.execution_start", c.String())
		}
	}
}

// checkParent: the first event's parentId is null; every later one names
// the event written just before it, as Copilot CLI chains them. One that
// names an earlier event is a break in the chain (a warning); one that
// names no event at all is an error.
func (r *rules) checkParent(l validate.Line, v gjson.Result, first bool) {
	p := v.Get("parentId")
	switch {
	case !p.Exists():
	case first && p.Type != gjson.Null:
		r.errorf(l.N, "/parentId", "root-parent", "the first event's parentId must be null, not %s", p.Raw)
	case first:
	case p.Type == gjson.Null:
		r.warnf(l.N, "/parentId", "broken-chain", "parentId is null after the first event (Copilot CLI chains every event to the one before)")
	case p.Type != gjson.String:
	case p.String() == r.prev:
	case r.has(p.String()):
		r.warnf(l.N, "/parentId", "broken-chain", "parentId %q names an earlier event, not the one just before (%q)", p.String(), r.prev)
	default:
		r.errorf(l.N, "/parentId", "dangling-parent", "parentId %q names no earlier event", p.String())
	}
}

func (r *rules) has(id string) bool { _, ok := r.ids.Get(id); return ok }

func (r *rules) Finish() {
	if r.lines == 0 {
		r.errorf(0, "", "missing-start", "empty file: no session.start event")
	}
}
