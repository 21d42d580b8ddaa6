package model

import (
	"io"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/sesstool/sesstool/format"
	"github.com/sesstool/sesstool/report"
	"github.com/sesstool/sesstool/schema"
	"github.com/sesstool/sesstool/validate"
	"github.com/tidwall/gjson"
)

// LineSchema is the schema every line of a dump is checked against.
const LineSchema = "model/v1/line.json"

// Validate checks the dump at path. convert runs it on every dump it writes.
func (f Format) Validate(path string, rep *report.Report, opt format.ValidateOptions) error {
	r, c, err := format.OpenPrefix(path, opt.Size)
	if err != nil {
		return err
	}
	defer c.Close()
	return f.ValidateReader(path, r, rep, opt)
}

// ValidateReader checks a dump read from r; name is used in findings.
func (Format) ValidateReader(name string, r io.Reader, rep *report.Report, opt format.ValidateOptions) error {
	sch, err := schema.Compile(LineSchema)
	if err != nil {
		return err
	}
	ru := &rules{path: name, rep: rep, schema: sch, ids: map[string]int{}, errors: rep.Errors()}
	j := validate.JSONL{Path: name, Rules: ru, Report: rep, Workers: opt.Workers, Tee: opt.Tee}
	if _, err := j.Run(r); err != nil {
		return err
	}
	rep.Counted(Name, 1, ru.entries)
	return nil
}

// rules add what the schema cannot say: the meta line comes first and only
// there. Ids and parents are the model's, which tolerates what its sources
// hold (a repeated id, a parent that is not in the file), so those are
// warnings: the dump shows the model as it is.
type rules struct {
	path    string
	rep     *report.Report
	schema  *jsonschema.Schema
	lines   int
	entries int
	ids     map[string]int // entry id -> line
	parents []parentRef
	errors  int // the report's errors after the previous line
}

type parentRef struct {
	id   string
	line int
}

func (r *rules) Schema(gjson.Result) *jsonschema.Schema { return r.schema }

func (r *rules) Check(l validate.Line) {
	r.lines++
	first := r.lines == 1
	clean := r.rep.Errors() == r.errors // the engine found nothing on this line
	defer func() { r.errors = r.rep.Errors() }()
	if !l.Valid {
		if first {
			r.rep.Errorf(r.path, l.N, "", "missing-meta", "the first line must be the meta line {\"model\":1,\"meta\":{...}}")
		}
		return
	}
	isMeta := l.Value.Get("model").Exists()
	switch {
	case first && !isMeta:
		r.rep.Errorf(r.path, l.N, "", "missing-meta", "the first line must be the meta line {\"model\":1,\"meta\":{...}}, not an entry")
	case !first && isMeta:
		r.rep.Errorf(r.path, l.N, "/model", "duplicate-meta", "a second meta line (it belongs on line 1 only)")
	}
	if clean {
		r.checkDecode(l, isMeta)
	}
	if isMeta {
		return
	}
	r.entries++
	if id := l.Value.Get("id"); id.Type == gjson.String {
		k := strings.Clone(id.String()) // a copy: the key must not pin the line
		if prev, ok := r.ids[k]; ok {
			r.rep.Warnf(r.path, l.N, "/id", "duplicate-id", "id %q is already used on line %d", k, prev)
		} else {
			r.ids[k] = l.N
		}
	}
	if p := l.Value.Get("parent"); p.Type == gjson.String {
		r.parents = append(r.parents, parentRef{strings.Clone(p.String()), l.N})
	}
}

func (r *rules) Finish() {
	if r.lines == 0 {
		r.rep.Errorf(r.path, 0, "", "missing-meta", "empty file: no meta line")
	}
	// Parents are checked at the end: a parent may come later in the file
	// than its child (OpenCode's order is by time, not by link).
	for _, p := range r.parents {
		if _, ok := r.ids[p.id]; !ok {
			r.rep.Warnf(r.path, p.line, "/parent", "dangling-parent", "parent %q is not an entry of this session", p.id)
		}
	}
}

// checkDecode reads a line the schema accepts as the reader will, so that
// what validate accepts always reads: a time the schema's pattern lets
// through but that is no date (month 13), an integer written 1.0 or
// beyond 64 bits.
func (r *rules) checkDecode(l validate.Line, isMeta bool) {
	var err error
	if isMeta {
		var ml metaLine
		if err = strict(l.Bytes, &ml); err == nil && ml.Meta != nil {
			_, err = decodeMeta(ml.Meta)
		}
	} else {
		var j entryJSON
		if err = strict(l.Bytes, &j); err == nil {
			_, err = decodeEntry(&j)
		}
	}
	if err != nil {
		r.rep.Errorf(r.path, l.N, "", "unreadable", "the model reader cannot read this line: %v", err)
	}
}
