package gemini

import (
	"bytes"
	"fmt"

	"github.com/sesstool/sesstool/format"
	"github.com/tidwall/gjson"
)

// A session file is loaded as Gemini CLI 0.61.0's loadConversationRecord
// (services/chatRecordingService) loads it, record by record:
//   - {"$rewindTo": id} drops message id and every message after it; an id
//     not in the conversation drops every message;
//   - a record with a string id is a message: a new id goes last, a known
//     one is replaced where it first appeared (the last version wins);
//   - {"$set": {...}} merges into the metadata; a messages array in it
//     replaces every message;
//   - a record with sessionId and projectHash is the metadata (its
//     messages, if it has any, are added).
// A line that is not JSON is skipped, as the agent skips it. A file whose
// lines give no metadata is read whole as one legacy ConversationRecord.

// rec is one line of a JSON Lines file, or the whole legacy document.
type rec struct {
	n   int    // 1-based line
	raw []byte // the line as read, without its terminator
}

// msg is one message of the conversation as loaded: its last version.
type msg struct {
	id   string
	raw  []byte // the record (a line, or an element of a messages array)
	line int
	v    gjson.Result
}

// conv is a session file as Gemini CLI loads it.
type conv struct {
	legacy bool
	lines  []rec // every non-blank line (JSON Lines), for a verbatim copy
	// metaRaw is the metadata line (or the legacy document) as read;
	// metaLine its line.
	metaRaw  []byte
	metaLine int
	// meta is the metadata after every $set, member by member, in the
	// order JavaScript's spread keeps them (first appearance).
	meta  []member
	msgs  []*msg
	index map[string]int // id -> position in msgs

	// What the loader applied besides messages, for info.
	sets, rewinds, rewound, replaced, checkpoints int
	// unknownRewinds are the lines of rewinds naming no message.
	unknownRewinds []int
}

type member struct {
	key string
	val []byte
}

func (c *conv) get(key string) gjson.Result {
	for _, m := range c.meta {
		if m.key == key {
			return gjson.ParseBytes(m.val)
		}
	}
	return gjson.Result{}
}

func (c *conv) setMeta(key string, val []byte) {
	for i, m := range c.meta {
		if m.key == key {
			c.meta[i].val = val
			return
		}
	}
	c.meta = append(c.meta, member{key, val})
}

func (c *conv) put(m *msg) {
	if c.index == nil {
		c.index = map[string]int{}
	}
	if i, ok := c.index[m.id]; ok {
		c.msgs[i] = m
		c.replaced++
		return
	}
	c.index[m.id] = len(c.msgs)
	c.msgs = append(c.msgs, m)
}

func (c *conv) clear() {
	c.rewound += len(c.msgs)
	c.msgs = nil
	c.index = nil
}

// rewind drops id and every message after it, or every message when id is
// not one of them (as the agent does).
func (c *conv) rewind(id string, line int) {
	c.rewinds++
	i, ok := c.index[id]
	if !ok {
		c.unknownRewinds = append(c.unknownRewinds, line)
		c.clear()
		return
	}
	for _, m := range c.msgs[i:] {
		delete(c.index, m.id)
	}
	c.rewound += len(c.msgs) - i
	c.msgs = c.msgs[:i]
}

// addAll adds the messages of a messages array, each with line n.
func (c *conv) addAll(arr gjson.Result, raw []byte, n int) {
	arr.ForEach(func(_, m gjson.Result) bool {
		if id := m.Get("id"); id.Type == gjson.String {
			c.put(&msg{id: id.String(), raw: sub(raw, m), line: n, v: m})
		}
		return true
	})
}

// sub is the bytes of v inside raw, the document v was parsed from.
func sub(raw []byte, v gjson.Result) []byte {
	if at := offset(raw, v); at >= 0 {
		return raw[at : at+len(v.Raw)]
	}
	return []byte(v.Raw)
}

// offset is where v starts in raw, or -1 when gjson did not say.
func offset(raw []byte, v gjson.Result) int {
	if v.Index > 0 && v.Index+len(v.Raw) <= len(raw) && string(raw[v.Index:v.Index+len(v.Raw)]) == v.Raw {
		return v.Index
	}
	return -1
}

// load reads a whole session file as the agent does.
func load(name string, b []byte) (*conv, error) {
	b = format.TrimBOM(b)
	all := b
	c := &conv{}
	n := 0
	for len(b) > 0 {
		n++
		i := bytes.IndexByte(b, '\n')
		var l []byte
		if i < 0 {
			l, b = b, nil
		} else {
			l, b = b[:i], b[i+1:]
		}
		l = bytes.TrimSuffix(l, []byte("\r"))
		if len(bytes.TrimSpace(l)) == 0 {
			continue
		}
		c.lines = append(c.lines, rec{n: n, raw: l})
		if !gjson.ValidBytes(l) {
			continue
		}
		c.apply(gjson.ParseBytes(l), l, n)
	}
	if c.metaRaw != nil {
		return c, nil
	}
	return loadLegacy(name, all)
}

// apply is one record of the loader.
func (c *conv) apply(v gjson.Result, raw []byte, n int) {
	switch {
	case v.Get(`\$rewindTo`).Type == gjson.String:
		c.rewind(v.Get(`\$rewindTo`).String(), n)
	case v.Get("id").Type == gjson.String:
		c.put(&msg{id: v.Get("id").String(), raw: raw, line: n, v: v})
	case v.Get(`\$set`).IsObject():
		c.sets++
		set := v.Get(`\$set`)
		if ms := set.Get("messages"); ms.IsArray() {
			c.checkpoints++
			c.clear()
			c.addAll(ms, raw, n)
		}
		set.ForEach(func(k, val gjson.Result) bool {
			if k.String() != "messages" {
				c.setMeta(k.String(), []byte(val.Raw))
			}
			return true
		})
	case isMetadata(v):
		if c.metaRaw == nil {
			c.metaRaw, c.metaLine = raw, n
		}
		v.ForEach(func(k, val gjson.Result) bool {
			if k.String() != "messages" {
				c.setMeta(k.String(), []byte(val.Raw))
			}
			return true
		})
		if ms := v.Get("messages"); ms.IsArray() {
			c.addAll(ms, raw, n)
		}
	}
}

// loadLegacy reads the file again as one legacy document, as the agent
// falls back to it.
func loadLegacy(name string, all []byte) (*conv, error) {
	trimmed := bytes.TrimLeft(all, " \t\r\n")
	first := 1 + bytes.Count(all[:len(all)-len(trimmed)], []byte("\n"))
	doc := bytes.TrimRight(trimmed, " \t\r\n")
	if !gjson.ValidBytes(doc) {
		return nil, fmt.Errorf("%s: not a Gemini CLI session: no metadata line, and not one JSON document", name)
	}
	v := gjson.ParseBytes(doc)
	if !v.IsObject() || !v.Get("sessionId").Exists() {
		return nil, fmt.Errorf("%s: not a Gemini CLI session: no sessionId", name)
	}
	c := &conv{legacy: true, metaRaw: doc, metaLine: first}
	v.ForEach(func(k, val gjson.Result) bool {
		if k.String() != "messages" {
			c.setMeta(k.String(), []byte(val.Raw))
		}
		return true
	})
	c.addLegacy(v.Get("messages"), doc)
	return c, nil
}

// addLegacy adds a legacy document's messages, each with the line it
// starts on.
func (c *conv) addLegacy(arr gjson.Result, doc []byte) {
	arr.ForEach(func(_, m gjson.Result) bool {
		if id := m.Get("id"); id.Type == gjson.String {
			line := c.metaLine
			if at := offset(doc, m); at >= 0 {
				line += bytes.Count(doc[:at], []byte("\n"))
			}
			c.put(&msg{id: id.String(), raw: sub(doc, m), line: line, v: m})
		}
		return true
	})
	c.replaced = 0 // a legacy document holds each message once
}
