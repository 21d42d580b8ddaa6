package goat

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/sesstool/sesstool/report"
	"github.com/sesstool/sesstool/validate"
	"github.com/tidwall/gjson"
)

// messageRules are the checks on messages.jsonl that need more than one line:
// unique uuids, tool results that answer an earlier call, arguments that are
// JSON inside their string, timestamps that parse.
type messageRules struct {
	path   string
	rep    *report.Report
	schema *jsonschema.Schema
	ids    map[string]int  // uuid -> first line
	calls  map[string]bool // tool call ids seen so far
}

func (r *messageRules) Schema(gjson.Result) *jsonschema.Schema { return r.schema }

func (r *messageRules) Check(l validate.Line) {
	if l.Size > MaxLine {
		r.rep.Errorf(r.path, l.N, "", ruleLongLine, "the line is %d bytes; goat reads messages.jsonl lines of at most %d bytes (10 MiB) and cannot open the session (token too long)", l.Size, MaxLine)
	}
	if !l.Valid || !l.Value.IsObject() {
		return
	}
	v := l.Value
	if id := v.Get("uuid"); id.Type == gjson.String {
		if first, dup := r.ids[id.Str]; dup {
			r.rep.Errorf(r.path, l.N, "/uuid", "duplicate-id", "uuid %q was already used on line %d", id.Str, first)
		} else {
			r.ids[strings.Clone(id.Str)] = l.N // a copy: the key must not pin the line
		}
	}
	checkTime(r.rep, r.path, l.N, "/timestamp", v.Get("timestamp"))
	m := v.Get("message")
	for i, tc := range m.Get("tool_calls").Array() {
		ptr := fmt.Sprintf("/message/tool_calls/%d", i)
		if args := tc.Get("function.arguments"); args.Type == gjson.String && !l.IsCut(ptr+"/function/arguments") {
			switch {
			case !json.Valid([]byte(args.Str)):
				r.rep.Errorf(r.path, l.N, ptr+"/function/arguments", "tool-arguments", "function.arguments is not JSON inside its string: %s", clip(args.Str))
			case !gjson.Parse(args.Str).IsObject():
				// A call's input is an object for every model API (and every
				// other layout): goat's loop hands it on as the tool's input.
				r.rep.Errorf(r.path, l.N, ptr+"/function/arguments", "tool-arguments", "function.arguments is not a JSON object inside its string: %s", clip(args.Str))
			}
		}
		if id := tc.Get("id"); id.Type == gjson.String && id.Str != "" {
			r.calls[strings.Clone(id.Str)] = true
		}
	}
	if m.Get("role").Str == "tool" {
		if id := m.Get("tool_call_id"); id.Type == gjson.String && !r.calls[id.Str] {
			r.rep.Errorf(r.path, l.N, "/message/tool_call_id", "unknown-tool-call", "tool message answers %q, which no earlier assistant message called", id.Str)
		}
	}
}

func (r *messageRules) Finish() {}

// transcriptRules check transcript.jsonl lines beyond their schema.
type transcriptRules struct {
	path   string
	rep    *report.Report
	schema *jsonschema.Schema
	id     string
}

func (r *transcriptRules) Schema(gjson.Result) *jsonschema.Schema { return r.schema }

func (r *transcriptRules) Check(l validate.Line) {
	if !l.Valid {
		return
	}
	if sid := l.Value.Get("session_id"); sid.Type == gjson.String && r.id != "" && sid.Str != r.id {
		r.rep.Errorf(r.path, l.N, "/session_id", "transcript-session", "session_id %q is not this session's id %q", sid.Str, r.id)
	}
}

func (r *transcriptRules) Finish() {}

func clip(s string) string {
	if len(s) > 60 {
		s = s[:60] + "..."
	}
	return fmt.Sprintf("%q", s)
}

// safeName reports whether s can be used as one directory name without
// leaving its parent: no separators, not "." or "..", no NUL.
func safeName(s string) bool {
	return s != "" && s != "." && s != ".." && !strings.ContainsAny(s, "/\\\x00") && len(s) <= 255
}
