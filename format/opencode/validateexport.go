package opencode

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strconv"

	"github.com/sesstool/sesstool/format"
	"github.com/sesstool/sesstool/report"
	"github.com/tidwall/gjson"
)

func validateExportFile(path string, rep *report.Report) error {
	f, err := openRegular(path)
	if err != nil {
		return err
	}
	defer f.Close()
	return validateExportFrom(path, f, rep)
}

// validateExport checks an export document held in b (tests, fuzzing).
func validateExport(name string, b []byte, rep *report.Report) {
	_ = validateExportFrom(name, bytes.NewReader(b), rep)
}

// exportCheck validates an export document a message at a time: info
// against the session schema, each message's info and parts against
// theirs, then the rules across messages (checker.finish). The findings are
// those of the whole document checked at once, with the same lines: until
// the document has proved to be JSON and an export, they are held (a
// document that is not reports that alone).
type exportCheck struct {
	c       *checker
	name    string
	own     findings
	sid     string
	info    bool
	pending []piece // messages before info, checked after it
}

func validateExportFrom(name string, r io.Reader, rep *report.Report) error {
	x := &exportCheck{name: name}
	x.c = newChecker(nil)
	x.c.rep = &x.own
	x.c.lone, x.c.noProj = true, true
	x.c.files = 1
	sc := newDocScanner(r)
	verdict, err := x.walk(sc)
	if err != nil {
		return fmt.Errorf("read %s: %w", name, err)
	}
	if verdict != nil {
		rep.Add(*verdict)
		rep.Counted(ExportName, 1, 0)
		return nil
	}
	x.c.finish()
	for _, f := range x.own {
		rep.Add(f)
	}
	rep.Counted(ExportName, x.c.files, x.c.entries)
	return nil
}

// walk checks every piece; verdict is the one finding a document that is
// not JSON or not an export gets instead of any other; err is the reader's.
func (x *exportCheck) walk(sc *docScanner) (verdict *report.Finding, err error) {
	envelope := &report.Finding{Path: x.name, Severity: report.Error, Rule: ruleSchema,
		Message: "not an export document: want {info: object, messages: array} [schema opencode/export.json#/required]"}
	for {
		p, err := sc.next()
		var syn *docSyntax
		switch {
		case errors.Is(err, io.EOF):
			if !x.info || !sc.msgsArray {
				return envelope, nil
			}
			return nil, nil
		case errors.Is(err, errBOM):
			f := format.BOMFinding(x.name)
			return &f, nil
		case errors.Is(err, errNotObject):
			return envelope, nil
		case errors.As(err, &syn):
			return &report.Finding{Path: x.name, Line: syn.line, Column: syn.col, Severity: report.Error, Rule: ruleSyntax, Message: syn.msg}, nil
		case err != nil:
			return nil, err
		}
		switch {
		case p.key == "info" && p.index < 0:
			if p.raw[0] != '{' {
				x.info = false
				// still read to the end: a syntax error comes first
				x.pending, x.sid = nil, ""
				for {
					if _, err := sc.next(); err != nil {
						if errors.Is(err, io.EOF) {
							return envelope, nil
						}
						return x.walkErr(err, envelope)
					}
				}
			}
			x.info = true
			x.session(p)
			for _, m := range x.pending {
				x.message(m)
			}
			x.pending = nil
		case p.key == "messages" && p.index >= 0:
			if !x.info {
				p.raw = append([]byte(nil), p.raw...)
				x.pending = append(x.pending, p)
				continue
			}
			x.message(p)
		}
	}
}

// walkErr is walk's verdict on an error after the envelope proved wrong.
func (x *exportCheck) walkErr(err error, envelope *report.Finding) (*report.Finding, error) {
	var syn *docSyntax
	if errors.As(err, &syn) {
		return &report.Finding{Path: x.name, Line: syn.line, Column: syn.col, Severity: report.Error, Rule: ruleSyntax, Message: syn.msg}, nil
	}
	return nil, err
}

func (x *exportCheck) session(p piece) {
	v := appendCompact(nil, p.raw)
	at := loc{path: x.name, ptr: "/info", src: p.raw, base: "/info", line0: p.line}
	x.c.session(at, v, "", "")
	x.sid = gjson.GetBytes(v, "id").String()
}

func (x *exportCheck) message(p piece) {
	ptr := "/messages/" + strconv.Itoa(p.index)
	mat := loc{path: x.name, ptr: ptr, src: p.raw, base: ptr, line0: p.line}
	m := gjson.ParseBytes(appendCompact(nil, p.raw))
	mi := m.Get("info")
	if !mi.IsObject() {
		x.c.errorf(mat, "/info", ruleSchema, "message without an info object")
		return
	}
	at := mat
	at.ptr = ptr + "/info"
	x.c.message(at, []byte(mi.Raw), "", x.sid)
	parts := m.Get("parts")
	if !parts.IsArray() {
		x.c.errorf(mat, "/parts", ruleSchema, "message without a parts array")
	}
	mid := mi.Get("id").String()
	for j, part := range parts.Array() {
		at := mat
		at.ptr = ptr + "/parts/" + strconv.Itoa(j)
		x.c.part(at, []byte(part.Raw), "", mid, x.sid)
	}
}
