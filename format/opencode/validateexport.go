package opencode

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"sort"
	"strconv"

	"github.com/sesstool/sesstool/format"
	"github.com/sesstool/sesstool/report"
	"github.com/sesstool/sesstool/validate"
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
	msgs    map[string]xmsg
	parts   []xpart
	// triggerParts counts each message's parts and its compaction parts: a
	// user message whose only part asks for the summary answering it is
	// read into that summary, not as an entry of its own
	triggerParts map[string][2]int
}

func validateExportFrom(name string, r io.Reader, rep *report.Report) error {
	x := &exportCheck{name: name, msgs: map[string]xmsg{}}
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
	x.finish()
	for _, r := range sc.repeats {
		f := validate.DuplicateKey(x.name, r.line, r.col, r.key)
		f.Pointer = "/" + r.key
		rep.Add(f)
	}
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
	x.c.duplicateKey(at, p.raw, p.line, p.col)
	x.c.session(at, v, "", "")
	x.sid = gjson.GetBytes(v, "id").String()
}

func (x *exportCheck) message(p piece) {
	ptr := "/messages/" + strconv.Itoa(p.index)
	mat := loc{path: x.name, ptr: ptr, src: p.raw, base: ptr, line0: p.line}
	x.c.duplicateKey(mat, p.raw, p.line, p.col)
	m := gjson.ParseBytes(appendCompact(nil, p.raw))
	mi := m.Get("info")
	if !mi.IsObject() {
		x.c.errorf(mat, "/info", ruleSchema, "message without an info object")
		return
	}
	at := mat
	at.ptr = ptr + "/info"
	o := x.c.checkMessage(at, []byte(mi.Raw), "", x.sid)
	x.addMessage(at, int32(p.index), o)
	parts := m.Get("parts")
	if !parts.IsArray() {
		x.c.errorf(mat, "/parts", ruleSchema, "message without a parts array")
	}
	// o.id is a copy of its own; gjson's would keep the whole message
	mid := o.id
	for j, part := range parts.Array() {
		at := mat
		at.ptr = ptr + "/parts/" + strconv.Itoa(j)
		x.addPart(at, int32(p.index), int32(j), mid, x.c.checkPart(at, []byte(part.Raw), "", mid, x.sid))
	}
}

// xmsg is what the rules across messages (finish) need of one message of
// an export document: a few words instead of its location (checker.add*
// keeps a loc, whose size a million messages multiply).
type xmsg struct {
	session, role, parent string
	index                 int32
	lineSession           int32 // the line of /sessionID, when it names no session
	lineParent            int32 // the line of /parentID, for an assistant's
	summary               bool
}

type xpart struct {
	id, message, session string
	msg, index           int32
	lineMessage          int32
	lineSession          int32
}

// addMessage is checker.addMessage for an export document.
func (x *exportCheck) addMessage(at loc, index int32, o obj) {
	c := x.c
	c.entries++
	if _, dup := x.msgs[o.id]; dup {
		c.errorf(at, "/id", ruleDuplicate, "message %s appears twice", o.id)
	}
	m := xmsg{session: o.session, role: internRole(o.role), parent: o.parent, index: index, summary: o.summary}
	if o.session == x.sid {
		m.session = x.sid
	}
	if _, ok := c.sessions[m.session]; !ok {
		m.lineSession = int32(at.lineOf(at.ptr + "/sessionID"))
	}
	if m.role == "assistant" && m.parent != "" {
		m.lineParent = int32(at.lineOf(at.ptr + "/parentID"))
	}
	x.msgs[o.id] = m
}

func internRole(r string) string {
	switch r {
	case "user":
		return "user"
	case "assistant":
		return "assistant"
	}
	return r
}

// addPart is checker.addPart for an export document.
func (x *exportCheck) addPart(at loc, msg, index int32, mid string, o obj) {
	c := x.c
	if o.result {
		c.entries++ // as the reader counts it (docs/commands.md, "entries")
	}
	if x.triggerParts == nil {
		x.triggerParts = map[string][2]int{}
	}
	if o.message == mid {
		o.message = mid
	}
	if o.session == x.sid {
		o.session = x.sid
	}
	n := x.triggerParts[o.message]
	n[0]++
	if o.summary {
		n[1]++
	}
	x.triggerParts[o.message] = n
	x.parts = append(x.parts, xpart{id: o.id, message: o.message, session: o.session, msg: msg, index: index,
		lineMessage: int32(at.lineOf(at.ptr + "/messageID")), lineSession: int32(at.lineOf(at.ptr + "/sessionID"))})
}

// finish is checker.finish for an export document: the session's rules,
// then the messages' and the parts', with the same findings in the same
// order.
func (x *exportCheck) finish() {
	c := x.c
	c.finish() // the session: its messages and parts are x's
	for _, m := range x.msgs {
		if !m.summary {
			continue
		}
		if p, ok := x.msgs[m.parent]; ok && triggers(p.role, x.triggerParts[m.parent][0], x.triggerParts[m.parent][1]) {
			c.entries--
		}
	}
	mids := make([]string, 0, len(x.msgs))
	for id := range x.msgs {
		mids = append(mids, id)
	}
	sort.Strings(mids)
	for _, id := range mids {
		m := x.msgs[id]
		ptr := "/messages/" + strconv.Itoa(int(m.index)) + "/info"
		if _, ok := c.sessions[m.session]; !ok {
			c.rep.Errorf(x.name, int(m.lineSession), ptr+"/sessionID", ruleOrphanMessage, "message %s belongs to session %s, which does not exist", id, m.session)
		}
		if m.role == "assistant" && m.parent != "" {
			p, ok := x.msgs[m.parent]
			switch {
			case !ok || p.session != m.session:
				c.rep.Errorf(x.name, int(m.lineParent), ptr+"/parentID", ruleAssistantPar, "parentID %s names no message of this session", m.parent)
			case p.role != "user":
				c.rep.Errorf(x.name, int(m.lineParent), ptr+"/parentID", ruleAssistantPar, "parentID %s names a message with role %s, not a user message", m.parent, p.role)
			}
		}
	}
	for _, p := range x.parts {
		m, ok := x.msgs[p.message]
		ptr := "/messages/" + strconv.Itoa(int(p.msg)) + "/parts/" + strconv.Itoa(int(p.index))
		switch {
		case !ok:
			c.rep.Errorf(x.name, int(p.lineMessage), ptr+"/messageID", ruleOrphanPart, "part %s belongs to message %s, which does not exist", p.id, p.message)
		case m.session != p.session:
			c.rep.Errorf(x.name, int(p.lineSession), ptr+"/sessionID", ruleKeyMismatch, "part %s says session %s, its message belongs to session %s", p.id, p.session, m.session)
		}
	}
}
