package schema

import (
	"bytes"
	"fmt"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/sesstool/sesstool/report"
)

// Rule is the rule of every schema finding, in every layout.
const Rule = "schema"

// Doc is one JSON document checked against a schema, a whole file or one
// line of a JSONL file, and where its findings point. It is the one entry
// point every layout checks its documents through: the fast path, the full
// check, the guard against a panic in the schema library, and the findings
// worded the same way everywhere.
type Doc struct {
	Path string
	// Line is the line of every finding (a JSONL file's line); 0 for a
	// whole file, unless LineOf can tell.
	Line int
	// Pointer is where the document sits in its file ("" for the whole
	// file); it prefixes every finding's pointer.
	Pointer string
	// LineOf, when the layout can tell, is the line of the value a
	// finding's whole pointer names (0 for none); it is called only for a
	// finding, so it may read the file again.
	LineOf func(ptr string) int
	// Skip drops issues the layout reports its own way (OpenCode's id
	// patterns, as one bad-id finding instead of two).
	Skip func(Issue) bool
}

// Check validates b against the schema file name (as Compile takes it) and
// returns the findings, none when b is valid. A schema that does not
// compile is a finding too.
func (d Doc) Check(name string, b []byte) []report.Finding {
	s, err := Compile(name)
	if err != nil {
		return []report.Finding{d.finding(d.Pointer, Rule, err.Error())}
	}
	return d.CheckSchema(s, b)
}

// CheckSchema is Check with a compiled schema: the fast path first, and
// only when it is not sure, the full check, which words the findings.
func (d Doc) CheckSchema(s *jsonschema.Schema, b []byte) []report.Finding {
	if Accepts(s, b) {
		return nil
	}
	return d.Full(s, b, nil)
}

// Full is the full check alone, for a caller whose own fast path already
// said "not sure" (the JSONL engine, which checks syntax in the same pass).
// inst is b decoded, or nil to decode it here; b that does not decode is a
// json-syntax finding.
func (d Doc) Full(s *jsonschema.Schema, b []byte, inst any) []report.Finding {
	if inst == nil {
		var err error
		if inst, err = jsonschema.UnmarshalJSON(bytes.NewReader(b)); err != nil {
			return []report.Finding{d.finding(d.Pointer, "json-syntax", err.Error())}
		}
	}
	err := d.validate(s, inst)
	if err == nil {
		return nil
	}
	var out []report.Finding
	for _, is := range Issues(err) {
		if d.Skip != nil && d.Skip(is) {
			continue
		}
		out = append(out, d.finding(d.Pointer+is.Pointer, Rule, is.Format()))
	}
	return out
}

// validate turns a panic inside the schema library into an error: v6
// panics on numbers big.Rat cannot hold (such as 1e999999999), and a panic
// in a worker goroutine would take the whole process down.
func (d Doc) validate(s *jsonschema.Schema, inst any) (err error) {
	defer func() {
		if r := recover(); r != nil {
			what := "file"
			if d.Line > 0 {
				what = "line"
			}
			err = fmt.Errorf("the schema validator failed on this %s (%v); a number is probably out of range", what, r)
		}
	}()
	return s.Validate(inst)
}

func (d Doc) finding(ptr, rule, msg string) report.Finding {
	line := d.Line
	if d.LineOf != nil {
		line = d.LineOf(ptr)
	}
	return report.Finding{Path: d.Path, Line: line, Pointer: ptr, Severity: report.Error, Rule: rule, Message: msg}
}
