package codex

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"unicode/utf8"

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

// Schemas: every JSONL line is checked against LineSchema, the TypeScript
// era's document against DocSchema.
const (
	LineSchema = "codex/v1/line.json"
	DocSchema  = "codex/v1/document.json"
)

// Validate checks the rollout at path, or every rollout of a Codex home,
// and the state database the reader would look its name up in.
func (f Format) Validate(path string, rep *report.Report, opt format.ValidateOptions) error {
	return f.validate(path, rep, opt, map[string]bool{})
}

// validate is Validate, reporting a bad state database once (seen).
func (f Format) validate(path string, rep *report.Report, opt format.ValidateOptions, seen map[string]bool) error {
	fi, err := os.Stat(path)
	if err != nil {
		return fmt.Errorf("read %s: %w", path, err)
	}
	if fi.IsDir() {
		files, err := rollouts(path)
		if err != nil {
			return err
		}
		opt.Size = 0 // the size of the file named, not of each rollout
		for _, p := range files {
			if err := f.validate(p, rep, opt, seen); err != nil {
				return err
			}
		}
		return nil
	}
	fh, c, err := format.OpenPrefix(path, opt.Size)
	if err != nil {
		return err
	}
	defer c.Close()
	id, err := validateRollout(path, fh, rep, opt, true)
	if err != nil {
		return err
	}
	checkState(path, id, rep, seen)
	return nil
}

// checkState reports a state database the reader would refuse (rule
// state-db, at the database), once.
func checkState(path, id string, rep *report.Report, seen map[string]bool) {
	_, _, err := threadName(homeOf(path), id)
	var se *stateError
	if !errors.As(err, &se) {
		return
	}
	if !seen[se.path] {
		seen[se.path] = true
		rep.Errorf(se.path, 0, "", "state-db", "%s", se.msg)
	}
}

// ValidateReader checks a rollout read from r; name is used in findings.
func (f Format) ValidateReader(name string, r io.Reader, rep *report.Report, opt format.ValidateOptions) error {
	_, err := validateRollout(name, r, rep, opt, false)
	return err
}

// validateRollout checks a rollout. Its entries are counted as the reader
// yields them: with runs, the entries of the sub-agents' rollouts that
// the reader brings into their parent from the same Codex home.
func validateRollout(name string, r io.Reader, rep *report.Report, opt format.ValidateOptions, runs bool) (string, error) {
	p := newPeek(r)
	doc, err := p.isDoc()
	if err != nil {
		return "", fmt.Errorf("read %s: %w", name, err)
	}
	if doc {
		return "", validateDoc(name, p, rep)
	}
	sch, err := schema.Compile(LineSchema)
	if err != nil {
		return "", err
	}
	rules := &rules{path: name, rep: rep, schema: sch}
	j := validate.JSONL{Path: name, Rules: rules, Report: rep, Workers: opt.Workers}
	if _, err := j.Run(p); err != nil {
		return "", err
	}
	n := rules.entries
	if runs && rules.id != "" {
		n += len((&reader{name: name, meta: &session.Meta{ID: rules.id}}).runs(""))
	}
	rep.Counted(Name, 1, n)
	return rules.id, nil
}

// validateDoc checks the TypeScript era's document.
func validateDoc(name string, r io.Reader, rep *report.Report) error {
	b, err := io.ReadAll(io.LimitReader(r, legacyDocMax+1))
	if err != nil {
		return fmt.Errorf("read %s: %w", name, err)
	}
	if len(b) > legacyDocMax {
		rep.Errorf(name, 0, "", "too-large", "a Codex JSON document larger than %d MiB: the TypeScript CLI never wrote one", legacyDocMax>>20)
		return nil
	}
	if len(format.TrimBOM(b)) != len(b) {
		rep.Add(format.BOMFinding(name))
		b = format.TrimBOM(b)
	}
	if !utf8.Valid(b) {
		rep.Errorf(name, 0, "", "invalid-utf8", "invalid UTF-8: Codex writes UTF-8 only")
		return nil
	}
	for _, fd := range (schema.Doc{Path: name}).Check(DocSchema, b) {
		rep.Add(fd)
	}
	// as on a line of JSON Lines: the reader keeps the first value, an
	// agent the last, and a converted session would hold the key twice
	if jsonx.Valid(b) {
		if f, dup := validate.DuplicateKeyAt(name, b, 1, 1); dup {
			rep.Add(f)
		}
	}
	n := int(gjson.GetBytes(b, "items.#").Int())
	rep.Counted(Name, 1, n)
	return nil
}

// rules are the checks a schema cannot express. Rule names are stable;
// docs/codex.md lists them.
type rules struct {
	path   string
	rep    *report.Report
	schema *jsonschema.Schema

	lines   int
	entries int
	group   grouping    // which lines begin an entry, as the reader groups them
	id      string      // the session's id, from its session_meta
	calls   idset.Index // call ids of the calls seen so far -> line; a few bytes each, so memory stays flat
}

func (r *rules) Schema(gjson.Result) *jsonschema.Schema { return r.schema }

func (r *rules) Check(l validate.Line) {
	r.lines++
	first := r.lines == 1
	if !l.Valid {
		if first {
			r.rep.Errorf(r.path, l.N, "", "missing-header", "the first line must be the session_meta record")
		} else {
			r.entries++
			r.group = grouping{}
		}
		return
	}
	rec := classify(l.Value, first)
	if first {
		r.header(l, rec)
		return
	}
	if start, _ := r.group.step(rec, l.Size); start {
		r.entries++
	}
	if rec.time != "" {
		if _, ok := session.ParseTime(rec.time); !ok {
			r.rep.Errorf(r.path, l.N, "/timestamp", "bad-timestamp", "timestamp %q is not an RFC 3339 time", rec.time)
		}
	}
	switch {
	case rec.typ == "response_item":
		r.item(l, rec)
	case !lineTypes[rec.typ] && rec.typ != "state":
		r.rep.Warnf(r.path, l.N, "/type", "unknown-line-type", "unknown line type %q (Codex skips it; sesstool keeps it when writing Codex again)", rec.typ)
	}
}

func (r *rules) header(l validate.Line, rec record) {
	if rec.typ != "session_meta" {
		r.entries++
		r.rep.Errorf(r.path, l.N, "", "missing-header", "the first line must be the session_meta record, not a %q line", rec.typ)
		return
	}
	ptr := "/payload/id"
	if rec.bare {
		ptr = "/id"
	}
	if ts := l.Value.Get("timestamp"); ts.Exists() {
		if _, ok := session.ParseTime(ts.String()); !ok {
			r.rep.Errorf(r.path, l.N, "/timestamp", "bad-timestamp", "timestamp %q is not an RFC 3339 time", ts.String())
		}
	}
	if id := rec.payload.Get("id"); id.Type == gjson.String {
		r.id = id.String()
		if why := format.UnsafeID(id.String()); why != "" {
			r.rep.Errorf(r.path, l.N, ptr, "unsafe-id", "session id %q %s: it cannot name an output file", id.String(), why)
		}
	}
}

// item checks a response item: its type is one Codex wrote, a function
// call's arguments are JSON, and an output names an earlier call.
func (r *rules) item(l validate.Line, rec record) {
	p := rec.payload
	at := "/payload"
	if rec.bare {
		at = ""
	}
	typ := rec.kind
	if !itemTypes[typ] {
		r.rep.Warnf(r.path, l.N, at+"/type", "unknown-item-type", "unknown response item type %q (sesstool keeps it when writing Codex again)", typ)
		return
	}
	call, output := strings.HasSuffix(typ, "_call"), strings.HasSuffix(typ, "_call_output")
	if !call && !output {
		return // a message or reasoning: nothing below reads it
	}
	if id := p.Get("call_id"); id.Type == gjson.String && call {
		r.calls.Put(id.String(), int32(l.N))
	}
	if typ == "function_call" {
		if a := p.Get("arguments"); a.Type == gjson.String && !l.IsCut(at+"/arguments") && !gjson.Valid(a.String()) {
			r.rep.Warnf(r.path, l.N, at+"/arguments", "bad-arguments", "the function call's arguments are not a JSON text")
		}
	}
	if output {
		if id := p.Get("call_id"); id.Type == gjson.String && !r.known(id.String()) {
			r.rep.Warnf(r.path, l.N, at+"/call_id", "unknown-call", "call_id %q names no earlier call (Codex sends the output to the model without its call)", id.String())
		}
	}
}

func (r *rules) known(id string) bool { _, ok := r.calls.Get(id); return ok }

func (r *rules) Finish() {
	if r.lines == 0 {
		r.rep.Errorf(r.path, 0, "", "missing-header", "empty file: no session_meta record")
	}
}
