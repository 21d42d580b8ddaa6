package tree

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/sesstool/sesstool/jsonx"
	"github.com/sesstool/sesstool/session"
	"github.com/tidwall/gjson"
)

// The decoders below take one JSON object apart member by member. A member
// lands in a model slot only when the model can give it back exactly as it
// was: a non-empty string, a true flag, an integer where an integer is
// expected. Anything else (empty strings, false optional flags, values of an
// unexpected JSON type, members the model has no slot for) is kept verbatim in
// Extras, so the canonical encoding alone reproduces the value.

func str(v []byte) (string, bool) {
	s, ok := jsonx.Unquote(v)
	if !ok || s == "" {
		return "", false
	}
	return s, true
}

// scalar is gjson.ParseBytes(v) for a value that is not an object or
// array, with strings read by jsonx.Unquote (the same text, faster).
func scalar(v []byte) gjson.Result {
	if firstByte(v) == '"' {
		if s, ok := jsonx.Unquote(v); ok {
			return gjson.Result{Type: gjson.String, Str: s}
		}
	}
	return gjson.ParseBytes(v)
}

func integer(v []byte) (int64, bool) {
	v = bytes.TrimSpace(v)
	if n, ok, sure := shortInteger(v); sure {
		return n, ok
	}
	if len(v) == 0 || bytes.ContainsAny(v, ".eE+") || (v[0] != '-' && (v[0] < '0' || v[0] > '9')) {
		return 0, false
	}
	n, err := strconv.ParseInt(string(v), 10, 64)
	return n, err == nil
}

// canonical says that v, a minus and digits, is written as a number
// prints: no leading zero, no minus zero.
func canonical(v []byte) bool {
	d := bytes.TrimPrefix(v, []byte{'-'})
	return d[0] != '0' || len(v) == 1
}

// shortInteger reads v, an optional minus and up to 15 digits, without
// strconv (every entry's usage holds a few). ok says v is one; sure is
// false for more digits, which ParseInt reads.
func shortInteger(v []byte) (n int64, ok, sure bool) {
	d := v
	if len(d) > 0 && d[0] == '-' {
		d = d[1:]
	}
	if len(d) == 0 || len(d) > 15 {
		return 0, false, len(d) == 0
	}
	for _, c := range d {
		if c < '0' || c > '9' {
			return 0, false, true
		}
		n = n*10 + int64(c-'0')
	}
	if len(d) < len(v) {
		n = -n
	}
	return n, true, true
}

func number(v []byte) (float64, bool) {
	if n, ok, _ := shortInteger(v); ok && canonical(v) {
		return float64(n), true // exact, and printed as it is written
	}
	r := gjson.ParseBytes(v)
	if r.Type != gjson.Number {
		return 0, false
	}
	// Only a number a float64 holds exactly as written is modelled; one
	// that overflows or loses digits stays verbatim in Extras.
	enc := jsonx.AppendFloat(nil, r.Num)
	if !bytes.Equal(enc, bytes.TrimSpace(v)) && !jsonx.Equal(enc, v) {
		return 0, false
	}
	return r.Num, true
}

func flag(v []byte) (bool, bool) {
	switch string(bytes.TrimSpace(v)) {
	case "true":
		return true, true
	case "false":
		return false, true
	}
	return false, false
}

// isObject is gjson.ParseBytes(v).IsObject() without copying v: gjson
// skips every byte up to ' ' and looks at the first one after.
func isObject(v []byte) bool { return firstByte(v) == '{' }

func firstByte(v []byte) byte {
	for _, c := range v {
		if c > ' ' {
			return c
		}
	}
	return 0
}

func keep(x *session.Extras, k string, v []byte) {
	*x = append(*x, session.Field{Key: k, Value: json.RawMessage(bytes.Clone(v))})
}

func raw(v []byte) json.RawMessage { return json.RawMessage(bytes.Clone(v)) }

// header fills m from the session header line.
func decodeHeader(b []byte, m *session.Meta) error {
	m.Version = "1"
	return jsonx.Members(b, func(k string, v []byte) {
		switch k {
		case "type":
			if s, _ := str(v); s == "session" {
				return
			}
		case "version":
			if n, ok := integer(v); ok {
				m.Version = strconv.FormatInt(n, 10)
				return
			}
		case "id":
			if s, ok := str(v); ok {
				m.ID = s
				return
			}
		case "timestamp":
			if s, ok := str(v); ok {
				m.Created, _ = session.ParseTime(s)
				return
			}
		case "cwd":
			if s, ok := str(v); ok {
				m.Cwd = s
				return
			}
		case "title":
			if s, ok := str(v); ok {
				m.Title = s
				return
			}
		case "parentSession":
			if s, ok := str(v); ok {
				m.Parent = &session.Parent{Path: s}
				return
			}
		case "branchedFrom":
			// The pre-0.31 name of parentSession: kept under its own name so
			// it is written back as it was, and offered to other formats as
			// the parent path.
			if s, ok := str(v); ok && m.Parent == nil {
				m.Parent = &session.Parent{Path: s}
			}
		case "provider":
			if s, ok := str(v); ok {
				m.Provider = s
				return
			}
		case "modelId":
			if s, ok := str(v); ok {
				m.Model = s
				return
			}
		case "thinkingLevel":
			if s, ok := str(v); ok {
				m.ThinkingLevel = s
				return
			}
		default:
			keep(&m.Extra, k, v)
			return
		}
		// A slot's member whose value the model cannot hold (an empty cwd,
		// a title that is not a string), or branchedFrom, the old spelling
		// of parentSession: how this file spelled it, not a member the
		// model lacks.
		n := noteOn(m)
		keep(&n.Header, k, v)
	})
}

// decodeEntry fills e from one entry line. v1 says whether ids are derived
// (then id/parentId members, which v1 should not have, stay in Extras).
func decodeEntry(b []byte, e *session.Entry, v1 bool) error {
	t := gjson.GetBytes(b, "type")
	e.Type = t.String()
	kind := kindOf(e.Type)
	if t.Type != gjson.String {
		kind = session.KindOther
	}
	e.Kind = kind
	var body session.Extras // members of unmodelled entries
	// An entry with pi's provider/modelId keeps an oh-my-pi model member
	// as an extra: the model holds one spelling.
	piModel := kind == session.KindModelChange && (gjson.GetBytes(b, "provider").Exists() || gjson.GetBytes(b, "modelId").Exists())
	err := jsonx.Members(b, func(k string, v []byte) {
		switch k {
		case "type":
			if t.Type == gjson.String && t.Str != "" {
				return
			}
		case "id":
			if s, ok := str(v); ok && !v1 {
				e.ID = s
				return
			}
		case "parentId":
			if !v1 {
				if s, ok := str(v); ok {
					e.ParentID = s
					return
				}
				if string(bytes.TrimSpace(v)) == "null" {
					return
				}
			}
		case "timestamp":
			if s, ok := str(v); ok {
				e.Time, _ = session.ParseTime(s)
				return
			}
		}
		if kind == session.KindOther {
			keep(&body, k, v)
			return
		}
		if piModel && k == "model" {
			keep(&e.Extra, k, v)
			return
		}
		if !decodeMember(e, k, v) {
			keep(&e.Extra, k, v)
		}
	})
	if err != nil {
		return err
	}
	if kind == session.KindOther {
		e.Custom = &session.Custom{CustomType: e.Type, Data: objectOf(body)}
	}
	return nil
}

// objectOf rebuilds an object from members, in order.
func objectOf(x session.Extras) json.RawMessage {
	var o jsonx.Obj
	for _, f := range x {
		o.Raw(f.Key, f.Value)
	}
	return o.Bytes()
}

var kinds = map[string]session.Kind{
	"message":               session.KindMessage,
	"custom_message":        session.KindCustomMessage,
	"compaction":            session.KindCompaction,
	"branch_summary":        session.KindBranchSummary,
	"label":                 session.KindLabel,
	"model_change":          session.KindModelChange,
	"thinking_level_change": session.KindThinkingLevel,
	"session_info":          session.KindSessionInfo,
	"custom":                session.KindCustom,
}

func kindOf(t string) session.Kind {
	if k, ok := kinds[t]; ok {
		return k
	}
	return session.KindOther
}

// decodeMember puts one member of a modelled entry into its slot; false
// means it belongs in Extras.
func decodeMember(e *session.Entry, k string, v []byte) bool {
	switch e.Kind {
	case session.KindMessage:
		if k == "message" && isObject(v) {
			m, err := decodeMessage(v)
			if err == nil {
				e.Message = m
				return true
			}
		}
	case session.KindCustomMessage:
		if e.Message == nil {
			e.Message = &session.Message{Role: session.RoleCustom}
		}
		return customMessageMember(e.Message, k, v)
	case session.KindCompaction:
		return compactionMember(e, k, v)
	case session.KindBranchSummary:
		return branchSummaryMember(e, k, v)
	case session.KindLabel:
		if e.Label == nil {
			e.Label = &session.Label{}
		}
		switch k {
		case "targetId":
			s, ok := str(v)
			e.Label.TargetID = s
			return ok
		case "label":
			s, ok := str(v)
			e.Label.Label = s
			return ok
		}
	case session.KindModelChange:
		return modelChangeMember(e, k, v)
	case session.KindThinkingLevel:
		if k == "thinkingLevel" {
			if s, ok := str(v); ok {
				e.ThinkingLevel = &s
				return true
			}
		}
	case session.KindSessionInfo:
		if k == "name" {
			s, ok := str(v)
			e.Title = s
			return ok
		}
	case session.KindCustom:
		if e.Custom == nil {
			e.Custom = &session.Custom{}
		}
		switch k {
		case "customType":
			s, ok := str(v)
			e.Custom.CustomType = s
			return ok
		case "data":
			e.Custom.Data = raw(v)
			return true
		}
	}
	return false
}

func compactionMember(e *session.Entry, k string, v []byte) bool {
	if e.Compaction == nil {
		e.Compaction = &session.Compaction{}
	}
	c := e.Compaction
	switch k {
	case "summary":
		s, ok := str(v)
		c.Summary = s
		return ok
	case "firstKeptEntryId":
		s, ok := str(v)
		c.FirstKeptID = s
		return ok
	case "tokensBefore":
		if n, ok := integer(v); ok {
			c.TokensBefore = &n
			return true
		}
	case "tokensAfter":
		if n, ok := integer(v); ok {
			c.TokensAfter = &n
			return true
		}
	case "details":
		c.Details = raw(v)
		return true
	case "fromHook":
		if b, ok := flag(v); ok {
			c.FromHook = &b
			return true
		}
	}
	return false
}

func branchSummaryMember(e *session.Entry, k string, v []byte) bool {
	if e.BranchSummary == nil {
		e.BranchSummary = &session.BranchSummary{}
	}
	bs := e.BranchSummary
	switch k {
	case "fromId":
		s, ok := str(v)
		bs.FromID = s
		return ok
	case "summary":
		s, ok := str(v)
		bs.Summary = s
		return ok
	case "details":
		bs.Details = raw(v)
		return true
	case "fromHook":
		if b, ok := flag(v); ok {
			bs.FromHook = &b
			return true
		}
	}
	return false
}

func modelChangeMember(e *session.Entry, k string, v []byte) bool {
	if e.ModelChange == nil {
		e.ModelChange = &session.ModelChange{}
	}
	mc := e.ModelChange
	switch k {
	case "provider":
		s, ok := str(v)
		if ok {
			mc.Provider = s
		}
		return ok
	case "modelId":
		s, ok := str(v)
		if ok {
			mc.ModelID = s
		}
		return ok
	case "model":
		// oh-my-pi: "provider/modelId". Only a value that splits and joins
		// back to itself is modelled.
		s, ok := str(v)
		if !ok || mc.Combined {
			return false
		}
		i := bytes.IndexByte([]byte(s), '/')
		if i <= 0 || i == len(s)-1 {
			return false
		}
		mc.Provider, mc.ModelID, mc.Combined = s[:i], s[i+1:], true
		return true
	case "role":
		s, ok := str(v)
		mc.Role = s
		return ok
	}
	return false
}

// decodeMessage reads an AgentMessage object.
func decodeMessage(b []byte) (*session.Message, error) {
	m := &session.Message{}
	roleV := gjson.GetBytes(b, "role")
	if roleV.Type != gjson.String || roleV.Str == "" {
		return nil, fmt.Errorf("message has no role")
	}
	m.Role, m.SourceRole = roleOf(roleV.Str)
	err := jsonx.Members(b, func(k string, v []byte) {
		if !messageMember(m, k, v) {
			keep(&m.Extra, k, v)
		}
	})
	return m, err
}

var roles = map[string]session.Role{
	"user":              session.RoleUser,
	"assistant":         session.RoleAssistant,
	"developer":         session.RoleDeveloper,
	"toolResult":        session.RoleTool,
	"bashExecution":     session.RoleBash,
	"pythonExecution":   session.RolePython,
	"custom":            session.RoleCustom,
	"hookMessage":       session.RoleCustom,
	"fileMention":       session.RoleFiles,
	"branchSummary":     session.RoleSummary,
	"compactionSummary": session.RoleSummary,
}

// roleOf maps pi's role spelling to the neutral role and the spelling to
// keep when it differs from the neutral name. An unknown role keeps its
// spelling as both.
func roleOf(s string) (session.Role, string) {
	r, ok := roles[s]
	if !ok {
		return session.Role(s), s
	}
	if string(r) == s {
		return r, ""
	}
	return r, s
}

// roleName is roleOf's inverse.
func roleName(m *session.Message) string {
	if m.SourceRole != "" {
		return m.SourceRole
	}
	switch m.Role {
	case session.RoleTool:
		return "toolResult"
	case session.RoleBash:
		return "bashExecution"
	case session.RolePython:
		return "pythonExecution"
	case session.RoleFiles:
		return "fileMention"
	case session.RoleSystem:
		return "developer" // pi has no system role in a session; omp's developer is closest
	case session.RoleSummary:
		return "custom"
	}
	return string(m.Role)
}

func isExec(m *session.Message) bool {
	return m.Role == session.RoleBash || m.Role == session.RolePython
}

func messageMember(m *session.Message, k string, v []byte) bool {
	switch k {
	case "role":
		return true
	case "content":
		return decodeContent(v, &m.Content, &m.ContentIsString, &m.ContentIsNull)
	case "timestamp":
		if n, ok := integer(v); ok {
			m.Time = session.FromMillis(n)
			m.Time.Raw = string(bytes.TrimSpace(v))
			return true
		}
	case "api":
		s, ok := str(v)
		m.API = s
		return ok
	case "provider":
		s, ok := str(v)
		m.Provider = s
		return ok
	case "model":
		s, ok := str(v)
		m.Model = s
		return ok
	case "usage":
		if isObject(v) {
			m.Usage = decodeUsage(v)
			return true
		}
	case "stopReason":
		s, ok := str(v)
		m.StopReason = s
		return ok
	case "errorMessage":
		s, ok := str(v)
		m.Error = s
		return ok
	case "toolCallId":
		s, ok := str(v)
		m.ToolCallID = s
		return ok
	case "toolName":
		s, ok := str(v)
		m.ToolName = s
		return ok
	case "isError":
		// toolResult always carries isError; elsewhere only true is modelled.
		if b, ok := flag(v); ok && (b || m.Role == session.RoleTool) {
			m.IsError = b
			return true
		}
	case "customType":
		s, ok := str(v)
		m.CustomType = s
		return ok
	case "display":
		if b, ok := flag(v); ok {
			m.Display = &b
			return true
		}
	case "details":
		m.Details = raw(v)
		return true
	case "command", "code", "output", "exitCode", "cancelled", "truncated", "fullOutputPath":
		return isExec(m) && execMember(m, k, v)
	}
	return false
}

func execMember(m *session.Message, k string, v []byte) bool {
	if m.Exec == nil {
		m.Exec = &session.Exec{}
	}
	x := m.Exec
	switch k {
	case "command", "code":
		want := "command"
		if m.Role == session.RolePython {
			want = "code"
		}
		if k != want {
			return false
		}
		r := gjson.ParseBytes(v)
		x.Command = r.Str
		return r.Type == gjson.String
	case "output":
		r := gjson.ParseBytes(v)
		x.Output = r.Str
		return r.Type == gjson.String
	case "exitCode":
		if n, ok := integer(v); ok {
			x.ExitCode = &n
			return true
		}
	case "cancelled":
		b, ok := flag(v)
		x.Cancelled = b
		return ok
	case "truncated":
		b, ok := flag(v)
		x.Truncated = b
		return ok
	case "fullOutputPath":
		s, ok := str(v)
		x.FullOutputPath = s
		return ok
	}
	return false
}

// customMessageMember reads a custom_message entry's own members into its
// Message.
func customMessageMember(m *session.Message, k string, v []byte) bool {
	switch k {
	case "customType", "display", "details":
		return messageMember(m, k, v)
	case "content":
		return decodeContent(v, &m.Content, &m.ContentIsString, &m.ContentIsNull)
	}
	return false
}

// decodeContent reads a string or an array of blocks.
func decodeContent(v []byte, out *[]session.Block, isString, isNull *bool) bool {
	if firstByte(v) == '[' {
		// an array: its elements are read in place (gjson.ParseBytes would
		// copy the whole content first, only to learn its type)
		return decodeBlocks(v, out)
	}
	r := scalar(v)
	switch {
	case r.Type == gjson.String:
		*out = []session.Block{{Type: session.BlockText, Text: r.Str}}
		*isString = true
		return true
	case r.Type == gjson.Null:
		*isNull = true
		return true
	}
	return false
}

func decodeBlocks(v []byte, out *[]session.Block) bool {
	// Read into a few blocks on the stack, then allocate once at the
	// number read: a block is some 300 bytes, most messages hold one or two.
	var few [4]session.Block
	blocks := few[:0]
	ok := true
	_ = jsonx.Elements(v, func(_ int, ev []byte) {
		if !isObject(ev) {
			ok = false
			return
		}
		blocks = append(blocks, decodeBlock(ev))
	})
	if ok {
		*out = append(make([]session.Block, 0, len(blocks)), blocks...)
	}
	return ok
}

var blockTypes = map[string]session.BlockType{
	"text": session.BlockText, "thinking": session.BlockThinking,
	"image": session.BlockImage, "toolCall": session.BlockToolCall,
}

func decodeBlock(b []byte) session.Block {
	var blk session.Block
	t := gjson.GetBytes(b, "type")
	bt, known := blockTypes[t.Str]
	if t.Type != gjson.String || !known {
		// An unknown block type keeps its spelling and all its members.
		blk.Type = session.BlockType(t.Str)
		_ = jsonx.Members(b, func(k string, v []byte) {
			if k != "type" || t.Type != gjson.String {
				keep(&blk.Extra, k, v)
			}
		})
		if t.Type != gjson.String {
			blk.Type = ""
		}
		return blk
	}
	blk.Type = bt
	_ = jsonx.Members(b, func(k string, v []byte) {
		if !blockMember(&blk, k, v) {
			keep(&blk.Extra, k, v)
		}
	})
	return blk
}

func blockMember(b *session.Block, k string, v []byte) bool {
	if k == "type" {
		return true
	}
	var r gjson.Result // every use below wants a scalar
	if c := firstByte(v); c != '{' && c != '[' {
		r = scalar(v) // a call's arguments are not copied only to be ignored
	}
	switch b.Type {
	case session.BlockText:
		switch k {
		case "text":
			b.Text = r.Str
			return r.Type == gjson.String
		case "textSignature":
			s, ok := str(v)
			b.Signature = s
			return ok
		}
	case session.BlockThinking:
		switch k {
		case "thinking":
			b.Text = r.Str
			return r.Type == gjson.String
		case "thinkingSignature":
			s, ok := str(v)
			b.Signature = s
			return ok
		case "redacted":
			if r.Type == gjson.True {
				b.Redacted = true
				return true
			}
		}
	case session.BlockImage:
		switch k {
		case "data":
			b.Data = r.Str
			return r.Type == gjson.String
		case "mimeType":
			s, ok := str(v)
			b.MimeType = s
			return ok
		}
	case session.BlockToolCall:
		switch k {
		case "id":
			s, ok := str(v)
			b.ToolCallID = s
			return ok
		case "name":
			s, ok := str(v)
			b.ToolName = s
			return ok
		case "arguments":
			b.Arguments = raw(v)
			return true
		case "thoughtSignature":
			s, ok := str(v)
			b.Signature = s
			return ok
		}
	}
	return false
}

func decodeUsage(b []byte) *session.Usage {
	u := &session.Usage{}
	_ = jsonx.Members(b, func(k string, v []byte) {
		n, isInt := integer(v)
		ok := isInt
		switch k {
		case "input":
			u.Input = n
		case "output":
			u.Output = n
		case "cacheRead":
			u.CacheRead = n
		case "cacheWrite":
			u.CacheWrite = n
		case "totalTokens":
			if isInt {
				u.Total = &n
			}
		case "cost":
			ok = isObject(v)
			if ok {
				u.Cost = decodeCost(v)
			}
		default:
			ok = false
		}
		if !ok {
			keep(&u.Extra, k, v)
		}
	})
	return u
}

func decodeCost(b []byte) *session.Cost {
	c := &session.Cost{}
	_ = jsonx.Members(b, func(k string, v []byte) {
		f, ok := number(v)
		switch k {
		case "input":
			c.Input = f
		case "output":
			c.Output = f
		case "cacheRead":
			c.CacheRead = f
		case "cacheWrite":
			c.CacheWrite = f
		case "total":
			c.Total = f
		default:
			ok = false
		}
		if !ok {
			keep(&c.Extra, k, v)
		}
	})
	return c
}
